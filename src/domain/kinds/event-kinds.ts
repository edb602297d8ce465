/**
 * The event kinds' shared parts (audit, general, online; spec §2 "Event audit", "Event general and
 * online"): the confirm step's body, what the registration stores, the wizard's step labels, and
 * what the three have in common.
 */
import { literal, object, type Infer } from 'superstruct';
import { AGREE_TERMS, type FormSection } from './form-schema';
import type { RegistrationKind } from './kind';

/** The event wizard's confirm step: the terms checkbox is required (spec §5). */
export const EventRegistration = object({ agreeTerms: literal(true) });
export type EventRegistration = Infer<typeof EventRegistration>;

/** An event registration stores the terms the registrant agreed to. */
export const TERMS_SECTION: FormSection = { id: 'terms', fields: [AGREE_TERMS] };

/** What every event kind is; each kind adds its steps, approval, confirmation and attendance. */
export const EVENT_KIND = {
  group: 'events',
  body: EventRegistration,
  form: null,
  schema: [TERMS_SECTION],
  publicAction: 'register',
  holdsSeat: true,
  quantity: 'one',
  entries: 'one',
  price: 'event',
  issuesBadge: false,
  requiresBadge: true,
  open: true,
  pages: 'event',
  pendingPage: false,
  works: false,
  includedBadges: 0,
} as const satisfies Partial<RegistrationKind>;

/** The event wizard's step labels. */
export const EVENT_STEP_LABELS = {
  confirm: 'eventReg.confirmStep',
  wait_approval: 'eventReg.waitApproval',
  completed: 'eventReg.completed',
} as const;
