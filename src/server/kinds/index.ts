/**
 * The server side of every registration kind, keyed by event type: how a registration of the kind
 * is placed (its checks and what its order stores), how its form is edited, and its hooks on the
 * order's state changes. The order core publishes every change of an order (placing included,
 * the same change it writes to `order_events`) to the hooks of the order's kind, in the change's
 * transaction; it never calls a kind by name.
 */
import type { RegistrationKind } from '@domain/kinds';
import type { EventType } from '@domain/kinds/types';
import { badgeOfOrder } from './badges';
import { EVENT_SERVER } from './event';
import { MARKET_SERVER } from './market';
import type { OrderChange, ServerKind } from './parts';
import { PITCHING_SERVER, STORY_SERVER } from './pitching';
import { invoiceActsOn, invoiceOnChange } from '../invoices/invoices';

/** Badges are placed by their own calls (application, one-time link); their orders make the badge. */
const BADGE_SERVER: ServerKind = { onChange: [badgeOfOrder] };

/** The table (the type checker refuses a missing kind; `index.test.ts` checks each has the parts it needs). */
export const SERVER_KINDS: { readonly [T in EventType]: ServerKind } = {
  badge_professional: BADGE_SERVER,
  badge_free: BADGE_SERVER,
  event_audit: EVENT_SERVER,
  event_general: EVENT_SERVER,
  event_online: EVENT_SERVER,
  market_earlybird: MARKET_SERVER,
  market_online: MARKET_SERVER,
  pitching_project: PITCHING_SERVER,
  pitching_story: STORY_SERVER,
};

export const serverKindOf = (kind: Pick<RegistrationKind, 'eventType'>): ServerKind => SERVER_KINDS[kind.eventType];

/** Publishes a change of an order's state to its kind's hooks, in order. */
export async function publishOrderChange(change: OrderChange): Promise<void> {
  for (const hook of SERVER_KINDS[change.event.type].onChange) await hook(change);
  // Every kind: an order paid gets its e-invoice queued, a paid one canceled its void (issue 22).
  await invoiceOnChange(change);
}

/**
 * Whether publishing a change would run nothing: the kind has no hooks and the invoice rules
 * ignore it. The order core then places an order in one statement, without a transaction of
 * its own (decision 073).
 */
export function publishesNothing(
  change: Pick<OrderChange, 'event' | 'happened'> & Parameters<typeof invoiceActsOn>[0],
) {
  return SERVER_KINDS[change.event.type].onChange.length === 0 && !invoiceActsOn(change);
}
