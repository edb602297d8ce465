import { EVENT_KIND, EVENT_STEP_LABELS } from './event-kinds';
import { defineKind } from './kind';

/** An audit event (spec §2): confirm the registration, then wait for the organiser's approval. */
export const eventAudit = defineKind({
  ...EVENT_KIND,
  eventType: 'event_audit',
  registrationTypes: ['EVENT_AUDIT'],
  steps: ['confirm', 'wait_approval'],
  wizard: { island: 'event', stepLabels: EVENT_STEP_LABELS, note: 'eventReg.auditNote' },
  attendance: 'venue',
  summary: { liveLink: false, pickupSchedule: true },
  approval: 'always',
  confirmationKey: 'summary.confirmed.event_audit',
  approvedKey: 'summary.approved.event_audit',
});
