/**
 * The outbox side of `order_events` (decision 011): a worker claims due rows with
 * `FOR UPDATE SKIP LOCKED`, so several instances never handle the same row; a handled row gets
 * `processed_at`, a failed one is retried later with backoff and never lost.
 */
import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { orderEvents } from '../db/schema';

export type OrderEvent = typeof orderEvents.$inferSelect;

/** Delay before the next try after `attempts` failures: 1 min, 2, 4 … capped at 6 h. */
export const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3600_000);

/**
 * Handles up to `limit` due events, oldest first, each in the claiming transaction: the row stays
 * locked while `handle` runs, and is marked processed only if it succeeds. `handle` gets a
 * savepoint of that transaction: what it writes there (e.g. the e-mails it queues) is committed
 * with `processed_at` or not at all, and a failed statement rolls back to the savepoint only, so
 * the failure is still recorded. Answers how many were handled and how many failed (and wait for
 * their retry).
 */
export async function processOrderEvents(
  db: Db,
  handle: (event: OrderEvent, tx: Tx) => Promise<void>,
  options: { now: Date; limit?: number },
): Promise<{ processed: number; failed: number }> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(orderEvents)
      .where(and(isNull(orderEvents.processedAt), lte(orderEvents.availableAt, options.now)))
      .orderBy(asc(orderEvents.id))
      .limit(options.limit ?? 20)
      .for('update', { skipLocked: true });
    let processed = 0;
    let failed = 0;
    for (const event of due) {
      try {
        await tx.transaction((savepoint) => handle(event, savepoint));
        await tx.update(orderEvents).set({ processedAt: options.now }).where(eq(orderEvents.id, event.id));
        processed++;
      } catch (error) {
        const attempts = event.attempts + 1;
        await tx
          .update(orderEvents)
          .set({
            attempts,
            lastError: String((error as Error)?.message ?? error).slice(0, 1000),
            availableAt: new Date(options.now.getTime() + retryDelayMs(attempts)),
          })
          .where(eq(orderEvents.id, event.id));
        failed++;
      }
    }
    return { processed, failed };
  });
}

/** Events not yet handled (for monitoring and tests). */
export async function pendingOrderEvents(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orderEvents)
    .where(isNull(orderEvents.processedAt));
  return row?.n ?? 0;
}
