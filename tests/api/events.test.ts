import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Pool } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { events, orderPayments, orders, registrations, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { AGENCY, counts, getJson, giveBadges, insertOpenEvent, tokenMinter } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/** POST /api/v1/orders?event=…[&registration_type=…] with a JSON body (default: terms agreed). */
function register(
  app: TestApp,
  token: string | null,
  event: string | null,
  options: { type?: string; body?: string } = {},
) {
  const q = new URLSearchParams();
  if (event !== null) q.set('event', event);
  if (options.type) q.set('registration_type', options.type);
  return app.request(`/api/v1/orders?${q}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: options.body ?? JSON.stringify({ agree_terms: true }),
  });
}

const seatsTaken = async (db: Db, slug: string) =>
  (await db.select({ n: events.seatsTaken }).from(events).where(eq(events.slug, slug)))[0]!.n;
const ordersOf = async (db: Db, slug: string) =>
  db
    .select({ order: orders })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(events.slug, slug))
    .then((r) => r.map((x) => x.order));

describe.each(DATABASES)('event registration API (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let db: Db;
  let amy: string;
  const minter = tokenMinter();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile });
    amy = await badgeHolder('amy@example.com');
  });

  const userRow = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0]!;
  /** Signs in through the dev identity and gives the user a badge; returns the token. */
  async function badgeHolder(email: string) {
    const { token } = await signIn(app, email);
    await giveBadges(db, [await userRow(email)]);
    return token;
  }
  /** `n` badge holders inserted directly, with tokens minted by the dev identity's key (fast). */
  async function manyBadgeHolders(n: number, prefix: string) {
    const rows = await db
      .insert(users)
      .values(Array.from({ length: n }, (_, i) => ({ subject: `${prefix}-${i}`, email: `${prefix}-${i}@example.com` })))
      .returning({ id: users.id, email: users.email, subject: users.subject });
    await giveBadges(db, rows);
    return Promise.all(rows.map((r) => minter.token(r.subject, r.email)));
  }

  const expectError = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ code, message: expect.any(String), error: expect.any(String) });
    expect(body.error).toBe(body.message);
    return body;
  };

  describe('general, audit and online events', () => {
    it('registers for a free general event: 201 with order_id, payment status free, no approval; listed in the orders', async () => {
      const res = await register(app, amy, 'opening-forum', { type: 'EVENT_GENERAL' });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toMatchObject({
        order_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        order_no: expect.stringMatching(/^TC\d{6}[0-9A-Z]{6}$/),
        event_slug: 'opening-forum',
        payment_status: 'free',
        approval_status: null,
        existing: false,
      });

      const list = await getJson(app, '/api/v1/orders', amy);
      expect(list.status).toBe(200);
      const listed = list.body.data.find((o: { order_id: string }) => o.order_id === body.order_id);
      expect(listed).toMatchObject({
        event_slug: 'opening-forum',
        registration_type: 'EVENT_GENERAL',
        payment_status: 'free',
        approval_status: null,
      });

      const [row] = await ordersOf(db, 'opening-forum');
      expect(row).toMatchObject({
        id: body.order_id,
        registrationType: 'EVENT_GENERAL',
        paymentStatus: 'free',
        amountCents: 0,
        holdsSeat: true,
        paymentExpiresAt: null,
      });
      expect(await seatsTaken(db, 'opening-forum')).toBe(1);
      // A free order has no payment record; the form is stored as a registration.
      expect(await db.select().from(orderPayments).where(eq(orderPayments.orderId, body.order_id))).toHaveLength(0);
      expect(await db.select().from(registrations).where(eq(registrations.orderId, body.order_id))).toHaveLength(1);
      const event = await getJson(app, '/api/v1/events/opening-forum', amy);
      expect(event.body.data).toMatchObject({ capacity: 200, seats_left: 199 });
    });

    it('a repeat registration answers 200 with the SAME order (existing: true), not an error, and takes no second seat', async () => {
      const first = await (await register(app, amy, 'opening-forum')).json();
      const again = await register(app, amy, 'opening-forum', { type: 'EVENT_GENERAL' });
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({
        order_id: first.order_id,
        order_no: first.order_no,
        payment_status: 'free',
        existing: true,
      });
      expect(await ordersOf(db, 'opening-forum')).toHaveLength(1);
      expect(await seatsTaken(db, 'opening-forum')).toBe(1);
    });

    it('an audit event starts pending_approval', async () => {
      const res = await register(app, amy, 'pitching-session-audit', { type: 'EVENT_AUDIT' });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toMatchObject({
        event_slug: 'pitching-session-audit',
        payment_status: 'free',
        approval_status: 'pending_approval',
      });
      const order = await getJson(app, `/api/v1/orders/${body.order_id}`, amy);
      expect(order.body.data).toMatchObject({ registration_type: 'EVENT_AUDIT', approval_status: 'pending_approval' });
      expect(await seatsTaken(db, 'pitching-session-audit')).toBe(1);
    });

    it('an online event registers as EVENT_ONLINE (registration_type optional), unlimited seats', async () => {
      const res = await register(app, amy, 'online-masterclass');
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toMatchObject({ event_slug: 'online-masterclass', payment_status: 'free', approval_status: null });
      const [row] = await ordersOf(db, 'online-masterclass');
      expect(row).toMatchObject({ registrationType: 'EVENT_ONLINE' });
      expect(await seatsTaken(db, 'online-masterclass')).toBe(1);
    });
  });

  describe('refusals write nothing', () => {
    const cases: [string, (app: TestApp, token: string) => Response | Promise<Response>, number, string][] = [
      [
        'a registration_type that does not match the event',
        (a, t) => register(a, t, 'opening-forum', { type: 'EVENT_AUDIT' }),
        400,
        'invalid_registration_type',
      ],
      [
        'a registration_type outside the event types',
        (a, t) => register(a, t, 'opening-forum', { type: 'BADGE_FREE' }),
        400,
        'invalid_registration_type',
      ],
      ['a badge event', (a, t) => register(a, t, 'badge-professional'), 400, 'event_type_not_supported'],
      ['an unknown event', (a, t) => register(a, t, 'no-such-event'), 404, 'not_found'],
      ['no ?event', (a, t) => register(a, t, null), 400, 'validation_failed'],
      ['an empty ?event', (a, t) => register(a, t, ''), 400, 'validation_failed'],
      [
        'a body without agree_terms',
        (a, t) => register(a, t, 'opening-forum', { body: '{}' }),
        400,
        'validation_failed',
      ],
      [
        'agree_terms false',
        (a, t) => register(a, t, 'opening-forum', { body: '{"agree_terms":false}' }),
        400,
        'validation_failed',
      ],
      [
        'agree_terms "true" (a string)',
        (a, t) => register(a, t, 'opening-forum', { body: '{"agree_terms":"true"}' }),
        400,
        'validation_failed',
      ],
      [
        'malformed JSON',
        (a, t) => register(a, t, 'opening-forum', { body: '{"agree_terms": tru' }),
        400,
        'invalid_json',
      ],
      ['no token', (a) => register(a, null, 'opening-forum'), 401, 'unauthorized'],
      ['a garbage token', (a) => register(a, 'x.y.z', 'opening-forum'), 401, 'unauthorized'],
    ];
    it.each(cases)('%s', async (_name, send, status, code) => {
      const before = await counts(db);
      const body = await expectError(await send(app, amy), status, code);
      if (code === 'validation_failed' && _name.includes('agree_terms')) expect(body.error).toMatch(/agree_terms/);
      expect(await counts(db)).toEqual(before);
      expect(await seatsTaken(db, 'opening-forum')).toBe(0);
    });

    it('an exhibit badge is required: a signed-in user without one gets 400 demonstration_invalid', async () => {
      const { token } = await signIn(app, 'nobadge@example.com');
      const before = await counts(db);
      await expectError(await register(app, token, 'opening-forum'), 400, 'demonstration_invalid');
      expect(await counts(db)).toEqual(before);
      expect(await seatsTaken(db, 'opening-forum')).toBe(0);
    });
  });

  describe('registration window', () => {
    it('refuses a closed event (registration_closed) and one not yet open (registration_not_open)', async () => {
      const before = await counts(db);
      const closed = await expectError(await register(app, amy, 'industry-preview-night'), 400, 'registration_closed');
      expect(closed.message).toBe('Event registration has closed');
      const early = await expectError(await register(app, amy, 'closing-awards'), 400, 'registration_not_open');
      expect(early.message).toBe('Event not yet open');
      expect(await counts(db)).toEqual(before);
    });

    it('is inclusive at both ends: exactly at register_start_at and register_end_at is allowed, 1 ms later is closed', async () => {
      const [event] = await db.select().from(events).where(eq(events.slug, 'opening-forum'));
      const at = (date: Date) =>
        createTestApp(database, AGENCY, { now: () => date, devIdentityKeyFile: minter.keyFile });
      const [early, late] = await manyBadgeHolders(2, 'edge');

      const atEnd = await at(event!.registerEndAt);
      expect((await register(atEnd, amy, 'opening-forum')).status).toBe(201);
      const atStart = await at(event!.registerStartAt);
      expect((await register(atStart, early!, 'opening-forum')).status).toBe(201);

      const after = await at(new Date(event!.registerEndAt.getTime() + 1));
      await expectError(await register(after, late!, 'opening-forum'), 400, 'registration_closed');
      const before = await at(new Date(event!.registerStartAt.getTime() - 1));
      await expectError(await register(before, late!, 'opening-forum'), 400, 'registration_not_open');
      expect(await ordersOf(db, 'opening-forum')).toHaveLength(2);
    });
  });

  describe('capacity', () => {
    it('never oversells: 50 badge holders at once for 10 seats give exactly 10 orders and 40 event_capacity_full', async () => {
      await insertOpenEvent(db, 'rush-hour', { capacity: 10 });
      const tokens = await manyBadgeHolders(50, 'rush');
      const responses = await Promise.all(tokens.map((t) => register(app, t, 'rush-hour')));
      const bodies = await Promise.all(responses.map((r) => r.json()));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 400)).toHaveLength(40);
      for (const b of bodies.filter((_, i) => statuses[i] === 400)) {
        expect(b).toMatchObject({
          code: 'event_capacity_full',
          message: 'This event is full. Please go back to the home page to register for other events.',
        });
      }
      const created = bodies.filter((_, i) => statuses[i] === 201).map((b) => b.order_id);
      expect(new Set(created).size).toBe(10);

      expect(await seatsTaken(db, 'rush-hour')).toBe(10);
      const rows = await ordersOf(db, 'rush-hour');
      expect(rows).toHaveLength(10);
      expect(rows.map((r) => r.id).sort()).toEqual([...created].sort());
      expect(new Set(rows.map((r) => r.userId)).size).toBe(10);
      const [regs] = await db
        .select({ n: count() })
        .from(registrations)
        .innerJoin(orders, eq(orders.id, registrations.orderId))
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(eq(events.slug, 'rush-hour'));
      expect(regs!.n).toBe(10);
      // The requests really overlapped: they held many connections at once.
      if (kind === 'postgres') expect((db as unknown as { $client: Pool }).$client.totalCount).toBeGreaterThan(10);
      const event = await getJson(app, '/api/v1/events/rush-hour', amy);
      expect(event.body.data).toMatchObject({ capacity: 10, seats_left: 0 });
    });

    it('the same user 10 times at once: one order (one 201, the rest 200 with it), one seat', async () => {
      const responses = await Promise.all(Array.from({ length: 10 }, () => register(app, amy, 'opening-forum')));
      const bodies = await Promise.all(responses.map((r) => r.json()));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(bodies.map((b) => b.order_id)).size).toBe(1);
      expect(await ordersOf(db, 'opening-forum')).toHaveLength(1);
      expect(await seatsTaken(db, 'opening-forum')).toBe(1);
    });

    it('an overdue order gives its seat back: the next registrant gets it', async () => {
      await insertOpenEvent(db, 'paid-workshop', { capacity: 1, priceCentsTwd: 50_000 });
      const [bob] = await manyBadgeHolders(1, 'bob');

      const a = await register(app, amy, 'paid-workshop');
      expect(a.status).toBe(201);
      const order = await a.json();
      expect(order).toMatchObject({ payment_status: 'pending', approval_status: null });
      const [row] = await db.select().from(orders).where(eq(orders.id, order.order_id));
      expect(row).toMatchObject({
        amountCents: 50_000,
        totalTwdCents: 50_000,
        unitPriceTwdCents: 50_000,
        holdsSeat: true,
      });
      expect(row!.paymentExpiresAt).toBeInstanceOf(Date);
      expect(row!.paymentExpiresAt!.getTime()).toBeGreaterThan(Date.now());

      await expectError(await register(app, bob!, 'paid-workshop'), 400, 'event_capacity_full');
      expect(await seatsTaken(db, 'paid-workshop')).toBe(1);

      // Amy's payment deadline passes.
      const past = new Date(Date.now() - 60_000);
      await db.update(orders).set({ paymentExpiresAt: past }).where(eq(orders.id, order.order_id));

      const retry = await register(app, bob!, 'paid-workshop');
      expect(retry.status).toBe(201);
      expect(await retry.json()).toMatchObject({ payment_status: 'pending' });
      const [amyOrder] = await db.select().from(orders).where(eq(orders.id, order.order_id));
      expect(amyOrder).toMatchObject({ paymentStatus: 'overdue', holdsSeat: false });
      expect(await seatsTaken(db, 'paid-workshop')).toBe(1);
      const live = (await ordersOf(db, 'paid-workshop')).filter((o) => o.paymentStatus === 'pending');
      expect(live).toHaveLength(1);
      expect(live[0]!.id).not.toBe(order.order_id);
    });

    it("a user's own lapsed order is not answered as the existing one: re-registering gives a new unpaid order", async () => {
      await insertOpenEvent(db, 'paid-workshop', { capacity: 1, priceCentsTwd: 50_000 });
      const first = await (await register(app, amy, 'paid-workshop')).json();
      const past = new Date(Date.now() - 60_000);
      await db.update(orders).set({ paymentExpiresAt: past }).where(eq(orders.id, first.order_id));

      const again = await register(app, amy, 'paid-workshop');
      expect(again.status).toBe(201);
      const body = await again.json();
      expect(body).toMatchObject({ payment_status: 'pending', existing: false });
      expect(body.order_id).not.toBe(first.order_id);
      const [old] = await db.select().from(orders).where(eq(orders.id, first.order_id));
      expect(old).toMatchObject({ paymentStatus: 'overdue', holdsSeat: false });
      expect(await seatsTaken(db, 'paid-workshop')).toBe(1);
    });

    it('a canceled order frees the user to register again, with a new order', async () => {
      const first = await (await register(app, amy, 'opening-forum')).json();
      await db.update(orders).set({ paymentStatus: 'canceled', holdsSeat: false }).where(eq(orders.id, first.order_id));
      await db.update(events).set({ seatsTaken: 0 }).where(eq(events.slug, 'opening-forum'));
      const again = await register(app, amy, 'opening-forum');
      expect(again.status).toBe(201);
      expect((await again.json()).order_id).not.toBe(first.order_id);
      expect(await seatsTaken(db, 'opening-forum')).toBe(1);
    });
  });

  describe('GET /api/v1/registrations/{id}', () => {
    it('answers the owner (200) and nobody else (404), and 404 for a garbage id', async () => {
      const created = await (await register(app, amy, 'opening-forum')).json();
      const order = await getJson(app, `/api/v1/orders/${created.order_id}`, amy);
      const registrationId = order.body.data.registration_id as string;
      expect(registrationId).toMatch(/^[0-9a-f-]{36}$/);

      const own = await getJson(app, `/api/v1/registrations/${registrationId}`, amy);
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({
        registration_id: registrationId,
        order_id: created.order_id,
        form: { agree_terms: true },
      });

      const [bob] = await manyBadgeHolders(1, 'bob');
      const other = await app.request(`/api/v1/registrations/${registrationId}`, bearer(bob!));
      await expectError(other, 404, 'not_found');
      for (const id of ['garbage', randomUUID(), `${registrationId.slice(0, 35)}x`, "1' or '1'='1"]) {
        await expectError(
          await app.request(`/api/v1/registrations/${encodeURIComponent(id)}`, bearer(amy)),
          404,
          'not_found',
        );
      }
      await expectError(await app.request(`/api/v1/registrations/${registrationId}`), 401, 'unauthorized');
    });
  });

  it('order rows stay consistent with seats: seats_taken equals the live seat-holding orders', async () => {
    await register(app, amy, 'opening-forum');
    await register(app, amy, 'pitching-session-audit');
    for (const slug of ['opening-forum', 'pitching-session-audit']) {
      const [event] = await db.select().from(events).where(eq(events.slug, slug));
      const [held] = await db
        .select({ n: count() })
        .from(orders)
        .where(and(eq(orders.eventId, event!.id), eq(orders.holdsSeat, true)));
      expect(event!.seatsTaken).toBe(held!.n);
    }
  });
});
