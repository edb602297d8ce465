import { EVENT_KIND, EVENT_STEP_LABELS } from './event-kinds';
import { defineKind } from './kind';

/** An online event (spec §2): confirm the registration, completed; watched on its live page, nothing to pick up. */
export const eventOnline = defineKind({
  ...EVENT_KIND,
  eventType: 'event_online',
  registrationTypes: ['EVENT_ONLINE'],
  steps: ['confirm', 'completed'],
  wizard: { island: 'event', stepLabels: EVENT_STEP_LABELS, note: 'eventReg.onlineNote' },
  attendance: 'online',
  summary: { liveLink: true, pickupSchedule: false },
  approval: 'per_event',
  confirmationKey: 'summary.confirmed.event_online',
});
