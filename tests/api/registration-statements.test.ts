import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, orderEvents, orders, registrations, users } from '@server/db/schema';
import { placeOrder } from '@server/orders/order-state';
import { giveBadges, insertOpenEvent } from './fixtures';
import { DATABASES, seededApp, signIn } from './helpers';
import { statementCounter } from './statement-count';

/*
 * What one registration sends to the database (decision 073): the statements of a POST
 * /orders?event=… by a badge holder, counted at the database client, so that their number
 * cannot grow back unnoticed. A registration burst is 1,000 of these at once (DESIGN §4).
 */

describe.each(DATABASES)('statements of one registration (%s)', (kind) => {
  // As in production: rate limits count in PostgreSQL on a server, in memory on PGlite.
  const suite = seededApp(
    kind,
    kind === 'postgres'
      ? { RATE_LIMIT_STORE: 'postgres', DATABASE_URL: process.env.TEST_DATABASE_URL! }
      : { RATE_LIMIT_STORE: 'memory' },
  );
  let counter: ReturnType<typeof statementCounter>;
  beforeAll(() => {
    counter = statementCounter(suite.database);
  });

  async function badgeHolder(email: string) {
    const { token } = await signIn(suite.app, email);
    const [user] = await suite.db.select().from(users).where(eq(users.email, email));
    await giveBadges(suite.db, [user!]);
    return token;
  }
  const seatEvent = (slug: string, capacity: number, priceCentsTwd = 0) =>
    insertOpenEvent(suite.db, slug, { capacity, priceCentsTwd });
  async function directEvent() {
    await seatEvent('counted-direct', 3, 50_000);
    return (await suite.db.select().from(events).where(eq(events.slug, 'counted-direct')))[0]!;
  }
  const register = (token: string, slug: string) =>
    suite.app.request(`/api/v1/orders?event=${slug}&registration_type=EVENT_GENERAL`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ agree_terms: true }),
    });
  /** The session check, and the rate-limit hit where it counts in the database. */
  const shared = kind === 'postgres' ? 2 : 1;

  it('an accepted registration: the checks, then seat, order, registration and outbox row in one statement', async () => {
    await seatEvent('counted', 10);
    const [first, token] = [await badgeHolder('bob@example.com'), await badgeHolder('amy@example.com')];
    // The first request of an instance runs the throttled expiry pass (at most every 10 s).
    expect((await register(first, 'counted')).status).toBe(201);
    const { result: res, statements } = await counter.during(async () => register(token, 'counted'));
    expect(res.status).toBe(201);
    const body = await res.json();

    // Everything the registration is made of was written (and committed together).
    const [order] = await suite.db.select().from(orders).where(eq(orders.id, body.order_id));
    expect(order).toMatchObject({ paymentStatus: 'free', holdsSeat: true });
    const [registration] = await suite.db
      .select({ form: registrations.form, noContact: sql<boolean>`${registrations.contact} is null` })
      .from(registrations)
      .where(eq(registrations.orderId, body.order_id));
    // No contact is SQL NULL, not a JSON null.
    expect(registration).toEqual({ form: { agreeTerms: true }, noContact: true });
    const trail = await suite.db.select().from(orderEvents).where(eq(orderEvents.orderId, body.order_id));
    expect(trail).toMatchObject([{ kind: 'placed', paymentStatusBefore: null, paymentStatusAfter: 'free' }]);
    const [event] = await suite.db.select().from(events).where(eq(events.slug, 'counted'));
    expect(event!.seatsTaken).toBe(2);
    // The event with the user's checks; then seat, order, registration and outbox row, with no
    // transaction around them (a statement is atomic on its own). Before decision 073: shared + 8.
    expect(statements, statements.join('\n')).toHaveLength(shared + 2);
    expect(statements.filter((s) => /^(begin|commit|rollback)/i.test(s))).toEqual([]);
  });

  it('a registration refused as full when its event is read', async () => {
    await seatEvent('tiny', 1);
    const [first, second] = [await badgeHolder('amy@example.com'), await badgeHolder('bob@example.com')];
    expect((await register(first, 'tiny')).status).toBe(201);
    const { result: res, statements } = await counter.during(async () => register(second, 'tiny'));
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('event_capacity_full');
    // Known full when the event is read: refused with no further statement.
    expect(statements, statements.join('\n')).toHaveLength(shared + 1);
  });

  it('a burst of 30 for 5 seats: exactly 5 accepted, the reads shared, one statement each to place or refuse', async () => {
    await seatEvent('rush', 5);
    const tokens = await Promise.all(Array.from({ length: 30 }, (_, i) => badgeHolder(`rush-${i}@example.com`)));
    const { result: answers, statements } = await counter.during(async () =>
      Promise.all(tokens.map((t) => register(t, 'rush'))),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 400)).toHaveLength(25);
    const [event] = await suite.db.select().from(events).where(eq(events.slug, 'rush'));
    expect(event!.seatsTaken).toBe(5);
    const placing = statements.filter((s) => s.startsWith('with seat as'));
    // Each request places (or is refused) in its own statement; the session checks, rate-limit
    // hits and event reads of requests that arrive together go as a few shared statements.
    expect(placing.length).toBeLessThanOrEqual(30);
    // (PGlite answers each statement before the next request gets there: nothing to share, and
    // no round trip to save.) The throttled expiry pass of the instance's first request aside.
    const others = statements.length - placing.length - 3;
    if (kind === 'postgres') expect(others).toBeLessThan(30);
    else expect(others).toBeLessThanOrEqual(2 * 30);
  });

  it('keeps placing orders after a migration adds a column to orders beside running instances', async () => {
    await seatEvent('migrated', 10);
    const [first, second] = [await badgeHolder('amy@example.com'), await badgeHolder('bob@example.com')];
    // Prepared (a named statement on PostgreSQL) on the connection the next call reuses.
    expect((await register(first, 'migrated')).status).toBe(201);
    await suite.db.execute(sql`alter table orders add column probe_added_later integer`);
    try {
      // With `returning *` PostgreSQL refused it: "cached plan must not change result type".
      expect((await register(second, 'migrated')).status).toBe(201);
    } finally {
      await suite.db.execute(sql`alter table orders drop column probe_added_later`);
    }
  });

  it('answers the placed order as the database holds it', async () => {
    await seatEvent('paid', 10, 80_000);
    const token = await badgeHolder('amy@example.com');
    const res = await register(token, 'paid');
    expect(res.status).toBe(201);
    const body = await res.json();
    const [order] = await suite.db.select().from(orders).where(eq(orders.id, body.order_id));
    expect(order).toMatchObject({ paymentStatus: 'pending', amountCents: 80_000, holdsSeat: true });
    expect(order!.paymentExpiresAt).toBeInstanceOf(Date);
    expect(body).toMatchObject({ order_id: order!.id, order_no: order!.orderNo, payment_status: 'pending' });
    const [user] = await suite.db.select().from(users).where(eq(users.email, 'amy@example.com'));
    const placed = await placeOrder(
      suite.db,
      {
        user: { id: user!.id, email: user!.email },
        event:
          (await suite.db.select().from(events).where(eq(events.slug, 'counted-direct')))[0] ?? (await directEvent()),
        registrationType: 'EVENT_GENERAL',
        form: { agreeTerms: true },
        actor: { kind: 'registrant', id: user!.id },
      },
      { now: new Date(), paymentDays: 3, pickupSecret: 'x', orderPrefix: 'TC' },
    );
    const [stored] = await suite.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(placed).toEqual(stored);
  });
});
