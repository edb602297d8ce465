import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { emails, orderEvents, orders, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { mailSettings, queueEventMails } from '@server/mail/outbox';
import { processOrderEvents } from '@server/orders/order-events';
import { getJson, giveBadges, json, marketOnlineRegistration } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/** The approvals routes: each refuses a visitor (401) and a registrant (403). */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/v1/admin/approvals'],
  ['POST', '/api/v1/admin/approvals/approve', { orders: [{ order_no: 'TC1' }] }],
];

const ORGANISER = 'olivia@example.com';

describe.each(DATABASES)('back office: approvals (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let organiser: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, { ORGANISER_EMAILS: ORGANISER });
    ({ token: organiser } = await signIn(app, ORGANISER, 'Olivia'));
  });

  const post = (path: string, body: unknown, token = organiser) => app.request(path, json(token, 'POST', body));

  /** An audit-event registration (free, waiting for approval) of a badge holder. */
  async function auditRegistration(email: string) {
    const { token } = await signIn(app, email, 'Cai Chen');
    const [user] = await db.select().from(users).where(eq(users.email, email));
    await giveBadges(db, [{ id: user!.id, email }]);
    const res = await app.request('/api/v1/orders?event=pitching-session-audit&registration_type=EVENT_AUDIT', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token).headers },
      body: JSON.stringify({ agree_terms: true }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { order_no: string };
  }

  const trail = (orderNo: string) =>
    db
      .select({ kind: orderEvents.kind, actor: orderEvents.actor, actorId: orderEvents.actorId })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.orderNo, orderNo))
      .orderBy(orderEvents.id);

  it('refuses every approvals route to a visitor (401) and a registrant (403)', async () => {
    const { token } = await signIn(app, 'reg@example.com');
    for (const [method, path, body] of ROUTES) {
      const init = (t?: string): RequestInit =>
        body === undefined
          ? { method, ...(t ? bearer(t) : {}) }
          : {
              method,
              headers: { 'content-type': 'application/json', ...(t ? bearer(t).headers : {}) },
              body: JSON.stringify(body),
            };
      expect((await app.request(path, init())).status, `${method} ${path} as a visitor`).toBe(401);
      const registrant = await app.request(path, init(token));
      expect(registrant.status, `${method} ${path} as a registrant`).toBe(403);
      expect(await registrant.json()).toMatchObject({ code: 'forbidden' });
    }
    // Nothing was approved on the way.
    expect(await db.select().from(orderEvents).where(eq(orderEvents.kind, 'approved'))).toEqual([]);
  });

  it('lists the orders awaiting approval oldest first, with what an organiser decides on', async () => {
    const amy = await marketOnlineRegistration(app, db, 'amy@example.com', 'Harbour Pictures');
    const cai = await auditRegistration('cai@example.com');
    const ben = await marketOnlineRegistration(app, db, 'ben@example.com', 'Night Tram Films');
    // Decided orders leave the queue; one being reviewed stays in it.
    expect((await post(`/api/v1/admin/orders/${ben.orderNo}/approve`, {})).status).toBe(200);
    expect((await post(`/api/v1/admin/orders/${cai.order_no}/start-review`, {})).status).toBe(200);

    const res = await getJson(app, '/api/v1/admin/approvals', organiser);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 2, shown: 2 });
    expect(res.body.data).toEqual([
      expect.objectContaining({
        order_no: amy.orderNo,
        registration_type: 'MARKET_ONLINE',
        approval_status: 'pending_approval',
        payment_status: 'pending',
        amount_cents: 600_000,
        email: 'amy@example.com',
        event_slug: 'market-online',
        event_name: 'TCCF Online Market',
        company: 'Harbour Pictures',
        company_other: 'Harbour Pictures（中文）',
        works: 1,
        version: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      }),
      expect.objectContaining({
        order_no: cai.order_no,
        approval_status: 'auditing',
        payment_status: 'free',
        event_name: 'Pitching sessions (audit)',
        company: null,
        badge_identity: 'PROFESSIONAL',
        works: 0,
      }),
    ]);
    const zh = await getJson(app, '/api/v1/admin/approvals?lang=zh-TW', organiser);
    expect(zh.body.data[0]).toMatchObject({ event_name: 'TCCF 線上市場展', company: 'Harbour Pictures（中文）' });
  });

  it('bulk approve: each order in its own transaction; one changed meanwhile is refused alone, with why', async () => {
    const amy = await marketOnlineRegistration(app, db, 'amy@example.com', 'Harbour Pictures');
    const ben = await marketOnlineRegistration(app, db, 'ben@example.com', 'Night Tram Films');
    const dee = await marketOnlineRegistration(app, db, 'dee@example.com', 'Dee Docs');
    const cai = await auditRegistration('cai@example.com');
    const queue = (await getJson(app, '/api/v1/admin/approvals', organiser)).body.data as {
      order_no: string;
      version: string;
    }[];
    const seen = (orderNo: string) => ({
      order_no: orderNo,
      version: queue.find((q) => q.order_no === orderNo)!.version,
    });

    // Meanwhile (another tab, another organiser), Ben's is rejected and Dee's taken into review.
    expect((await post(`/api/v1/admin/orders/${ben.orderNo}/reject`, { reason: 'Not a content company' })).status).toBe(
      200,
    );
    expect((await post(`/api/v1/admin/orders/${dee.orderNo}/start-review`, {})).status).toBe(200);

    const res = await post('/api/v1/admin/approvals/approve', {
      orders: [
        seen(amy.orderNo),
        seen(ben.orderNo),
        seen(dee.orderNo),
        { order_no: cai.order_no },
        { order_no: 'TC000' },
      ],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toEqual([
      { order_no: amy.orderNo, result: 'approved' },
      { order_no: ben.orderNo, result: 'refused', code: 'not_awaiting_approval', message: expect.any(String) },
      {
        order_no: dee.orderNo,
        result: 'refused',
        code: 'order_state_changed',
        message: expect.stringContaining('changed'),
      },
      { order_no: cai.order_no, result: 'approved' },
      { order_no: 'TC000', result: 'refused', code: 'not_found', message: 'Order not found' },
    ]);
    expect(body.meta).toEqual({ approved: 2, refused: 3 });

    // Approved: the payment deadline starts now (Market online); the trail names the organiser.
    const [amyOrder] = await db.select().from(orders).where(eq(orders.orderNo, amy.orderNo));
    expect(amyOrder).toMatchObject({ approvalStatus: 'approved', paymentStatus: 'pending' });
    expect(amyOrder!.paymentExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await trail(amy.orderNo)).toEqual([
      { kind: 'placed', actor: 'registrant', actorId: expect.any(String) },
      { kind: 'approved', actor: 'organiser', actorId: ORGANISER },
    ]);
    expect((await trail(ben.orderNo)).map((e) => [e.kind, e.actorId])).toEqual([
      ['placed', expect.any(String)],
      ['rejected', ORGANISER],
    ]);
    // Dee's order is still waiting (in review), and can be approved once looked at again.
    const [deeOrder] = await db.select().from(orders).where(eq(orders.orderNo, dee.orderNo));
    expect(deeOrder!.approvalStatus).toBe('auditing');
    const again = await post('/api/v1/admin/approvals/approve', { orders: [{ order_no: dee.orderNo }] });
    expect((await again.json()).data).toEqual([{ order_no: dee.orderNo, result: 'approved' }]);

    // The registrants are e-mailed either way, by the outbox, from the order events.
    await processOrderEvents(db, queueEventMails(mailSettings(app.config)), { now: new Date(), limit: 100 });
    const mailsTo = async (to: string) =>
      (
        await db
          .select({ template: emails.template })
          .from(emails)
          .where(and(eq(emails.recipient, to)))
      ).map((m) => m.template);
    expect(await mailsTo('amy@example.com')).toEqual(expect.arrayContaining(['order_placed', 'approval_granted']));
    expect(await mailsTo('ben@example.com')).toEqual(expect.arrayContaining(['order_placed', 'registration_rejected']));
  });

  it('refuses a malformed bulk approval with 400, approving nothing', async () => {
    const amy = await marketOnlineRegistration(app, db, 'amy@example.com', 'Harbour Pictures');
    for (const body of [{}, { orders: [] }, { orders: [{ order_no: '' }] }, { orders: [amy.orderNo] }]) {
      const res = await post('/api/v1/admin/approvals/approve', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'validation_failed' });
    }
    const tooMany = Array.from({ length: 201 }, () => ({ order_no: amy.orderNo }));
    expect((await post('/api/v1/admin/approvals/approve', { orders: tooMany })).status).toBe(400);
    const [order] = await db.select().from(orders).where(eq(orders.orderNo, amy.orderNo));
    expect(order!.approvalStatus).toBe('pending_approval');
  });
});
