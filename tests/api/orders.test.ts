import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoOrders } from '@server/db/demo';
import { users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { devSubject } from '@server/identity/dev-identity';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

describe.each(DATABASES)('orders and events API (%s)', (kind) => {
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

  it('lists nothing for a new user, as {data: []}', async () => {
    const { token } = await signIn(app, 'new@example.com');
    const res = await app.request('/api/v1/orders', bearer(token));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [], meta: { page: 1, total: 0 } });
  });

  it('shows each user only their own orders, newest first, in snake_case', async () => {
    const { token: amy } = await signIn(app, 'amy@example.com');
    const { token: bob } = await signIn(app, 'bob@example.com');
    await seedDemoOrders(database.db, { subject: devSubject('amy@example.com'), email: 'amy@example.com', count: 3 });
    await seedDemoOrders(database.db, { subject: devSubject('bob@example.com'), email: 'bob@example.com', count: 2 });

    const amyOrders = (await (await app.request('/api/v1/orders', bearer(amy))).json()).data;
    const bobOrders = (await (await app.request('/api/v1/orders', bearer(bob))).json()).data;
    expect(amyOrders).toHaveLength(3);
    expect(bobOrders).toHaveLength(2);
    const [amyUser] = await database.db.select().from(users).where(eq(users.email, 'amy@example.com'));
    expect(amyUser).toBeDefined();
    const created = amyOrders.map((o: { created_at: string }) => Date.parse(o.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Object.keys(amyOrders[0])).toEqual(
      expect.arrayContaining([
        'order_id',
        'order_no',
        'event_slug',
        'event_time',
        'event_end_at',
        'payment_status',
        'approval_status',
      ]),
    );

    // Another user's order is a 404, never a 403 that would confirm it exists.
    const other = await app.request(`/api/v1/orders/${amyOrders[0].order_id}`, bearer(bob));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'not_found' });
    const own = await app.request(`/api/v1/orders/${amyOrders[0].order_id}`, bearer(amy));
    expect(own.status).toBe(200);
    expect((await own.json()).data.order_id).toBe(amyOrders[0].order_id);
  });

  it('lists each order exactly as the order itself answers (the list reads only the columns its view needs)', async () => {
    const { token } = await signIn(app, 'cols@example.com');
    await seedDemoOrders(database.db, {
      subject: devSubject('cols@example.com'),
      email: 'cols@example.com',
      count: 14,
    });
    const list = (await (await app.request('/api/v1/orders?limit=100', bearer(token))).json()).data;
    expect(list).toHaveLength(14);
    for (const listed of list) {
      const one = (await (await app.request(`/api/v1/orders/${listed.order_id}`, bearer(token))).json()).data;
      // Only the single order carries the badges it includes, its e-invoice, its refunds, how
      // ATM pays it (issue 22) and its edition (decision 068); a list never did.
      for (const key of ['included_badges', 'invoice', 'refunds', 'edition_slug']) delete one[key];
      delete one.payment?.atm_mode;
      delete one.payment?.virtual_account;
      expect(listed).toEqual(one);
    }
  });

  it('pages with limit and page', async () => {
    const { token } = await signIn(app, 'amy@example.com');
    await seedDemoOrders(database.db, { subject: devSubject('amy@example.com'), email: 'amy@example.com', count: 25 });
    const first = await (await app.request('/api/v1/orders?limit=10&page=1', bearer(token))).json();
    const third = await (await app.request('/api/v1/orders?limit=10&page=3', bearer(token))).json();
    expect(first.data).toHaveLength(10);
    expect(third.data).toHaveLength(5);
    expect(first.meta).toEqual({ page: 1, limit: 10, total: 25 });
    expect(third.meta).toEqual({ page: 3, limit: 10, total: 25 });
    // A page past the end has no order to carry the list's length: it is still told (decision 069).
    const past = await (await app.request('/api/v1/orders?limit=10&page=4', bearer(token))).json();
    expect(past).toMatchObject({ data: [], meta: { page: 4, limit: 10, total: 25 } });
    const all = await (await app.request('/api/v1/orders?limit=100', bearer(token))).json();
    expect(new Set(all.data.map((o: { order_id: string }) => o.order_id)).size).toBe(25);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=1.5', 'limit=-1'])(
    'rejects %s with 400 in the error shape',
    async (query) => {
      const { token } = await signIn(app, 'amy@example.com');
      const res = await app.request(`/api/v1/orders?${query}`, bearer(token));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('validation_failed');
      expect(body.error).toMatch(/limit|page/);
    },
  );

  it('localises event fields by lang and answers an unknown event with 404', async () => {
    const en = await (await app.request('/api/v1/events/opening-forum')).json();
    const zh = await (await app.request('/api/v1/events/opening-forum?lang=zh-TW')).json();
    expect(en.data).toMatchObject({
      slug: 'opening-forum',
      type: 'event_general',
      registration_state: 'open',
      capacity: 200,
      seats_left: 200,
    });
    expect(zh.data.name).toBe('開幕論壇：亞洲影集的未來');
    const missing = await app.request('/api/v1/events/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
  });

  it('seeds one event of each of the nine types (plus a closed and a not-yet-open one), idempotently', async () => {
    await seed(database.db);
    const list = (await (await app.request('/api/v1/events')).json()).data;
    expect([...new Set(list.map((e: { type: string }) => e.type))].sort()).toEqual([
      'badge_free',
      'badge_professional',
      'event_audit',
      'event_general',
      'event_online',
      'market_earlybird',
      'market_online',
      'pitching_project',
      'pitching_story',
    ]);
    const badge = list.find((e: { slug: string }) => e.slug === 'badge-professional');
    expect(badge).toMatchObject({ price_cents_twd: 100_000, price_cents_usd: 3_500, registration_state: 'open' });
  });

  it('answers unknown routes and oversized bodies in the error shape', async () => {
    const unknown = await app.request('/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
    const big = await app.request('/api/v1/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      body: JSON.stringify({ x: 'a'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ code: 'payload_too_large' });
  });
});
