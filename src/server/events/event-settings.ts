import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import {
  applySettingsPatch,
  eventSettingsIssues,
  settingsChanges,
  type EventSettings,
  type EventSettingsIssue,
  type EventSettingsPatch,
} from '@domain/event-settings';
import { DomainError, notFoundError } from '@domain/errors';
import { kindOf } from '@domain/kinds';
import { LIVE_STATUSES } from '@domain/order-lifecycle';
import type { Db } from '../db/client';
import { eventChanges, events, orders } from '../db/schema';
import { isCheckViolation } from '../db/db-errors';
import type { EventRow } from './events';

/*
 * The back office's events (issue 11): capacity, registration window, form deadline and prices,
 * changed under the event's row lock and recorded in `event_changes` (who, when, before → after).
 * Prices concern new orders only: placed orders keep the price fixed on them (decision 010).
 */

/** The settings an event has now. */
export const settingsOf = (e: EventRow): EventSettings => ({
  capacity: e.capacity,
  registerStartAt: e.registerStartAt,
  registerEndAt: e.registerEndAt,
  formModifyExpiresAt: e.formModifyExpiresAt,
  priceCentsTwd: e.priceCentsTwd,
  priceCentsUsd: e.priceCentsUsd,
  originalPriceCentsTwd: e.originalPriceCentsTwd,
});

/** Every event with how many live orders it has (seats are on the event row). */
export async function listAdminEvents(db: Db) {
  const rows = await db.select().from(events).orderBy(asc(events.startTime), asc(events.slug));
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

export type SettingsUpdate =
  | { kind: 'ok'; event: EventRow; changes: ReturnType<typeof settingsChanges> }
  | { kind: 'invalid'; issues: EventSettingsIssue[] };

/**
 * Changes an event's settings. The event row is locked first, so the rules see the seats taken
 * as they are: a registration in flight waits for the change and then finds the new capacity
 * (its seat is a conditional update, `seats_taken < capacity`), and a capacity below the seats
 * taken is refused with the field's issue, never half applied. `events_seats_check` stays the
 * last guard. With `expectedUpdatedAt`, a change someone else saved meanwhile is not overwritten
 * (`event_changed`). Nothing changed: nothing written, no history row.
 */
export async function updateEventSettings(
  db: Db,
  slug: string,
  patch: EventSettingsPatch,
  by: string,
  now: Date,
): Promise<SettingsUpdate> {
  try {
    return await db.transaction(async (tx) => {
      const [event] = await tx.select().from(events).where(eq(events.slug, slug)).limit(1).for('update');
      if (!event) throw notFoundError('Event');
      if (patch.expectedUpdatedAt && new Date(patch.expectedUpdatedAt).getTime() !== event.updatedAt.getTime())
        throw new DomainError('event_changed');
      const before = settingsOf(event);
      const after = applySettingsPatch(before, patch);
      const kind = kindOf(event.type);
      const issues = eventSettingsIssues(after, {
        seatsTaken: event.seatsTaken,
        holdsSeat: kind.holdsSeat,
        price: kind.price,
      });
      if (issues.length) return { kind: 'invalid' as const, issues };
      const changes = settingsChanges(before, after);
      if (Object.keys(changes).length === 0) return { kind: 'ok' as const, event, changes };
      const [updated] = await tx
        .update(events)
        .set({ ...after, updatedAt: now })
        .where(eq(events.id, event.id))
        .returning();
      await tx.insert(eventChanges).values({ eventId: event.id, changedBy: by, changes, createdAt: now });
      return { kind: 'ok' as const, event: updated!, changes };
    });
  } catch (error) {
    // Unreachable under the row lock; kept so a constraint can never surface as a 500.
    if (isCheckViolation(error, 'events_seats_check'))
      return {
        kind: 'invalid',
        issues: [{ path: 'capacity', code: 'capacity_below_taken', message: 'Capacity is below the seats taken' }],
      };
    throw error;
  }
}
