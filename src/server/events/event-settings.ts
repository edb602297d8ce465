import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { LIVE_STATUSES } from '@domain/order-lifecycle';
import type { Db } from '../db/client';
import { eventChanges, events, orders } from '../db/schema';
import { inCurrentEdition } from './events';

/*
 * The back office's events (issue 11): every event (drafts and archived ones too) with its live
 * orders, and one with its change history. Changes are made by ./event-catalogue (decision 054).
 */

/** Every event with how many live orders it has (seats are on the event row). */
export async function listAdminEvents(db: Db) {
  // The current edition's (a past edition's events stay reachable by their address).
  const rows = await db
    .select()
    .from(events)
    .where(inCurrentEdition())
    .orderBy(asc(events.startTime), asc(events.slug));
  const counts = await db
    .select({ eventId: orders.eventId, n: count() })
    .from(orders)
    .where(inArray(orders.paymentStatus, LIVE_STATUSES))
    .groupBy(orders.eventId);
  const live = new Map(counts.map((c) => [c.eventId, c.n]));
  return rows.map((event) => ({ event, liveOrders: live.get(event.id) ?? 0 }));
}

/** One event with its live orders and its change history, newest first. */
export async function findAdminEvent(db: Db, slug: string) {
  const [event] = await db.select().from(events).where(eq(events.slug, slug)).limit(1);
  if (!event) return undefined;
  const [live] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), inArray(orders.paymentStatus, LIVE_STATUSES)));
  const changes = await db
    .select()
    .from(eventChanges)
    .where(eq(eventChanges.eventId, event.id))
    .orderBy(desc(eventChanges.id))
    .limit(200);
  return { event, liveOrders: live?.n ?? 0, changes };
}
