/**
 * The event catalogue of the back office (issue 21): events organisers create, edit, duplicate,
 * publish, unpublish and archive. One set of structs and rules for the form (as the organiser
 * types) and the API (`POST /api/v1/admin/events`, `PATCH /api/v1/admin/events/{slug}`), which
 * checks them again against the event as it is, under its row lock (decisions 030, 054).
 *
 * What a field may hold depends on the event's kind, read from its module through the facts
 * below (the form's island does not load the registry): approval only where the kind lets the
 * event decide, included badges where the kind includes some (Market, pitching), an address for
 * events held at the venue, a live-stream link for online ones.
 */
import {
  assign,
  boolean,
  enums,
  integer,
  nullable,
  object,
  optional,
  pattern,
  refine,
  size,
  string,
  type Infer,
} from 'superstruct';
import {
  eventSettingsIssues,
  fieldChanges,
  EventSettingsPatch,
  EVENT_SETTING_FIELDS,
  EVENT_SETTINGS_LIMITS,
  patchFromForm,
  type EventSettings,
  type EventSettingsForm,
  type EventSettingsIssue,
  type SettingValue,
} from './event-settings';
import type { RegistrationKind } from './kinds/kind';
import { EVENT_TYPES, type EventType } from './kinds/types';
import { fromTaipeiInput } from './taipei-time';
import { IsoDateTime, UuidString } from './validation';

/** Where an event is in its life: drafts are seen in the back office only; archived ones leave the public lists. */
export const EVENT_STATUSES = ['draft', 'published', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const EVENT_CATALOGUE_LIMITS = {
  slug: { min: 3, max: 60 },
  name: 200,
  description: 5_000,
  location: 200,
  addressPart: 200,
  url: 500,
  includedBadges: 50,
} as const;

/** Lower-case letters and digits in words joined by single hyphens: `opening-forum-2027`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What the catalogue's rules need to know of a kind (its module's properties). */
export type KindFacts = Pick<
  RegistrationKind,
  'holdsSeat' | 'price' | 'approval' | 'publicAction' | 'includedBadges' | 'attendance' | 'quantity'
>;
export const kindFacts = (k: RegistrationKind): KindFacts => ({
  holdsSeat: k.holdsSeat,
  price: k.price,
  approval: k.approval,
  publicAction: k.publicAction,
  includedBadges: k.includedBadges,
  attendance: k.attendance,
  quantity: k.quantity,
});
/** Whether the event decides if its registrations wait for approval (the kind does not always ask, and takes registrations). */
export const approvalOffered = (k: KindFacts) => k.approval === 'per_event' && k.publicAction === 'register';
/** Whether the event may say how many free badges each order includes (the kind includes some). */
export const includedBadgesOffered = (k: KindFacts) => k.includedBadges > 0;

const text = (max: number) => size(string(), 0, max);
const HttpsUrl = refine(size(string(), 1, EVENT_CATALOGUE_LIMITS.url), 'url', (v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' && !u.username && !u.password) || 'Expected an https:// address';
  } catch {
    return 'Expected an https:// address';
  }
});

/** A venue's postal address in one language (schema.org PostalAddress). */
export const EventAddress = object({
  streetAddress: text(EVENT_CATALOGUE_LIMITS.addressPart),
  addressLocality: text(EVENT_CATALOGUE_LIMITS.addressPart),
  addressRegion: text(EVENT_CATALOGUE_LIMITS.addressPart),
  postalCode: text(20),
  /** ISO 3166-1 alpha-2. */
  addressCountry: pattern(string(), /^[A-Z]{2}$/),
});
export type EventAddress = Infer<typeof EventAddress>;

/** The catalogue's own fields (beyond the settings of ./event-settings), all optional: a change. */
const DetailsPatch = object({
  type: optional(enums(EVENT_TYPES)),
  nameEn: optional(text(EVENT_CATALOGUE_LIMITS.name)),
  nameZh: optional(text(EVENT_CATALOGUE_LIMITS.name)),
  descriptionEn: optional(text(EVENT_CATALOGUE_LIMITS.description)),
  descriptionZh: optional(text(EVENT_CATALOGUE_LIMITS.description)),
  locationEn: optional(text(EVENT_CATALOGUE_LIMITS.location)),
  locationZh: optional(text(EVENT_CATALOGUE_LIMITS.location)),
  startTime: optional(IsoDateTime),
  endAt: optional(IsoDateTime),
  requiresApproval: optional(boolean()),
  includedBadges: optional(nullable(size(integer(), 0, EVENT_CATALOGUE_LIMITS.includedBadges))),
  /** Null: the edition's venue. */
  addressEn: optional(nullable(EventAddress)),
  addressZh: optional(nullable(EventAddress)),
  liveStreamUrl: optional(nullable(HttpsUrl)),
  /** An `event_image` upload; null: none of its own. */
  imageFileId: optional(nullable(UuidString)),
});

/**
 * A change of an event (`PATCH /api/v1/admin/events/{slug}`, camelCase; the wire is snake_case):
 * any of its fields, settings included. The slug never changes (links and orders name it).
 */
export const EventPatch = assign(EventSettingsPatch, DetailsPatch);
export type EventPatch = Infer<typeof EventPatch>;

/**
 * A new event (`POST /api/v1/admin/events`): the fields `GET /api/v1/events/{slug}` answers, plus
 * `published` (default false: a draft). Name, dates and window are required; the rest default.
 */
export const EventCreate = assign(
  EventPatch,
  object({
    slug: size(string(), 1, 100),
    type: enums(EVENT_TYPES),
    nameEn: text(EVENT_CATALOGUE_LIMITS.name),
    nameZh: text(EVENT_CATALOGUE_LIMITS.name),
    startTime: IsoDateTime,
    endAt: IsoDateTime,
    registerStartAt: IsoDateTime,
    registerEndAt: IsoDateTime,
    published: optional(boolean()),
  }),
);
export type EventCreate = Infer<typeof EventCreate>;

/** A copy of an event (`POST /api/v1/admin/events/{slug}/duplicate`): its new slug, and names if they change. */
export const EventDuplicate = object({
  slug: size(string(), 1, 100),
  nameEn: optional(text(EVENT_CATALOGUE_LIMITS.name)),
  nameZh: optional(text(EVENT_CATALOGUE_LIMITS.name)),
});
export type EventDuplicate = Infer<typeof EventDuplicate>;

/** An event's texts, each in both languages: its name, description and place. */
export const CATALOGUE_TEXTS = [
  'nameEn',
  'nameZh',
  'descriptionEn',
  'descriptionZh',
  'locationEn',
  'locationZh',
] as const;
export type CatalogueTexts = Record<(typeof CATALOGUE_TEXTS)[number], string>;

/** The texts of an event (or of anything that has them), in CATALOGUE_TEXTS's order. */
export const catalogueTexts = (e: CatalogueTexts): CatalogueTexts =>
  Object.fromEntries(CATALOGUE_TEXTS.map((f) => [f, e[f]])) as CatalogueTexts;

/** No texts yet (a new event, a blank form). */
const noTexts = (): CatalogueTexts => Object.fromEntries(CATALOGUE_TEXTS.map((f) => [f, ''])) as CatalogueTexts;

/** Everything an event is, as the rules see it (after a change, or new). */
export type CatalogueEvent = EventSettings &
  CatalogueTexts & {
    type: EventType;
    startTime: Date;
    endAt: Date;
    requiresApproval: boolean;
    includedBadges: number | null;
    addressEn: EventAddress | null;
    addressZh: EventAddress | null;
    liveStreamUrl: string | null;
    imageFileId: string | null;
  };

/** Fields in the order the form shows them and the history lists them (settings last). */
export const CATALOGUE_FIELDS = [
  'type',
  ...CATALOGUE_TEXTS,
  'addressEn',
  'addressZh',
  'startTime',
  'endAt',
  'requiresApproval',
  'includedBadges',
  'liveStreamUrl',
  'imageFileId',
  ...EVENT_SETTING_FIELDS,
] as const;
export type CatalogueField = (typeof CATALOGUE_FIELDS)[number];

export type CatalogueIssueCode =
  | EventSettingsIssue['code']
  | 'slug_format'
  | 'slug_taken'
  | 'end_before_start'
  | 'approval_not_offered'
  | 'included_badges_not_offered'
  | 'address_not_venue'
  | 'live_link_not_online'
  | 'invalid_url'
  | 'invalid_image'
  | 'type_fixed';

/** A refused field: the code (the form's message is `admin.events.issue.<code>`) and English wording (the API's). */
export type CatalogueIssue = {
  path: CatalogueField | 'slug' | 'addressCountry';
  code: CatalogueIssueCode;
  message: string;
  values?: Record<string, number>;
};

const MESSAGES: Record<Exclude<CatalogueIssueCode, EventSettingsIssue['code']>, string> = {
  slug_format: 'Use 3 to 60 lower-case letters, digits and single hyphens (opening-forum-2027)',
  slug_taken: 'This address is or was used by another event: choose another',
  end_before_start: 'The event cannot end before it starts',
  approval_not_offered: 'Registrations of this event type cannot wait for approval',
  included_badges_not_offered: 'Orders of this event type include no free badges',
  address_not_venue: 'An online event has no postal address',
  live_link_not_online: 'Only online events have a live-stream link',
  invalid_url: 'Enter an https:// address',
  invalid_image: 'Upload the image again (a PNG or JPEG uploaded as an event image)',
  type_fixed: 'The type of a published event, or of one with orders, cannot change',
};
export const catalogueIssue = (
  path: CatalogueIssue['path'],
  code: Exclude<CatalogueIssueCode, EventSettingsIssue['code']>,
): CatalogueIssue => ({ path, code, message: MESSAGES[code] });

/** Whether a slug has the catalogue's format (uniqueness is the database's). */
export const slugIssue = (slug: string): CatalogueIssue | null =>
  SLUG_PATTERN.test(slug) &&
  slug.length >= EVENT_CATALOGUE_LIMITS.slug.min &&
  slug.length <= EVENT_CATALOGUE_LIMITS.slug.max
    ? null
    : catalogueIssue('slug', 'slug_format');

/** An event after a change (the settings through ./event-settings' own rule). */
export function applyEventPatch(current: CatalogueEvent, patch: EventPatch): CatalogueEvent {
  const pick = <K extends keyof CatalogueEvent>(key: K, value: CatalogueEvent[K] | undefined) =>
    value !== undefined ? value : current[key];
  const date = (v: string | undefined, was: Date) => (v ? new Date(v) : was);
  return {
    capacity: patch.capacity !== undefined ? patch.capacity : current.capacity,
    registerStartAt: date(patch.registerStartAt, current.registerStartAt),
    registerEndAt: date(patch.registerEndAt, current.registerEndAt),
    formModifyExpiresAt:
      patch.formModifyExpiresAt !== undefined
        ? patch.formModifyExpiresAt
          ? new Date(patch.formModifyExpiresAt)
          : null
        : current.formModifyExpiresAt,
    priceCentsTwd: patch.priceCentsTwd ?? current.priceCentsTwd,
    priceCentsUsd: patch.priceCentsUsd ?? current.priceCentsUsd,
    originalPriceCentsTwd: pick('originalPriceCentsTwd', patch.originalPriceCentsTwd),
    type: pick('type', patch.type),
    nameEn: pick('nameEn', patch.nameEn?.trim()),
    nameZh: pick('nameZh', patch.nameZh?.trim()),
    descriptionEn: pick('descriptionEn', patch.descriptionEn?.trim()),
    descriptionZh: pick('descriptionZh', patch.descriptionZh?.trim()),
    locationEn: pick('locationEn', patch.locationEn?.trim()),
    locationZh: pick('locationZh', patch.locationZh?.trim()),
    startTime: date(patch.startTime, current.startTime),
    endAt: date(patch.endAt, current.endAt),
    requiresApproval: pick('requiresApproval', patch.requiresApproval),
    includedBadges: pick('includedBadges', patch.includedBadges),
    addressEn: pick('addressEn', patch.addressEn),
    addressZh: pick('addressZh', patch.addressZh),
    liveStreamUrl: pick('liveStreamUrl', patch.liveStreamUrl),
    imageFileId: pick('imageFileId', patch.imageFileId),
  };
}

/** A new event's starting point: nothing set but what the create call must give. */
export function newCatalogueEvent(body: EventCreate): CatalogueEvent {
  const blank: CatalogueEvent = {
    type: body.type,
    ...noTexts(),
    startTime: new Date(body.startTime),
    endAt: new Date(body.endAt),
    requiresApproval: false,
    includedBadges: null,
    addressEn: null,
    addressZh: null,
    liveStreamUrl: null,
    imageFileId: null,
    capacity: null,
    registerStartAt: new Date(body.registerStartAt),
    registerEndAt: new Date(body.registerEndAt),
    formModifyExpiresAt: null,
    priceCentsTwd: 0,
    priceCentsUsd: 0,
    originalPriceCentsTwd: null,
  };
  return applyEventPatch(blank, body);
}

/**
 * The rules across fields, against the kind and against the event as it is: the settings' rules
 * (./event-settings: seats, window, prices), both names, the event's end not before its start,
 * approval, included badges, address and live-stream link only where the kind has them, and a
 * type that changes only on a draft without orders (a published event's type is fixed: its
 * pages, orders and e-mails follow it).
 */
export function catalogueIssues(
  event: CatalogueEvent,
  kind: KindFacts,
  state: { seatsTaken: number; typeChanged?: boolean; status?: EventStatus; orders?: number },
): CatalogueIssue[] {
  const out: CatalogueIssue[] = [];
  if (state.typeChanged && (state.status !== 'draft' || (state.orders ?? 0) > 0))
    out.push(catalogueIssue('type', 'type_fixed'));
  for (const path of ['nameEn', 'nameZh'] as const)
    if (!event[path].trim()) out.push({ path, code: 'required', message: 'Required' });
  if (event.endAt.getTime() < event.startTime.getTime()) out.push(catalogueIssue('endAt', 'end_before_start'));
  if (event.requiresApproval && !approvalOffered(kind))
    out.push(catalogueIssue('requiresApproval', 'approval_not_offered'));
  if (event.includedBadges !== null && !includedBadgesOffered(kind))
    out.push(catalogueIssue('includedBadges', 'included_badges_not_offered'));
  for (const path of ['addressEn', 'addressZh'] as const) {
    const address = event[path];
    if (address === null) continue;
    if (kind.attendance !== 'venue') out.push(catalogueIssue(path, 'address_not_venue'));
    else if (!address.streetAddress.trim()) out.push({ path, code: 'required', message: 'Required' });
  }
  if (event.liveStreamUrl !== null && kind.attendance !== 'online')
    out.push(catalogueIssue('liveStreamUrl', 'live_link_not_online'));
  out.push(
    ...eventSettingsIssues(event, { seatsTaken: state.seatsTaken, holdsSeat: kind.holdsSeat, price: kind.price }),
  );
  return out;
}

/** A field's value on the wire and in the history: dates as ISO strings, addresses as objects. */
export type CatalogueValue = SettingValue | boolean | EventAddress;
const wireValue = (v: CatalogueEvent[CatalogueField]): CatalogueValue =>
  v instanceof Date ? v.toISOString() : (v as CatalogueValue);
const same = (a: CatalogueValue, b: CatalogueValue) =>
  a !== null && b !== null && typeof a === 'object' && typeof b === 'object'
    ? JSON.stringify(a) === JSON.stringify(b)
    : a === b;

/** The catalogue fields a change alters, each with its value before and after (nothing: no change). */
export const catalogueChanges = (before: CatalogueEvent, after: CatalogueEvent) =>
  fieldChanges(CATALOGUE_FIELDS, before, after, wireValue, same);

/** What is recorded in an event's history besides changes of its fields. */
export const EVENT_ACTIONS = ['created', 'updated', 'published', 'unpublished', 'archived', 'duplicated'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** The status changes organisers make, and where each may start. */
export const STATUS_CHANGES = {
  publish: { from: ['draft'], to: 'published', action: 'published' },
  unpublish: { from: ['published'], to: 'draft', action: 'unpublished' },
  archive: { from: ['draft', 'published'], to: 'archived', action: 'archived' },
} as const satisfies Record<string, { from: readonly EventStatus[]; to: EventStatus; action: EventAction }>;
export type StatusChange = keyof typeof STATUS_CHANGES;

/**
 * Whether a status change may happen: from the statuses it starts at (an archived event stays
 * archived: its slug is never given out again), and back to draft only while no live order holds
 * the event (a registrant's event must not vanish from under them: archive it instead).
 */
export function statusChangeRefusal(
  change: StatusChange,
  event: { status: EventStatus; liveOrders: number },
): 'event_status_conflict' | 'event_has_orders' | null {
  const rule = STATUS_CHANGES[change];
  if (!(rule.from as readonly EventStatus[]).includes(event.status)) return 'event_status_conflict';
  if (change === 'unpublish' && event.liveOrders > 0) return 'event_has_orders';
  return null;
}

// ---- The form ------------------------------------------------------------------------------

/** The address fields the form shows per language; the country is one field for both. */
export const ADDRESS_PARTS = ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode'] as const;
type AddressPart = (typeof ADDRESS_PARTS)[number];

/** The catalogue form's fields as typed (`datetime-local` values in Taipei time). */
export type CatalogueForm = CatalogueTexts & {
  type: EventType | '';
  slug: string;
  startTime: string;
  endAt: string;
  requiresApproval: boolean;
  includedBadges: string;
  liveStreamUrl: string;
  /** The uploaded image (its file id), or none. */
  imageFileId: string;
  /** Whether the event has its own address (else the edition's venue). */
  ownAddress: boolean;
  addressEn: Record<AddressPart, string>;
  addressZh: Record<AddressPart, string>;
  addressCountry: string;
};

export const emptyAddress = (): Record<AddressPart, string> => ({
  streetAddress: '',
  addressLocality: '',
  addressRegion: '',
  postalCode: '',
});

/** A blank form: nothing chosen yet. */
export const blankCatalogueForm = (): CatalogueForm => ({
  type: '',
  slug: '',
  ...noTexts(),
  startTime: '',
  endAt: '',
  requiresApproval: false,
  includedBadges: '',
  liveStreamUrl: '',
  imageFileId: '',
  ownAddress: false,
  addressEn: emptyAddress(),
  addressZh: emptyAddress(),
  addressCountry: 'TW',
});

/**
 * The form's details as a change (camelCase) or its field issues. Fields the kind does not have
 * are sent as none (an address for an online event, a live link for one at the venue…).
 */
export function detailsFromForm(
  form: CatalogueForm,
  kind: KindFacts,
): { ok: true; patch: EventPatch } | { ok: false; issues: CatalogueIssue[] } {
  const issues: CatalogueIssue[] = [];
  for (const path of ['nameEn', 'nameZh'] as const)
    if (!form[path].trim()) issues.push({ path, code: 'required', message: 'Required' });
  const date = (path: 'startTime' | 'endAt') => {
    const t = form[path].trim();
    if (!t) return void issues.push({ path, code: 'required', message: 'Required' });
    const d = fromTaipeiInput(t);
    if (!d) return void issues.push({ path, code: 'invalid_date', message: 'Enter a date and time' });
    return d.toISOString();
  };
  const startTime = date('startTime');
  const endAt = date('endAt');
  let includedBadges: number | null = null;
  if (includedBadgesOffered(kind) && form.includedBadges.trim()) {
    const t = form.includedBadges.trim();
    if (!/^\d+$/.test(t))
      issues.push({ path: 'includedBadges', code: 'invalid_number', message: 'Enter a whole number' });
    else if (Number(t) > EVENT_CATALOGUE_LIMITS.includedBadges)
      issues.push({
        path: 'includedBadges',
        code: 'too_large',
        message: `At most ${EVENT_CATALOGUE_LIMITS.includedBadges}`,
        values: { max: EVENT_CATALOGUE_LIMITS.includedBadges },
      });
    else includedBadges = Number(t);
  }
  let liveStreamUrl: string | null = null;
  if (kind.attendance === 'online' && form.liveStreamUrl.trim()) {
    liveStreamUrl = form.liveStreamUrl.trim();
    if (HttpsUrl.validate(liveStreamUrl)[0]) issues.push(catalogueIssue('liveStreamUrl', 'invalid_url'));
  }
  const address = (lang: 'En' | 'Zh'): EventAddress | null =>
    kind.attendance === 'venue' && form.ownAddress
      ? { ...trimAll(form[`address${lang}`]), addressCountry: form.addressCountry.trim().toUpperCase() }
      : null;
  const addressEn = address('En');
  const addressZh = address('Zh');
  if (addressEn && !/^[A-Z]{2}$/.test(addressEn.addressCountry))
    issues.push({ path: 'addressCountry', code: 'required', message: 'Required' });
  if (addressEn && !addressEn.streetAddress) issues.push({ path: 'addressEn', code: 'required', message: 'Required' });
  if (addressZh && !addressZh.streetAddress) issues.push({ path: 'addressZh', code: 'required', message: 'Required' });
  if (issues.length) return { ok: false, issues };
  return {
    ok: true,
    patch: {
      ...(form.type ? { type: form.type } : {}),
      nameEn: form.nameEn.trim(),
      nameZh: form.nameZh.trim(),
      descriptionEn: form.descriptionEn.trim(),
      descriptionZh: form.descriptionZh.trim(),
      locationEn: form.locationEn.trim(),
      locationZh: form.locationZh.trim(),
      startTime: startTime!,
      endAt: endAt!,
      requiresApproval: approvalOffered(kind) && form.requiresApproval,
      includedBadges,
      addressEn,
      addressZh,
      liveStreamUrl,
      imageFileId: form.imageFileId || null,
    },
  };
}
const trimAll = (a: Record<AddressPart, string>) =>
  Object.fromEntries(ADDRESS_PARTS.map((k) => [k, a[k].trim()])) as Record<AddressPart, string>;

/**
 * A whole new event from the form (details, settings, slug) or every field's issue at once, with
 * the rules across fields run too (the same the API runs again).
 */
export function createFromForm(
  form: CatalogueForm,
  settings: EventSettingsForm,
  kind: KindFacts,
): { ok: true; body: EventCreate } | { ok: false; issues: CatalogueIssue[] } {
  const issues: CatalogueIssue[] = [];
  const slug = form.slug.trim();
  const bad = slugIssue(slug);
  if (bad) issues.push(bad);
  const details = detailsFromForm(form, kind);
  if (!details.ok) issues.push(...details.issues);
  const read = patchFromForm(kind.holdsSeat ? settings : { ...settings, capacity: '' });
  if (!read.ok) issues.push(...read.issues);
  if (!details.ok || !read.ok || !form.type) return { ok: false, issues };
  const body = {
    ...details.patch,
    ...read.patch,
    type: form.type,
    slug,
    nameEn: details.patch.nameEn ?? '',
    nameZh: details.patch.nameZh ?? '',
    startTime: details.patch.startTime!,
    endAt: details.patch.endAt!,
    registerStartAt: read.patch.registerStartAt!,
    registerEndAt: read.patch.registerEndAt!,
  } satisfies EventCreate;
  issues.push(...catalogueIssues(newCatalogueEvent(body), kind, { seatsTaken: 0 }));
  return issues.length ? { ok: false, issues } : { ok: true, body };
}

/** The limits the form's inputs show (max lengths). */
export const FORM_LIMITS = { ...EVENT_CATALOGUE_LIMITS, priceCents: EVENT_SETTINGS_LIMITS.priceCents };
