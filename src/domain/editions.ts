/*
 * Editions (issue 21, decisions 049 and 050): what an organiser may write of an edition (its
 * names and settings), the next edition's start, and the badge pick-up schedule, as superstruct
 * structs the back office's forms and the API share, and the rules across fields (a day range,
 * opening hours) as issues naming the field and the row.
 */
import { array, nullable, object, optional, pattern, refine, size, string, trimmed } from 'superstruct';
import { SLUG_PATTERN } from './event-catalogue';
import { IsoDateTime } from './validation';

export const EDITION_LIMITS = { slug: { min: 3, max: 60 }, name: 200, text: 200, schedule: 60 } as const;

const Name = size(trimmed(string()), 1, EDITION_LIMITS.name);
/** A setting's text; empty (or null) = the configuration's default (transfer instructions) or none. */
const Setting = nullable(size(trimmed(string()), 0, EDITION_LIMITS.text));
const Slug = refine(
  size(string(), EDITION_LIMITS.slug.min, EDITION_LIMITS.slug.max),
  'slug',
  (v) => SLUG_PATTERN.test(v) || 'Use lower-case letters, digits and single hyphens (tccf-2027)',
);
const HttpUrl = refine(size(trimmed(string()), 0, 500), 'url', (v) => {
  if (v === '') return true;
  try {
    const url = new URL(v);
    return url.protocol === 'https:' || url.protocol === 'http:' || 'Expected an http(s) address';
  } catch {
    return 'Expected an http(s) address';
  }
});
const Email = pattern(size(trimmed(string()), 0, 254), /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/);
const TimeZone = refine(size(string(), 1, 64), 'time_zone', (v) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return 'Expected an IANA time zone (Asia/Taipei)';
  }
});
/** A calendar day, `YYYY-MM-DD`, that exists. */
export const CalendarDay = refine(string(), 'day', (v) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return 'Expected a day as YYYY-MM-DD';
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.toISOString().slice(0, 10) === v || 'Expected a day that exists';
});
const Hour = pattern(string(), /^([01]\d|2[0-3]):[0-5]\d$/);
const Place = size(trimmed(string()), 1, EDITION_LIMITS.text);

/** The transfer instructions' fields (the pay page's block), each with its BANK_* default. */
export const BANK_FIELDS = [
  'bankName',
  'bankNameZh',
  'bankCode',
  'bankAccountName',
  'bankAccountNameZh',
  'bankAccountNumber',
  'bankSwiftCode',
] as const;
export type BankField = (typeof BANK_FIELDS)[number];

/** The settings an organiser writes (`PATCH /admin/editions/{slug}`): any of them; null or '' clears one. */
export const EditionSettingsPatch = object({
  nameEn: optional(Name),
  nameZh: optional(Name),
  timeZone: optional(TimeZone),
  venueMapUrl: optional(nullable(HttpUrl)),
  contactEmail: optional(nullable(Email)),
  badgeRightsFileId: optional(nullable(pattern(string(), /^[0-9a-f-]{36}$/i))),
  bankName: optional(Setting),
  bankNameZh: optional(Setting),
  bankCode: optional(Setting),
  bankAccountName: optional(Setting),
  bankAccountNameZh: optional(Setting),
  bankAccountNumber: optional(Setting),
  bankSwiftCode: optional(Setting),
  /** The `updatedAt` the form loaded: a save someone else made meanwhile is not overwritten. */
  expectedUpdatedAt: optional(IsoDateTime),
});
export type EditionSettingsPatch = typeof EditionSettingsPatch.TYPE;
export const SETTING_FIELDS = [
  'nameEn',
  'nameZh',
  'timeZone',
  'venueMapUrl',
  'contactEmail',
  'badgeRightsFileId',
  ...BANK_FIELDS,
] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

/** A new edition (`POST /admin/editions`): the first one, from the back office's empty state. */
export const EditionCreate = object({ slug: Slug, nameEn: Name, nameZh: Name });
export type EditionCreate = typeof EditionCreate.TYPE;

/** "Start the next edition" (`POST /admin/editions/next`): its names, slug and first day. */
export const NextEdition = object({ slug: Slug, nameEn: Name, nameZh: Name, firstDay: CalendarDay });
export type NextEdition = typeof NextEdition.TYPE;

/** One row of the pick-up schedule as `PUT /admin/pickup-schedule` takes it (the GET's shape). */
export const PickupSlotInput = object({
  firstDay: CalendarDay,
  lastDay: CalendarDay,
  opensAt: Hour,
  closesAt: Hour,
  placeEn: Place,
  placeZh: Place,
  /** The localised place the GET answers: accepted and ignored. */
  place: optional(string()),
});
export type PickupSlotInput = typeof PickupSlotInput.TYPE;
export const PickupScheduleInput = size(array(PickupSlotInput), 0, EDITION_LIMITS.schedule);

export type ScheduleIssue = {
  /** `{row}.{field}`: the row (from 0) and the field. */
  path: string;
  code: 'last_day_before_first' | 'closes_before_opens';
  message: string;
};

/** The rules across a row's fields: the range of days and of hours goes forward. */
export function scheduleIssues(rows: readonly PickupSlotInput[]): ScheduleIssue[] {
  const issues: ScheduleIssue[] = [];
  rows.forEach((row, i) => {
    if (row.lastDay < row.firstDay)
      issues.push({
        path: `${i}.lastDay`,
        code: 'last_day_before_first',
        message: 'The last day cannot be before the first',
      });
    if (row.closesAt <= row.opensAt)
      issues.push({ path: `${i}.closesAt`, code: 'closes_before_opens', message: 'Closing must come after opening' });
  });
  return issues;
}

/** Whole days from `from` to `to` (calendar days, `YYYY-MM-DD`). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** A calendar day moved by `days`. */
export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A slug not in `taken`: `base`, else `base-2`, `base-3`… (slugs are never reused). */
export function uniqueSlug(base: string, taken: ReadonlySet<string>, max = EDITION_LIMITS.slug.max): string {
  const trimmedBase = base.slice(0, max);
  if (!taken.has(trimmedBase)) return trimmedBase;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${trimmedBase.slice(0, max - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
