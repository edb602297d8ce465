import { describe, expect, it } from 'vitest';
import { kindOf } from './kinds/index';
import type { EventType } from './kinds/types';
import { check } from './validation';
import {
  applySettingsPatch,
  centsFromInput,
  EventSettingsPatch,
  eventSettingsIssues,
  inputFromCents,
  patchFromForm,
  settingsChanges,
  type EventSettings,
  type EventSettingsForm,
} from './event-settings';

const current: EventSettings = {
  capacity: 200,
  registerStartAt: new Date('2026-10-01T00:00:00Z'),
  registerEndAt: new Date('2026-11-03T15:59:00Z'),
  formModifyExpiresAt: new Date('2026-10-28T15:59:00Z'),
  priceCentsTwd: 100_000,
  priceCentsUsd: 3_500,
  originalPriceCentsTwd: null,
};
/** An event of this type with seats taken, as the rules see it (its kind's facts). */
const eventOf = (type: EventType, seatsTaken: number) => ({
  seatsTaken,
  holdsSeat: kindOf(type).holdsSeat,
  price: kindOf(type).price,
});
const general = eventOf('event_general', 42);
const codes = (s: EventSettings, e = general) => eventSettingsIssues(s, e).map((i) => `${i.path}:${i.code}`);

describe('event settings: the rules', () => {
  it('accepts the settings as they are', () => {
    expect(codes(current)).toEqual([]);
  });

  it('capacity may go down to the seats taken, not below; null is unlimited', () => {
    expect(codes({ ...current, capacity: 42 })).toEqual([]);
    expect(codes({ ...current, capacity: 41 })).toEqual(['capacity:capacity_below_taken']);
    expect(eventSettingsIssues({ ...current, capacity: 41 }, general)[0]).toMatchObject({
      values: { taken: 42 },
      message: 'Capacity cannot be below the 42 seats already taken',
    });
    expect(codes({ ...current, capacity: null })).toEqual([]);
  });

  it('only events whose registrations take seats have a capacity', () => {
    const online = eventOf('market_online', 0);
    expect(codes({ ...current, capacity: 10 }, online)).toEqual(['capacity:capacity_not_counted']);
    expect(codes({ ...current, capacity: null }, online)).toEqual([]);
  });

  it('registration cannot end before it starts (the same instant is fine)', () => {
    expect(codes({ ...current, registerEndAt: new Date('2026-09-30T23:59:59Z') })).toEqual([
      'registerEndAt:window_order',
    ]);
    expect(codes({ ...current, registerEndAt: current.registerStartAt })).toEqual([]);
  });

  it('TWD prices are whole dollars; USD needs a TWD price; the free-badge event has no price', () => {
    expect(codes({ ...current, priceCentsTwd: 100_050 })).toEqual(['priceCentsTwd:twd_whole_dollars']);
    expect(codes({ ...current, priceCentsUsd: 3_550 })).toEqual([]);
    expect(codes({ ...current, priceCentsTwd: 0 })).toEqual(['priceCentsUsd:usd_without_twd']);
    expect(codes({ ...current, priceCentsTwd: 0, priceCentsUsd: 0 })).toEqual([]);
    expect(codes({ ...current, originalPriceCentsTwd: 150_010 })).toEqual(['originalPriceCentsTwd:twd_whole_dollars']);
    const free = eventOf('badge_free', 0);
    expect(codes({ ...current, capacity: null, priceCentsTwd: 0, priceCentsUsd: 0 }, free)).toEqual([]);
    expect(codes({ ...current, capacity: null }, free)).toEqual([
      'priceCentsTwd:free_event',
      'priceCentsUsd:free_event',
    ]);
  });
});

describe('event settings: a change', () => {
  it('the wire struct takes any subset, refuses unknown fields, negative numbers and dates without an offset', () => {
    expect(check({ capacity: 150 }, EventSettingsPatch).ok).toBe(true);
    expect(check({ capacity: null, formModifyExpiresAt: null }, EventSettingsPatch).ok).toBe(true);
    expect(check({ seatsTaken: 0 }, EventSettingsPatch).ok).toBe(false);
    expect(check({ capacity: -1 }, EventSettingsPatch).ok).toBe(false);
    expect(check({ capacity: 1.5 }, EventSettingsPatch).ok).toBe(false);
    expect(check({ registerEndAt: '2026-11-04T09:30' }, EventSettingsPatch).ok).toBe(false);
    expect(check({ registerEndAt: '2026-11-04T09:30+08:00' }, EventSettingsPatch).ok).toBe(true);
  });

  it('applies what is given and keeps the rest', () => {
    const after = applySettingsPatch(current, { capacity: null, registerEndAt: '2026-11-04T09:30+08:00' });
    expect(after).toEqual({ ...current, capacity: null, registerEndAt: new Date('2026-11-04T01:30:00Z') });
    expect(applySettingsPatch(current, { formModifyExpiresAt: null }).formModifyExpiresAt).toBeNull();
  });

  it('lists each changed field before and after, dates as ISO strings, nothing when nothing changes', () => {
    const after = applySettingsPatch(current, {
      capacity: 150,
      priceCentsTwd: 120_000,
      formModifyExpiresAt: '2026-10-20T00:00:00.000Z',
      registerStartAt: current.registerStartAt.toISOString(),
    });
    expect(settingsChanges(current, after)).toEqual({
      capacity: { before: 200, after: 150 },
      formModifyExpiresAt: { before: '2026-10-28T15:59:00.000Z', after: '2026-10-20T00:00:00.000Z' },
      priceCentsTwd: { before: 100_000, after: 120_000 },
    });
    expect(settingsChanges(current, { ...current })).toEqual({});
  });
});

describe('event settings: the form', () => {
  const form: EventSettingsForm = {
    capacity: '150',
    registerStartAt: '2026-10-01T08:00',
    registerEndAt: '2026-11-03T23:59',
    formModifyExpiresAt: '',
    priceCentsTwd: '1,200',
    priceCentsUsd: '35.5',
    originalPriceCentsTwd: '',
  };

  it('reads amounts in dollars, dates in Taipei time, empty optional fields as none', () => {
    expect(patchFromForm(form)).toEqual({
      ok: true,
      patch: {
        capacity: 150,
        registerStartAt: '2026-10-01T00:00:00.000Z',
        registerEndAt: '2026-11-03T15:59:00.000Z',
        formModifyExpiresAt: null,
        priceCentsTwd: 120_000,
        priceCentsUsd: 3_550,
        originalPriceCentsTwd: null,
      },
    });
    expect(patchFromForm({ ...form, capacity: '', priceCentsUsd: '' })).toMatchObject({
      ok: true,
      patch: { capacity: null, priceCentsUsd: 0 },
    });
  });

  it('names each field it cannot read', () => {
    const result = patchFromForm({
      ...form,
      capacity: '12.5',
      registerStartAt: '',
      registerEndAt: '2026-02-30T10:00',
      priceCentsTwd: '1.234',
      priceCentsUsd: '99999999999',
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((i) => `${i.path}:${i.code}`)).toEqual([
      'capacity:invalid_number',
      'registerStartAt:required',
      'registerEndAt:invalid_date',
      'priceCentsTwd:invalid_amount',
      'priceCentsUsd:too_large',
    ]);
  });

  it('amounts to and from cents', () => {
    expect(centsFromInput('1,000')).toBe(100_000);
    expect(centsFromInput('35.05')).toBe(3_505);
    expect(centsFromInput('-1')).toBeNull();
    expect(centsFromInput('1e3')).toBeNull();
    expect(inputFromCents(100_000, 0)).toBe('1000');
    expect(inputFromCents(3_500, 2)).toBe('35.00');
    expect(inputFromCents(null, 2)).toBe('');
  });
});
