/**
 * The registration-kind registry: one entry per event type, saying how its orders are taken,
 * priced, approved and shown. Everything that used to switch on the event type (order placement,
 * the pay and processing pages, the summary's confirmation, the gateway's return) asks here.
 */
import { literal, object, type Infer } from 'superstruct';
import type { BadgeIdentity } from './badges';
import { EVENT_TYPES, type EventType } from './events';

/** Registration type keys of spec §3. */
export const REGISTRATION_TYPES = [
  'PITCHING_PROJECT',
  'PITCHING_STORY',
  'MARKET_EARLYBIRD',
  'MARKET_INTERNATIONAL',
  'MARKET_DOMESTIC',
  'MARKET_ONLINE',
  'BADGE_FREE',
  'BADGE_PROFESSIONAL',
  'EVENT_GENERAL',
  'EVENT_AUDIT',
  'EVENT_ONLINE',
] as const;
export type RegistrationType = (typeof REGISTRATION_TYPES)[number];

/** Wizard steps (spec §2, Wizard steps by flow). */
export type WizardStep =
  | 'check_identity'
  | 'fill_form'
  | 'pay'
  | 'completed'
  | 'confirm'
  | 'wait_approval'
  | 'upload_content'
  | 'pick_identity'
  | 'pick_works';

export type RegistrationKind = {
  eventType: EventType;
  /** Registration types this kind takes; the first is the default. */
  registrationTypes: readonly [RegistrationType, ...RegistrationType[]];
  steps: readonly WizardStep[];
  /** Orders take one of the event's seats (capacity), given back when they close. */
  holdsSeat: boolean;
  /** `always`: the organiser approves every order before payment; `per_event`: when the event says so. */
  approval: 'always' | 'per_event';
  /** Items charged: one order = one item, or one item per selected work (pitching). */
  quantity: 'one' | 'per_work';
  /** Orders of this kind create the user's badge (one per user and per e-mail). */
  issuesBadge: boolean;
  /** Registering needs an issued badge first (`demonstration_invalid`). */
  requiresBadge: boolean;
  /** i18n key of the summary's confirmation message, and of the message once approved. */
  confirmationKey: string;
  approvedKey?: string;
  /** Whether the portal takes these registrations yet. */
  open: boolean;
  /** Where the order's pay and processing pages live. */
  pages: 'badge' | 'event';
  /** The registration form the contact page edits before `formModifyExpiresAt` (null: none). */
  form: 'exhibitor' | 'story' | 'invoice' | null;
  /** Works chosen from the content site (Market and pitching). */
  works: boolean;
  /** One-time free-badge links each settled order includes (the event may say otherwise), and their identity. */
  includedBadges: number;
  includedBadgeIdentity?: BadgeIdentity;
  /**
   * Until approved, the order's summary, pay and processing pages send the registrant to the
   * pending page (Market online, spec §4).
   */
  pendingPage?: boolean;
};

const kind = (k: RegistrationKind) => k;

/** The registry. */
export const REGISTRATION_KINDS: Record<EventType, RegistrationKind> = {
  badge_professional: kind({
    eventType: 'badge_professional',
    registrationTypes: ['BADGE_PROFESSIONAL'],
    steps: ['check_identity', 'fill_form', 'pay', 'completed'],
    holdsSeat: false,
    approval: 'per_event',
    quantity: 'one',
    issuesBadge: true,
    requiresBadge: false,
    confirmationKey: 'summary.confirmed.badge',
    open: true,
    pages: 'badge',
    form: null,
    works: false,
    includedBadges: 0,
  }),
  badge_free: kind({
    eventType: 'badge_free',
    registrationTypes: ['BADGE_FREE'],
    steps: ['check_identity', 'fill_form', 'completed'],
    holdsSeat: false,
    approval: 'per_event',
    quantity: 'one',
    issuesBadge: true,
    requiresBadge: false,
    confirmationKey: 'summary.confirmed.badge',
    open: true,
    pages: 'badge',
    form: null,
    works: false,
    includedBadges: 0,
  }),
  event_audit: kind({
    eventType: 'event_audit',
    registrationTypes: ['EVENT_AUDIT'],
    steps: ['confirm', 'wait_approval'],
    holdsSeat: true,
    approval: 'always',
    quantity: 'one',
    issuesBadge: false,
    requiresBadge: true,
    confirmationKey: 'summary.confirmed.event_audit',
    approvedKey: 'summary.approved.event_audit',
    open: true,
    pages: 'event',
    form: null,
    works: false,
    includedBadges: 0,
  }),
  event_general: kind({
    eventType: 'event_general',
    registrationTypes: ['EVENT_GENERAL'],
    steps: ['confirm', 'completed'],
    holdsSeat: true,
    approval: 'per_event',
    quantity: 'one',
    issuesBadge: false,
    requiresBadge: true,
    confirmationKey: 'summary.confirmed.event_general',
    open: true,
    pages: 'event',
    form: null,
    works: false,
    includedBadges: 0,
  }),
  event_online: kind({
    eventType: 'event_online',
    registrationTypes: ['EVENT_ONLINE'],
    steps: ['confirm', 'completed'],
    holdsSeat: true,
    approval: 'per_event',
    quantity: 'one',
    issuesBadge: false,
    requiresBadge: true,
    confirmationKey: 'summary.confirmed.event_online',
    open: true,
    pages: 'event',
    form: null,
    works: false,
    includedBadges: 0,
  }),
  market_earlybird: kind({
    eventType: 'market_earlybird',
    registrationTypes: ['MARKET_EARLYBIRD', 'MARKET_INTERNATIONAL', 'MARKET_DOMESTIC'],
    steps: ['upload_content', 'pick_identity', 'pick_works', 'fill_form', 'completed'],
    holdsSeat: true,
    approval: 'per_event',
    quantity: 'one',
    issuesBadge: false,
    requiresBadge: false,
    confirmationKey: 'summary.confirmed.market',
    open: true,
    pages: 'event',
    form: 'exhibitor',
    works: true,
    includedBadges: 4,
    includedBadgeIdentity: 'EXHIBITOR_MARKET',
  }),
  market_online: kind({
    eventType: 'market_online',
    registrationTypes: ['MARKET_ONLINE'],
    steps: ['upload_content', 'pick_identity', 'pick_works', 'fill_form', 'wait_approval', 'pay'],
    holdsSeat: false,
    approval: 'always',
    quantity: 'one',
    issuesBadge: false,
    requiresBadge: false,
    confirmationKey: 'summary.confirmed.market_online',
    approvedKey: 'summary.approved.market_online',
    open: true,
    pages: 'event',
    form: 'exhibitor',
    works: true,
    includedBadges: 4,
    includedBadgeIdentity: 'EXHIBITOR_MARKET',
    pendingPage: true,
  }),
  pitching_project: kind({
    eventType: 'pitching_project',
    registrationTypes: ['PITCHING_PROJECT'],
    steps: ['pick_works', 'fill_form', 'pay'],
    holdsSeat: false,
    approval: 'per_event',
    quantity: 'per_work',
    issuesBadge: false,
    requiresBadge: false,
    confirmationKey: 'summary.confirmed.pitching',
    open: true,
    pages: 'event',
    form: null,
    works: true,
    includedBadges: 1,
    includedBadgeIdentity: 'EXHIBITOR_PITCHING',
  }),
  pitching_story: kind({
    eventType: 'pitching_story',
    registrationTypes: ['PITCHING_STORY'],
    steps: ['pick_works', 'fill_form', 'pay'],
    holdsSeat: false,
    approval: 'per_event',
    quantity: 'per_work',
    issuesBadge: false,
    requiresBadge: false,
    confirmationKey: 'summary.confirmed.pitching',
    open: true,
    pages: 'event',
    form: 'story',
    works: true,
    includedBadges: 1,
    includedBadgeIdentity: 'EXHIBITOR_PITCHING',
  }),
};

export const kindOf = (eventType: EventType): RegistrationKind => REGISTRATION_KINDS[eventType];

/** The kind a registration type belongs to. */
export function kindOfRegistrationType(type: string): RegistrationKind | undefined {
  return EVENT_TYPES.map(kindOf).find((k) => (k.registrationTypes as readonly string[]).includes(type));
}

/** Registration types of the badge kinds (one badge per user and per e-mail). */
export const BADGE_REGISTRATION_TYPES = EVENT_TYPES.map(kindOf)
  .filter((k) => k.issuesBadge)
  .flatMap((k) => k.registrationTypes);
/** Registration types of the pitching kinds (several entries per user and event; limits per work). */
export const PITCHING_REGISTRATION_TYPES = [
  'PITCHING_PROJECT',
  'PITCHING_STORY',
] as const satisfies readonly RegistrationType[];
export const isPitchingRegistrationType = (type: string) =>
  (PITCHING_REGISTRATION_TYPES as readonly string[]).includes(type);
export const isBadgeRegistrationType = (type: string) => (BADGE_REGISTRATION_TYPES as readonly string[]).includes(type);

/** Whether the event registration call (POST /orders?event=) takes this kind: open, and not a badge (badges have their own). */
export const takesEventRegistration = (k: RegistrationKind) => k.open && !k.issuesBadge;

/** Whether an order of this kind for this event waits for the organiser's approval. */
export const needsApproval = (k: RegistrationKind, event: { requiresApproval: boolean }) =>
  k.approval === 'always' || event.requiresApproval;

/** The registration type of a request for this kind: the requested one if the kind takes it, else its default. */
export function registrationTypeFor(
  k: RegistrationKind,
  requested: string | undefined,
): { ok: true; type: RegistrationType } | { ok: false } {
  if (!requested) return { ok: true, type: k.registrationTypes[0] };
  const found = k.registrationTypes.find((t) => t === requested);
  return found ? { ok: true, type: found } : { ok: false };
}

/** The pages of an order (paths without the locale prefix). */
export function orderPages(order: { orderId: string; eventSlug: string; registrationType: string }) {
  const summary = `/events/${encodeURIComponent(order.eventSlug)}/registrations/${encodeURIComponent(order.orderId)}`;
  const k = kindOfRegistrationType(order.registrationType);
  const badge = k?.pages === 'badge';
  const base = badge ? `/badges/${encodeURIComponent(order.orderId)}` : summary;
  return {
    summary,
    pay: `${base}/pay`,
    processing: `${base}/processing`,
    pending: `${summary}/pending`,
    /** Where a settled order goes: the badge page for badges, else the summary. */
    done: badge ? '/account/badge' : summary,
    /** Where to register again (an order loader's 404, spec §8). */
    register: badge ? '/badges/new' : `/events/${encodeURIComponent(order.eventSlug)}/registrations/new`,
  };
}

/** The event wizard's confirm step: the terms checkbox is required (spec §5). */
export const EventRegistration = object({ agreeTerms: literal(true) });
export type EventRegistration = Infer<typeof EventRegistration>;

/**
 * Approval before payment (spec §4 Market online): until the organiser approves, an order of a
 * kind with a pending page is shown there; its summary, pay and processing pages send the
 * registrant to it (the answer: that path, without the locale prefix). Undefined: go on.
 */
export function approvalGate(order: {
  orderId: string;
  eventSlug: string;
  registrationType: string;
  approvalStatus: string | null;
}): string | undefined {
  const k = kindOfRegistrationType(order.registrationType);
  if (!k?.pendingPage || order.approvalStatus === 'approved') return undefined;
  return orderPages(order).pending;
}

/** Where the pending page sends an approved order: a charged one still unpaid to pay, anything else to the summary. */
export function afterApproval(order: {
  orderId: string;
  eventSlug: string;
  registrationType: string;
  paymentStatus: string;
  amountCents: number;
}): string {
  const pages = orderPages(order);
  return order.paymentStatus === 'pending' && order.amountCents > 0 ? pages.pay : pages.summary;
}
