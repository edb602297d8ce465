import { BADGE_KIND, BADGE_STEP_LABELS } from './badge-kinds';
import { defineKind } from './kind';

/** The Professional badge (spec §2): check identity, fill the form, pay (TWD 1,000), completed. */
export const badgeProfessional = defineKind({
  ...BADGE_KIND,
  eventType: 'badge_professional',
  registrationTypes: ['BADGE_PROFESSIONAL'],
  steps: ['check_identity', 'fill_form', 'pay', 'completed'],
  wizard: { island: 'badge', stepLabels: BADGE_STEP_LABELS },
  publicAction: 'applyBadge',
  price: 'event',
});
