import { literal, object, type Infer } from 'superstruct';
import type { EventType } from './events';

/** Event types that register through the event wizard, and their registration type (spec §3). */
export const EVENT_REGISTRATION_TYPES: Partial<Record<EventType, 'EVENT_GENERAL' | 'EVENT_AUDIT' | 'EVENT_ONLINE'>> = {
  event_general: 'EVENT_GENERAL',
  event_audit: 'EVENT_AUDIT',
  event_online: 'EVENT_ONLINE',
};

/** The event wizard's confirm step: the terms checkbox is required (spec §5). */
export const EventRegistration = object({ agreeTerms: literal(true) });
export type EventRegistration = Infer<typeof EventRegistration>;
