import { EVENT_KIND, EVENT_STEP_LABELS } from './event-kinds';
import { defineKind } from './kind';

/** A general event (spec §2): confirm the registration (terms), completed. Needs an exhibit badge. */
export const eventGeneral = defineKind({
  ...EVENT_KIND,
  eventType: 'event_general',
  registrationTypes: ['EVENT_GENERAL'],
  steps: ['confirm', 'completed'],
  wizard: { island: 'event', stepLabels: EVENT_STEP_LABELS },
  attendance: 'venue',
  summary: { liveLink: false, pickupSchedule: true },
  approval: 'per_event',
  confirmationKey: 'summary.confirmed.event_general',
});
