import { describe, expect, it } from 'vitest';
import { changedFields, settingsForm, settingText, type AdminEvent } from './admin-ops';

const words = { none: 'none', unlimited: 'Unlimited' };

describe('the event settings form and its history', () => {
  it('shows the settings in dollars and Taipei time, none as empty', () => {
    const event = {
      capacity: null,
      registerStartAt: '2026-10-01T00:00:00.000Z',
      registerEndAt: '2026-11-03T15:59:00.000Z',
      formModifyExpiresAt: null,
      priceCentsTwd: 100_000,
      priceCentsUsd: 3_500,
      originalPriceCentsTwd: null,
    } as AdminEvent;
    expect(settingsForm(event)).toEqual({
      capacity: '',
      registerStartAt: '2026-10-01T08:00',
      registerEndAt: '2026-11-03T23:59',
      formModifyExpiresAt: '',
      priceCentsTwd: '1000',
      priceCentsUsd: '35.00',
      originalPriceCentsTwd: '',
    });
    expect(settingsForm({ ...event, capacity: 0, priceCentsUsd: 0 })).toMatchObject({
      capacity: '0',
      priceCentsUsd: '0',
    });
  });

  it('reads a change field by field, in the form’s order, in the page’s language', () => {
    const lines = changedFields({
      priceCentsTwd: { before: 100_000, after: 120_000 },
      capacity: { before: 200, after: null },
      formModifyExpiresAt: { before: '2026-10-28T15:59:00.000Z', after: null },
    });
    expect(lines.map((l) => l.field)).toEqual(['capacity', 'formModifyExpiresAt', 'priceCentsTwd']);
    expect(settingText('capacity', null, 'en', words)).toBe('Unlimited');
    expect(settingText('formModifyExpiresAt', null, 'en', words)).toBe('none');
    expect(settingText('formModifyExpiresAt', '2026-10-28T15:59:00.000Z', 'en', words)).toBe(
      '2026/10/28 23:59 (GMT+8)',
    );
    expect(settingText('priceCentsTwd', 120_000, 'zh-TW', words)).toBe('新臺幣 1,200 元');
    expect(settingText('priceCentsUsd', 3_550, 'en', words)).toBe('US$35.50');
    expect(settingText('capacity', 150, 'en', words)).toBe('150');
  });
});
