/**
 * The registration-kind registry: one module per event type (`./badge-professional.ts` …), each
 * declaring everything the kind is (`./kind.ts`), listed here. Everything that differs by event
 * type (order placement and its hooks, the API's body struct, the wizard page, the public pages,
 * the order pages, the exports, the back office) asks here; nothing else names a type. Adding a
 * kind: its module, a line below, its i18n keys (and its wizard island if it has a new one).
 */
import { badgeFree } from './badge-free';
import { badgeProfessional } from './badge-professional';
import { eventAudit } from './event-audit';
import { eventGeneral } from './event-general';
import { eventOnline } from './event-online';
import { fieldsOf, WORKS_SECTION, type FormSection } from './form-schema';
import type { AnyStruct, RegistrationKind } from './kind';
import { marketEarlybird } from './market-earlybird';
import { EXHIBITOR_SECTION } from './market-kinds';
import { marketOnline } from './market-online';
import { PITCHING_SECTION, STORY_SECTION } from './pitching-kinds';
import { pitchingProject } from './pitching-project';
import { pitchingStory } from './pitching-story';
import { BADGE_SECTION } from './badge-kinds';
import { TERMS_SECTION } from './event-kinds';
import { EVENT_TYPES, type EventType, type RegistrationType } from './types';

export type { RegistrationKind } from './kind';

/** The registry: every event type's kind (the type checker refuses a missing one). */
export const REGISTRATION_KINDS: { readonly [T in EventType]: RegistrationKind & { eventType: T } } = {
  badge_professional: badgeProfessional,
  badge_free: badgeFree,
  event_audit: eventAudit,
  event_general: eventGeneral,
  event_online: eventOnline,
  market_earlybird: marketEarlybird,
  market_online: marketOnline,
  pitching_project: pitchingProject,
  pitching_story: pitchingStory,
};

export const kindOf = (eventType: EventType): RegistrationKind => REGISTRATION_KINDS[eventType];

/** Every kind, in the registry's order. */
export const KINDS: readonly RegistrationKind[] = EVENT_TYPES.map(kindOf);

/** The kind a registration type belongs to. */
export function kindOfRegistrationType(type: string): RegistrationKind | undefined {
  return KINDS.find((k) => (k.registrationTypes as readonly string[]).includes(type));
}

/**
 * The sections kinds store, in the order an export of several kinds lays their columns out (a
 * section the kinds share, such as the works, once).
 */
export const FORM_SECTIONS: readonly FormSection[] = [
  BADGE_SECTION,
  EXHIBITOR_SECTION,
  STORY_SECTION,
  WORKS_SECTION,
  PITCHING_SECTION,
  TERMS_SECTION,
];

/** The sections the kinds of these event types store, in the export's order. */
export const sectionsOf = (types: readonly EventType[]): FormSection[] => {
  const used = new Set(types.flatMap((t) => kindOf(t).schema));
  return FORM_SECTIONS.filter((s) => used.has(s));
};

/** Every field any kind stores, each once (a form whose kind is not known). */
export const ALL_FIELDS = fieldsOf(FORM_SECTIONS);

/** Registration types of the badge kinds (one badge per user and per e-mail). */
export const BADGE_REGISTRATION_TYPES = KINDS.filter((k) => k.issuesBadge).flatMap((k) => k.registrationTypes);
/**
 * Registration types of the kinds that take several entries per user and event (pitching: its
 * limits are per work); every other kind holds one live registration per user and event.
 */
export const MULTI_ENTRY_REGISTRATION_TYPES = KINDS.filter((k) => k.entries === 'several').flatMap(
  (k) => k.registrationTypes,
);
export const isBadgeRegistrationType = (type: string) => (BADGE_REGISTRATION_TYPES as readonly string[]).includes(type);

/** Whether the event registration call (POST /orders?event=) takes this kind: open, with a body (badges have their own calls). */
export const takesEventRegistration = (k: RegistrationKind): k is RegistrationKind & { body: AnyStruct } =>
  k.open && k.body !== null;

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
