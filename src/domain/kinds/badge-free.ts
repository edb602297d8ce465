import { BADGE_KIND, BADGE_STEP_LABELS } from './badge-kinds';
import { defineKind } from './kind';

/** The free badge (spec §2): claimed through a one-time link only; check identity, fill the form, completed. */
export const badgeFree = defineKind({
  ...BADGE_KIND,
  eventType: 'badge_free',
  registrationTypes: ['BADGE_FREE'],
  steps: ['check_identity', 'fill_form', 'completed'],
  wizard: { island: 'badge', stepLabels: BADGE_STEP_LABELS },
  publicAction: 'invitation',
  price: 'none',
});
