import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { badges, events, orders, receipts, users } from '@server/db/schema';
import { applyBadge, getJson, json } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

/*
 * The version of what a user's pages show (decision 032): database triggers bump it on every
 * change the order list shows, and only then, so the rendered-page cache never serves a stale
 * page and is not thrown away for nothing.
 */
describe.each(DATABASES)('page version (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    app = await createTestApp(database);
    const now = Date.now();
    await db.insert(events).values({
      slug: 'badge-professional',
      type: 'badge_professional',
      nameEn: 'Professional badge',
      nameZh: '專業人士識別證',
      registerStartAt: new Date(now - DAY),
      registerEndAt: new Date(now + 10 * DAY),
      startTime: new Date(now + 20 * DAY),
      endAt: new Date(now + 22 * DAY),
      priceCentsTwd: 100_000,
      capacity: 100,
    });
  });

  const versionOf = async (token: string) => {
    const res = await getJson(app, '/api/v1/user/page-version', token);
    expect(res.status).toBe(200);
    return res.body.data as { user_id: string; version: string };
  };

  it('changes with the user’s orders, payments, receipts and name; not with another user’s, nor with seats', async () => {
    const amy = await signIn(app, 'amy@example.com', 'Amy');
    const ben = await signIn(app, 'ben@example.com', 'Ben');
    const first = await versionOf(amy.token);
    expect(first.user_id).toMatch(/^[0-9a-f-]{36}$/);

    const order = await applyBadge(app, amy.token);
    const placed = await versionOf(amy.token);
    expect(placed.version).not.toBe(first.version);

    // Another user's order, and a seat taken on the event, leave Amy's pages as they are.
    const benBefore = await versionOf(ben.token);
    await applyBadge(app, ben.token);
    expect((await versionOf(ben.token)).version).not.toBe(benBefore.version);
    await db.update(events).set({ seatsTaken: sql`${events.seatsTaken} + 1` });
    expect((await versionOf(amy.token)).version).toBe(placed.version);

    // The declared transfer and invoice (orders and receipts), then the name.
    const declared = await app.request(
      '/api/v1/demonstration_order',
      json(amy.token, 'PUT', {
        payment: { type: 'TWD', remitter: 'Amy', sender_bank: 'Bank', last_five_digits: '12345' },
        receipt: { kind: 'personal' },
      }),
    );
    expect(declared.status).toBe(200);
    const afterTransfer = await versionOf(amy.token);
    expect(afterTransfer.version).not.toBe(placed.version);
    await db.update(receipts).set({ invoiceTitle: 'Amy Co.' }).where(eq(receipts.orderId, order.order_id));
    const afterReceipt = await versionOf(amy.token);
    expect(afterReceipt.version).not.toBe(afterTransfer.version);
    await db.update(users).set({ name: 'Amy Lin' }).where(eq(users.email, 'amy@example.com'));
    const renamed = await versionOf(amy.token);
    expect(renamed.version).not.toBe(afterReceipt.version);

    // An event's shown fields change every user's version; an order deleted too.
    await db.update(events).set({ nameEn: 'Professional badge 2026' });
    const eventRenamed = await versionOf(amy.token);
    expect(eventRenamed.version).not.toBe(renamed.version);
    await db.delete(badges).where(eq(badges.orderId, order.order_id));
    await db.delete(orders).where(eq(orders.id, order.order_id));
    expect((await versionOf(amy.token)).version).not.toBe(eventRenamed.version);
  });

  it('needs a signed-in user', async () => {
    expect((await app.request('/api/v1/user/page-version')).status).toBe(401);
  });
});
