import { describe, expect, it } from 'vitest';
import { fromTaipeiInput, taipeiDay, toTaipeiInput } from './taipei-time';

describe('datetime-local values in Taipei time', () => {
  it('shows an instant as Taipei wall-clock time', () => {
    expect(toTaipeiInput('2026-11-04T01:30:00.000Z')).toBe('2026-11-04T09:30');
    // Late UTC evening is the next day in Taipei.
    expect(toTaipeiInput(new Date('2026-11-03T16:00:00Z'))).toBe('2026-11-04T00:00');
    expect(taipeiDay('2026-11-03T16:00:00Z')).toBe('2026-11-04');
  });

  it('reads a typed value as Taipei time, whatever the zone of the machine', () => {
    expect(fromTaipeiInput('2026-11-04T09:30')?.toISOString()).toBe('2026-11-04T01:30:00.000Z');
    expect(fromTaipeiInput('2026-11-04T00:00:30')?.toISOString()).toBe('2026-11-03T16:00:30.000Z');
    expect(toTaipeiInput(fromTaipeiInput('2026-12-31T23:59')!)).toBe('2026-12-31T23:59');
  });

  it('refuses what is not a date-time, and impossible days', () => {
    for (const bad of ['', '2026-11-04', '2026-11-04 09:30', '2026-02-30T10:00', '2026-11-04T24:00', 'soon']) {
      expect(fromTaipeiInput(bad), bad).toBeNull();
    }
  });
});
