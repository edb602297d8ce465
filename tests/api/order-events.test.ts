import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderEvents } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { pendingOrderEvents, processOrderEvents, retryDelayMs, type OrderEvent } from '@server/orders/order-events';
import { applyBadge } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/** The outbox of order_events: claimed once, retried with backoff, never lost. */
describe.each(DATABASES)('order_events outbox (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database);
  });

  async function placeOrders(n: number) {
    for (let i = 0; i < n; i++) {
      const { token } = await signIn(app, `outbox-${i}@example.com`);
      await applyBadge(app, token);
    }
  }

  it('handles each event once, oldest first, and marks it processed', async () => {
    await placeOrders(3);
    const seen: number[] = [];
    const now = new Date();
    expect(await processOrderEvents(database.db, async (e) => void seen.push(e.id), { now })).toEqual({
      processed: 3,
      failed: 0,
    });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await processOrderEvents(database.db, async (e) => void seen.push(e.id), { now })).toEqual({
      processed: 0,
      failed: 0,
    });
    expect(seen).toHaveLength(3);
    expect(await pendingOrderEvents(database.db)).toBe(0);
  });

  it('two workers at once never handle the same event', async () => {
    await placeOrders(6);
    const seen: number[] = [];
    const slow = async (e: OrderEvent) => {
      seen.push(e.id);
      await new Promise((r) => setTimeout(r, 20));
    };
    const now = new Date();
    const runs = await Promise.all([
      processOrderEvents(database.db, slow, { now, limit: 4 }),
      processOrderEvents(database.db, slow, { now, limit: 4 }),
    ]);
    // PGlite runs one transaction at a time; PostgreSQL skips the rows the other worker holds.
    expect(new Set(seen).size).toBe(seen.length);
    expect(runs.reduce((n, r) => n + r.processed, 0)).toBe(seen.length);
    await processOrderEvents(database.db, slow, { now, limit: 10 });
    expect(new Set(seen).size).toBe(6);
    expect(seen).toHaveLength(6);
  });

  it('a failure stays unprocessed with its error and is retried after the backoff, not before', async () => {
    await placeOrders(1);
    const now = new Date();
    const failing = async () => {
      throw new Error('SMTP 451 try again later');
    };
    expect(await processOrderEvents(database.db, failing, { now })).toEqual({ processed: 0, failed: 1 });
    const [row] = await database.db.select().from(orderEvents).orderBy(asc(orderEvents.id));
    expect(row).toMatchObject({ processedAt: null, attempts: 1, lastError: 'SMTP 451 try again later' });
    expect(row!.availableAt.getTime()).toBe(now.getTime() + retryDelayMs(1));

    const handled: number[] = [];
    const ok = async (e: OrderEvent) => void handled.push(e.id);
    expect(await processOrderEvents(database.db, ok, { now: new Date(now.getTime() + 1000) })).toEqual({
      processed: 0,
      failed: 0,
    });
    expect(await processOrderEvents(database.db, ok, { now: new Date(now.getTime() + retryDelayMs(1)) })).toEqual({
      processed: 1,
      failed: 0,
    });
    expect(handled).toEqual([row!.id]);
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    expect(retryDelayMs(50)).toBe(6 * 3600_000);
  });

  it('a worker that dies mid-send loses nothing: the claim rolls back and the event is handled next time', async () => {
    await placeOrders(1);
    const now = new Date();
    // The handler's process "dies": the transaction is aborted (here: an error escaping the update).
    await expect(
      database.db.transaction(async (tx) => {
        await tx.select().from(orderEvents).for('update', { skipLocked: true });
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(await pendingOrderEvents(database.db)).toBe(1);
    const [row] = await database.db.select().from(orderEvents);
    expect(await processOrderEvents(database.db, async () => {}, { now })).toEqual({ processed: 1, failed: 0 });
    const [after] = await database.db.select().from(orderEvents).where(eq(orderEvents.id, row!.id));
    expect(after!.processedAt).toEqual(now);
  });
});
