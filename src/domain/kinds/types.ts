/**
 * The one list of types (spec §3): the nine event types, each a registration kind of its own
 * (`src/domain/kinds/<type>.ts`), and the registration type keys their orders carry. Outside the
 * kinds home (and the seed and tests) nothing names them: code reads the kind
 * (`structure/no-kind-literals`). The lint rule reads these two lists from this file.
 */

/** The event types of spec §3, in the registry's order. */
export const EVENT_TYPES = [
  'badge_professional',
  'badge_free',
  'event_audit',
  'event_general',
  'event_online',
  'market_earlybird',
  'market_online',
  'pitching_project',
  'pitching_story',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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
