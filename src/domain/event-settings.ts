/**
 * The event settings organisers edit in the back office (issue 11): capacity, registration window,
 * form deadline and prices. One set of rules for the form (as the organiser types) and the API
 * (`PATCH /api/v1/admin/events/{slug}`, which checks them again against the seats taken at the
 * moment of the change, under the event's row lock).
 *
 * Prices apply to new orders only: an order's price is fixed when it is placed (./pricing,
 * decision 010), so nothing here touches placed orders.
 */
import { integer, nullable, object, optional, size, type Infer } from 'superstruct';
import type { RegistrationKind } from './kinds/kind';
import { fromTaipeiInput } from './taipei-time';
import { IsoDateTime } from './validation';

export const EVENT_SETTINGS_LIMITS = {
  capacity: 100_000,
  /** TWD 10,000,000 or US$10,000,000: far above any fee, well inside a 32-bit integer of cents. */
  priceCents: 1_000_000_000,
} as const;

/** Fields in the order the form shows them and the history lists them. */
export const EVENT_SETTING_FIELDS = [
  'capacity',
  'registerStartAt',
  'registerEndAt',
  'formModifyExpiresAt',
  'priceCentsTwd',
  'priceCentsUsd',
  'originalPriceCentsTwd',
] as const;
export type EventSettingField = (typeof EVENT_SETTING_FIELDS)[number];

/** The settings as they are (or would be after a change). */
export type EventSettings = {
  /** Null: unlimited. */
  capacity: number | null;
  registerStartAt: Date;
  registerEndAt: Date;
  /** Until when registrants may edit their forms and declared payment details; null: no deadline. */
  formModifyExpiresAt: Date | null;
  priceCentsTwd: number;
  /** 0: not offered in USD. */
  priceCentsUsd: number;
  /** The list price shown struck through beside a promotional price; null: none. */
  originalPriceCentsTwd: number | null;
};

const Cents = size(integer(), 0, EVENT_SETTINGS_LIMITS.priceCents);

/**
 * A change of settings (camelCase; the wire is snake_case): any subset of the fields. With
 * `expectedUpdatedAt` (the `updated_at` the form was loaded with) a change made meanwhile by
 * someone else is refused (`409 event_changed`) instead of being overwritten.
 */
export const EventSettingsPatch = object({
  capacity: optional(nullable(size(integer(), 0, EVENT_SETTINGS_LIMITS.capacity))),
  registerStartAt: optional(IsoDateTime),
  registerEndAt: optional(IsoDateTime),
  formModifyExpiresAt: optional(nullable(IsoDateTime)),
  priceCentsTwd: optional(Cents),
  priceCentsUsd: optional(Cents),
  originalPriceCentsTwd: optional(nullable(Cents)),
  expectedUpdatedAt: optional(IsoDateTime),
});
export type EventSettingsPatch = Infer<typeof EventSettingsPatch>;

/** The settings after a change. */
export function applySettingsPatch(current: EventSettings, patch: EventSettingsPatch): EventSettings {
  const date = (v: string) => new Date(v);
  return {
    capacity: patch.capacity !== undefined ? patch.capacity : current.capacity,
    registerStartAt: patch.registerStartAt ? date(patch.registerStartAt) : current.registerStartAt,
    registerEndAt: patch.registerEndAt ? date(patch.registerEndAt) : current.registerEndAt,
    formModifyExpiresAt:
      patch.formModifyExpiresAt !== undefined
        ? patch.formModifyExpiresAt
          ? date(patch.formModifyExpiresAt)
          : null
        : current.formModifyExpiresAt,
    priceCentsTwd: patch.priceCentsTwd ?? current.priceCentsTwd,
    priceCentsUsd: patch.priceCentsUsd ?? current.priceCentsUsd,
    originalPriceCentsTwd:
      patch.originalPriceCentsTwd !== undefined ? patch.originalPriceCentsTwd : current.originalPriceCentsTwd,
  };
}

export type EventSettingsIssueCode =
  | 'required'
  | 'invalid_date'
  | 'invalid_number'
  | 'invalid_amount'
  | 'too_large'
  | 'capacity_below_taken'
  | 'capacity_not_counted'
  | 'window_order'
  | 'twd_whole_dollars'
  | 'usd_without_twd'
  | 'free_event';

/** A refused field: the code (the form's message is `admin.events.issue.<code>`) and English wording (the API's). */
export type EventSettingsIssue = {
  path: EventSettingField;
  code: EventSettingsIssueCode;
  message: string;
  values?: Record<string, number>;
};

const MESSAGES: Record<EventSettingsIssueCode, (values: Record<string, number>) => string> = {
  required: () => 'Required',
  invalid_date: () => 'Enter a date and time',
  invalid_number: () => 'Enter a whole number',
  invalid_amount: () => 'Enter an amount (at most two decimals)',
  too_large: (v) => `At most ${v.max}`,
  capacity_below_taken: (v) => `Capacity cannot be below the ${v.taken} seats already taken`,
  capacity_not_counted: () => 'Registrations of this event take no seats: leave the capacity empty',
  window_order: () => 'Registration cannot end before it starts',
  twd_whole_dollars: () => 'TWD prices are whole dollars (card payments charge whole New Taiwan dollars)',
  usd_without_twd: () => 'An event priced in USD needs a TWD price too (orders without a TWD price are free)',
  free_event: () => 'Free badges are free: this event cannot have a price',
};
const issue = (path: EventSettingField, code: EventSettingsIssueCode, values?: Record<string, number>) => ({
  path,
  code,
  message: MESSAGES[code](values ?? {}),
  ...(values ? { values } : {}),
});

/**
 * The rules across fields and against the event as it is: capacity at least the seats taken (so
 * a registration in flight never finds more seats taken than there are), and only on events whose
 * registrations take seats (their kind's `holdsSeat`), registration start not after its end, TWD
 * prices whole dollars (the card gateway charges whole TWD), a USD price only beside a TWD one, and
 * no price on an event whose kind is free (`price: 'none'`, the free badge). The caller passes
 * the kind's facts (the form's island does not load the registry).
 */
export function eventSettingsIssues(
  settings: EventSettings,
  event: { seatsTaken: number } & Pick<RegistrationKind, 'holdsSeat' | 'price'>,
): EventSettingsIssue[] {
  const out: EventSettingsIssue[] = [];
  const free = event.price === 'none';
  if (settings.capacity !== null && !event.holdsSeat) out.push(issue('capacity', 'capacity_not_counted'));
  else if (settings.capacity !== null && settings.capacity < event.seatsTaken)
    out.push(issue('capacity', 'capacity_below_taken', { taken: event.seatsTaken }));
  if (settings.registerStartAt.getTime() > settings.registerEndAt.getTime())
    out.push(issue('registerEndAt', 'window_order'));
  if (free && settings.priceCentsTwd > 0) out.push(issue('priceCentsTwd', 'free_event'));
  else if (settings.priceCentsTwd % 100 !== 0) out.push(issue('priceCentsTwd', 'twd_whole_dollars'));
  if (settings.priceCentsUsd > 0 && settings.priceCentsTwd === 0 && !free)
    out.push(issue('priceCentsUsd', 'usd_without_twd'));
  if (free && settings.priceCentsUsd > 0) out.push(issue('priceCentsUsd', 'free_event'));
  if (settings.originalPriceCentsTwd !== null && settings.originalPriceCentsTwd % 100 !== 0)
    out.push(issue('originalPriceCentsTwd', 'twd_whole_dollars'));
  return out;
}

/** A setting's value on the wire and in the change history: dates as ISO strings. */
export type SettingValue = number | string | null;
const wireValue = (v: Date | number | null): SettingValue => (v instanceof Date ? v.toISOString() : v);

/**
 * The `fields` a change alters, each with its wire value before and after (nothing: no change);
 * `same` compares wire values (strict equality unless told).
 */
export function fieldChanges<F extends string, T extends Record<F, unknown>, V>(
  fields: readonly F[],
  before: T,
  after: T,
  wire: (value: T[F]) => V,
  same: (a: V, b: V) => boolean = (a, b) => a === b,
): Partial<Record<F, { before: V; after: V }>> {
  const out: Partial<Record<F, { before: V; after: V }>> = {};
  for (const field of fields) {
    const a = wire(before[field]);
    const b = wire(after[field]);
    if (!same(a, b)) out[field] = { before: a, after: b };
  }
  return out;
}

/** The settings a change alters, each with its value before and after (nothing: no change). */
export const settingsChanges = (before: EventSettings, after: EventSettings) =>
  fieldChanges(EVENT_SETTING_FIELDS, before, after, wireValue);

/** The form's fields as typed: numbers and `datetime-local` values (Taipei time) as strings. */
export type EventSettingsForm = Record<EventSettingField, string>;

/** Cents from an amount as typed (`1,000`, `35.5`); null when it is not an amount with at most two decimals. */
export function centsFromInput(text: string): number | null {
  const t = text.replace(/[,\s]/g, '');
  if (!/^\d+(?:\.\d{1,2})?$/.test(t)) return null;
  const [whole, fraction = ''] = t.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The form's text of an amount in cents (`1000`, `35.5` → `35.50`). */
export const inputFromCents = (cents: number | null, decimals: 0 | 2): string =>
  cents === null ? '' : decimals === 0 && cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);

/**
 * The form as a change (the API's body, camelCase) or its field issues: empty capacity is
 * unlimited, empty form deadline none, an empty list price none; dates are read as Taipei time.
 */
export function patchFromForm(
  form: EventSettingsForm,
): { ok: true; patch: EventSettingsPatch } | { ok: false; issues: EventSettingsIssue[] } {
  const issues: EventSettingsIssue[] = [];
  const whole = (field: EventSettingField, max: number, optional: boolean): number | null | undefined => {
    const t = form[field].trim();
    if (!t) {
      if (!optional) issues.push(issue(field, 'required'));
      return null;
    }
    if (!/^\d+$/.test(t.replace(/,/g, ''))) return void issues.push(issue(field, 'invalid_number'));
    const n = Number(t.replace(/,/g, ''));
    if (n > max) return void issues.push(issue(field, 'too_large', { max }));
    return n;
  };
  const amount = (field: EventSettingField, optional: boolean): number | null | undefined => {
    const t = form[field].trim();
    if (!t) {
      // An empty TWD or USD price is 0 (free, or not offered in USD); an empty list price is none.
      return optional ? null : 0;
    }
    const cents = centsFromInput(t);
    if (cents === null) return void issues.push(issue(field, 'invalid_amount'));
    if (cents > EVENT_SETTINGS_LIMITS.priceCents)
      return void issues.push(issue(field, 'too_large', { max: EVENT_SETTINGS_LIMITS.priceCents / 100 }));
    return cents;
  };
  const date = (field: EventSettingField, optional: boolean): string | null | undefined => {
    const t = form[field].trim();
    if (!t) {
      if (!optional) issues.push(issue(field, 'required'));
      return null;
    }
    const d = fromTaipeiInput(t);
    if (!d) return void issues.push(issue(field, 'invalid_date'));
    return d.toISOString();
  };
  const capacity = whole('capacity', EVENT_SETTINGS_LIMITS.capacity, true);
  const registerStartAt = date('registerStartAt', false);
  const registerEndAt = date('registerEndAt', false);
  const formModifyExpiresAt = date('formModifyExpiresAt', true);
  const priceCentsTwd = amount('priceCentsTwd', false);
  const priceCentsUsd = amount('priceCentsUsd', false);
  const originalPriceCentsTwd = amount('originalPriceCentsTwd', true);
  if (issues.length) return { ok: false, issues };
  return {
    ok: true,
    patch: {
      capacity: capacity ?? null,
      registerStartAt: registerStartAt!,
      registerEndAt: registerEndAt!,
      formModifyExpiresAt: formModifyExpiresAt ?? null,
      priceCentsTwd: priceCentsTwd ?? 0,
      priceCentsUsd: priceCentsUsd ?? 0,
      originalPriceCentsTwd: originalPriceCentsTwd ?? null,
    },
  };
}
