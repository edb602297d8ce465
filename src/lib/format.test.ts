import { describe, expect, it } from 'vitest';
import { formatDateRange, formatDateTime, formatMoney } from './format';

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
  });
});
