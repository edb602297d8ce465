import { defineKind } from './kind';
import { MARKET_KIND } from './market-kinds';

/**
 * Market early-bird (spec §2): upload content, pick the participation type, pick works, fill the
 * exhibitor form, completed. Takes a seat; physical participation (types 1–4).
 */
export const marketEarlybird = defineKind({
  ...MARKET_KIND,
  eventType: 'market_earlybird',
  registrationTypes: ['MARKET_EARLYBIRD', 'MARKET_INTERNATIONAL', 'MARKET_DOMESTIC'],
  steps: ['upload_content', 'pick_identity', 'pick_works', 'fill_form', 'completed'],
  attendance: 'venue',
  summary: { liveLink: false, pickupSchedule: true },
  holdsSeat: true,
  approval: 'per_event',
  pendingPage: false,
  market: { participationTypes: [1, 2, 3, 4] },
  confirmationKey: 'summary.confirmed.market',
});
