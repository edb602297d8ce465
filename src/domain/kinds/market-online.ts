import { defineKind } from './kind';
import { MARKET_KIND } from './market-kinds';

/**
 * Market online (spec §2, §4, §9): upload content, pick the participation type (online domestic
 * only), pick works, fill the form, wait for the organiser's approval (the pending page), then
 * pay the promotional price. No booth; the included badges are picked up at the venue.
 */
export const marketOnline = defineKind({
  ...MARKET_KIND,
  eventType: 'market_online',
  registrationTypes: ['MARKET_ONLINE'],
  steps: ['upload_content', 'pick_identity', 'pick_works', 'fill_form', 'wait_approval', 'pay'],
  attendance: 'online',
  summary: { liveLink: false, pickupSchedule: true },
  holdsSeat: false,
  approval: 'always',
  pendingPage: true,
  market: { participationTypes: [5], identityNote: 'market.identity.onlineOnly' },
  // Spec §9: TWD 10,000, at the event's promotional price; 4 badges and no physical booth.
  promotion: { originalCentsTwd: 1_000_000, note: 'market.price.includes' },
  confirmationKey: 'summary.confirmed.market_online',
  approvedKey: 'summary.approved.market_online',
});
