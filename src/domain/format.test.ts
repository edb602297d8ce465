import { describe, expect, it } from 'vitest';
import {
  dayRangeParts,
  formatDateRange,
  formatDateTime,
  formatDayRange,
  formatMoney,
  formatPriceTimes,
} from './format';

describe('formatting (spec §9)', () => {
  it('shows dates as yyyy/M/d HH:mm with the offset, in Taipei time', () => {
    expect(formatDateTime('2026-11-04T01:30:00Z')).toBe('2026/11/4 09:30 (GMT+8)');
    expect(formatDateTime('2026-11-03T16:05:00Z')).toBe('2026/11/4 00:05 (GMT+8)');
    expect(formatDateTime('2026-11-04T01:30:00Z', 'UTC')).toBe('2026/11/4 01:30 (GMT+0)');
  });
  it('shows ranges compactly on one day and fully across days', () => {
    expect(formatDateRange('2026-11-04T01:30:00Z', '2026-11-04T09:00:00Z')).toBe('2026/11/4 09:30–17:00 (GMT+8)');
    expect(formatDateRange('2026-11-04T01:30:00Z', '2026-11-12T09:00:00Z')).toBe(
      '2026/11/4 09:30 – 2026/11/12 17:00 (GMT+8)',
    );
  });
  it('formats money from cents per currency', () => {
    expect(formatMoney(100_000, 'TWD')).toBe('TWD 1,000');
    expect(formatMoney(1_000_000, 'TWD')).toBe('TWD 10,000');
    expect(formatMoney(3_500, 'USD')).toBe('US$35.00');
    expect(formatMoney(123_456, 'USD')).toBe('US$1,234.56');
    expect(formatMoney(0, 'TWD')).toBe('TWD 0');
    expect(formatMoney(100_000, 'TWD', 'en')).toBe('TWD 1,000');
  });
  it('shows a charge of several items as unit × quantity = total, one item as its amount', () => {
    expect(formatPriceTimes(3_500, 2, 'USD')).toBe('US$35.00 × 2 = US$70.00');
    expect(formatPriceTimes(100_000, 3, 'TWD', 'zh-TW')).toBe('新臺幣 1,000 元 × 3 = 新臺幣 3,000 元');
    expect(formatPriceTimes(100_000, 1, 'TWD')).toBe('TWD 1,000');
  });
  it('writes NT dollars the Chinese way in zh-TW, in text and tables alike (decision 013)', () => {
    expect(formatMoney(100_000, 'TWD', 'zh-TW')).toBe('新臺幣 1,000 元');
    expect(formatMoney(1_000_000, 'TWD', 'zh-TW')).toBe('新臺幣 10,000 元');
    expect(formatMoney(0, 'TWD', 'zh-TW')).toBe('新臺幣 0 元');
    expect(formatMoney(3_500, 'USD', 'zh-TW')).toBe('US$35.00');
  });
  it('shows calendar days with the year and weekday in both languages', () => {
    expect(formatDayRange('2026-12-14', '2026-12-16', 'en')).toBe('2026/12/14 (Mon)–12/16 (Wed)');
    expect(formatDayRange('2026-12-14', '2026-12-16', 'zh-TW')).toBe('2026/12/14（一）至 12/16（三）');
    expect(formatDayRange('2026-12-17', '2026-12-17', 'en')).toBe('2026/12/17 (Thu)');
    expect(formatDayRange('2026-12-17', '2026-12-17', 'zh-TW')).toBe('2026/12/17（四）');
    expect(formatDayRange('2026-11-04', '2026-11-06', 'en')).toBe('2026/11/4 (Wed)–11/6 (Fri)');
    // Across the new year the end has its year too.
    expect(formatDayRange('2026-12-31', '2027-01-02', 'en')).toBe('2026/12/31 (Thu)–2027/1/2 (Sat)');
    expect(formatDayRange('2026-12-31', '2027-01-02', 'zh-TW')).toBe('2026/12/31（四）至 2027/1/2（六）');
    expect(() => formatDayRange('2026-12-1', '2026-12-02', 'en')).toThrow(RangeError);
    // The pieces a line may not break inside.
    expect(dayRangeParts('2026-12-14', '2026-12-16', 'zh-TW')).toEqual(['2026/12/14（一）', '至 ', '12/16（三）']);
    expect(dayRangeParts('2026-12-17', '2026-12-17', 'en')).toEqual(['2026/12/17 (Thu)']);
  });
});
