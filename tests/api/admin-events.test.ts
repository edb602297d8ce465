import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { eventChanges, events, orders, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { AGENCY, applyBadge, getJson, giveBadges, json, tokenMinter } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('back office: events (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let olivia: string;
  const minter = tokenMinter();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(
      database,
      // Agency mode: the minted tokens of the badge holders are the agency's access tokens.
      { ORGANISER_EMAILS: 'olivia@example.com', ...AGENCY },
      { devIdentityKeyFile: minter.keyFile },
    );
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
  });

  const patch = (slug: string, body: unknown, token = olivia) =>
    app.request(`/api/v1/admin/events/${slug}`, json(token, 'PATCH', body));
  const eventRow = async (slug: string) => (await db.select().from(events).where(eq(events.slug, slug)))[0]!;
  /** `n` users with a badge, as tokens (inserted directly, tokens minted with the dev identity's key). */
  async function badgeHolders(n: number, prefix: string) {
    const rows = await db
      .insert(users)
      .values(Array.from({ length: n }, (_, i) => ({ subject: `${prefix}-${i}`, email: `${prefix}-${i}@example.com` })))
      .returning({ id: users.id, email: users.email, subject: users.subject });
    await giveBadges(db, rows);
    return Promise.all(rows.map((r) => minter.token(r.subject, r.email)));
  }
  const register = (token: string, slug: string) =>
    app.request(`/api/v1/orders?event=${slug}`, json(token, 'POST', { agree_terms: true }));

  it('lists the events with their settings, seats taken and left, and whether they take seats', async () => {
    const [token] = await badgeHolders(1, 'list');
    expect((await register(token!, 'opening-forum')).status).toBe(201);
    const res = await getJson(app, '/api/v1/admin/events', olivia);
    expect(res.status).toBe(200);
    const forum = res.body.data.find((e: { slug: string }) => e.slug === 'opening-forum');
    expect(forum).toMatchObject({
      type: 'event_general',
      holds_seat: true,
      capacity: 200,
      seats_taken: 1,
      seats_left: 199,
      live_orders: 1,
      registration_state: 'open',
    });
    const online = res.body.data.find((e: { slug: string }) => e.slug === 'market-online');
    expect(online).toMatchObject({ holds_seat: false, capacity: null, seats_left: null, price_cents_twd: 600_000 });
    expect((await getJson(app, '/api/v1/admin/events/nope', olivia)).status).toBe(404);
  });

  it('refuses invalid settings with a message per field, and writes nothing', async () => {
    const before = await eventRow('opening-forum');
    const refused = async (slug: string, body: unknown, path: string, code?: string) => {
      const res = await patch(slug, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await res.json();
      expect(error.code).toBe('validation_failed');
      const issue = error.issues.find((i: { path: string }) => i.path === path);
      expect(issue, `${JSON.stringify(body)}: ${JSON.stringify(error.issues)}`).toBeTruthy();
      if (code) expect(issue.code).toBe(code);
    };
    await refused('opening-forum', { capacity: -1 }, 'capacity');
    await refused('opening-forum', { capacity: 'many' }, 'capacity');
    await refused('opening-forum', { seats_taken: 0 }, 'seats_taken');
    await refused('opening-forum', { register_end_at: '2026-11-04 09:30' }, 'register_end_at');
    await refused(
      'opening-forum',
      { register_start_at: '2026-11-10T00:00:00Z', register_end_at: '2026-11-01T00:00:00Z' },
      'register_end_at',
      'window_order',
    );
    await refused('opening-forum', { price_cents_twd: 100_050 }, 'price_cents_twd', 'twd_whole_dollars');
    await refused('opening-forum', { price_cents_usd: 3_500 }, 'price_cents_usd', 'usd_without_twd');
    await refused('market-online', { capacity: 50 }, 'capacity', 'capacity_not_counted');
    await refused('badge-free', { price_cents_twd: 100_000 }, 'price_cents_twd', 'free_event');
    expect((await patch('no-such-event', { capacity: 5 })).status).toBe(404);
    expect(await eventRow('opening-forum')).toEqual(before);
    expect(await db.select().from(eventChanges)).toEqual([]);
  });

  it('capacity can go down to the seats taken, not below (a clean 400, not a 500); the public page shows seats left', async () => {
    const tokens = await badgeHolders(4, 'cap');
    for (const t of tokens.slice(0, 3)) expect((await register(t, 'opening-forum')).status).toBe(201);
    const below = await patch('opening-forum', { capacity: 2 });
    expect(below.status).toBe(400);
    expect((await below.json()).issues).toEqual([
      {
        path: 'capacity',
        code: 'capacity_below_taken',
        message: 'Capacity cannot be below the 3 seats already taken',
        values: { taken: 3 },
      },
    ]);
    expect((await eventRow('opening-forum')).capacity).toBe(200);

    const ok = await patch('opening-forum', { capacity: 3 });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toMatchObject({ capacity: 3, seats_taken: 3, seats_left: 0 });
    const full = await register(tokens[3]!, 'opening-forum');
    expect(full.status).toBe(400);
    expect(await full.json()).toMatchObject({ code: 'event_capacity_full' });
    const publicPage = await app.request('/api/v1/events/opening-forum');
    expect((await publicPage.json()).data).toMatchObject({ capacity: 3, seats_left: 0 });
  });

  it('registrations racing a lowered capacity never overshoot it', async () => {
    await patch('opening-forum', { capacity: 12 });
    const tokens = await badgeHolders(10, 'race');
    const results = await Promise.all([
      ...tokens.slice(0, 5).map((t) => register(t, 'opening-forum')),
      patch('opening-forum', { capacity: 6 }),
      ...tokens.slice(5).map((t) => register(t, 'opening-forum')),
    ]);
    const statuses = results.map((r) => r.status);
    // Every answer is a decision, never an error.
    expect(statuses.every((s) => s === 200 || s === 201 || s === 400)).toBe(true);
    const event = await eventRow('opening-forum');
    expect(event.seatsTaken).toBeLessThanOrEqual(event.capacity!);
    const live = (await db.select().from(orders).where(eq(orders.eventId, event.id))).filter((o) => o.holdsSeat);
    expect(live).toHaveLength(event.seatsTaken);
    // The capacity change either went through (≤ 6 seats then) or was refused with the field's reason.
    const change = results[5]!;
    if (change.status === 200) expect(event.capacity).toBe(6);
    else expect((await change.json()).issues[0].code).toBe('capacity_below_taken');
  });

  it('a new price applies to new orders only; placed orders keep theirs', async () => {
    const { token: amy } = await signIn(app, 'amy@example.com');
    const first = await applyBadge(app, amy);
    expect((await patch('badge-professional', { price_cents_twd: 120_000, price_cents_usd: 4_000 })).status).toBe(200);
    const { token: ben } = await signIn(app, 'ben@example.com');
    const second = await applyBadge(app, ben);
    const amount = async (token: string, id: string) => (await getJson(app, `/api/v1/orders/${id}`, token)).body.data;
    expect(await amount(amy, first.order_id)).toMatchObject({ amount_cents: 100_000 });
    expect(await amount(ben, second.order_id)).toMatchObject({ amount_cents: 120_000 });
    const [placed] = await db.select().from(orders).where(eq(orders.id, first.order_id));
    expect(placed).toMatchObject({ unitPriceTwdCents: 100_000, unitPriceUsdCents: 3_500 });
  });

  it('records each change with who made it and when, before → after; shows the history; nothing for no change', async () => {
    const before = await eventRow('opening-forum');
    const res = await patch('opening-forum', {
      capacity: 150,
      register_end_at: '2026-12-01T15:59:00.000Z',
      form_modify_expires_at: null,
      expected_updated_at: before.updatedAt.toISOString(),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()).data;
    expect(body.changed).toEqual({
      capacity: { before: 200, after: 150 },
      register_end_at: { before: before.registerEndAt.toISOString(), after: '2026-12-01T15:59:00.000Z' },
      form_modify_expires_at: { before: before.formModifyExpiresAt!.toISOString(), after: null },
    });
    const rows = await db.select().from(eventChanges);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ eventId: before.id, changedBy: 'olivia@example.com' });

    // The same values again: no change, no row.
    expect((await patch('opening-forum', { capacity: 150 })).status).toBe(200);
    expect(await db.select().from(eventChanges)).toHaveLength(1);

    // A form loaded before that change is refused rather than overwriting it.
    const stale = await patch('opening-forum', { capacity: 100, expected_updated_at: before.updatedAt.toISOString() });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ code: 'event_changed' });

    const detail = await getJson(app, '/api/v1/admin/events/opening-forum', olivia);
    expect(detail.body.data).toMatchObject({ capacity: 150, form_modify_expires_at: null });
    expect(detail.body.data.changes).toEqual([
      {
        id: rows[0]!.id,
        changed_by: 'olivia@example.com',
        action: 'updated',
        created_at: expect.any(String),
        changes: body.changed,
      },
    ]);

    // The seed, run again (a restart), leaves the changed event alone and re-dates the others.
    await seed(db, new Date(Date.now() + 3 * DAY));
    expect((await eventRow('opening-forum')).registerEndAt.toISOString()).toBe('2026-12-01T15:59:00.000Z');
    expect((await eventRow('online-masterclass')).registerEndAt).not.toEqual(
      (await eventRow('opening-forum')).registerEndAt,
    );
  });

  it('closing the registration window closes the public event', async () => {
    const res = await patch('opening-forum', { register_end_at: new Date(Date.now() - 60_000).toISOString() });
    expect(res.status).toBe(200);
    const event = await app.request('/api/v1/events/opening-forum');
    expect((await event.json()).data.registration_state).toBe('closed');
    const [token] = await badgeHolders(1, 'late');
    const late = await register(token!, 'opening-forum');
    expect(await late.json()).toMatchObject({ code: 'registration_closed' });
    expect((await app.request('/api/v1/admin/events', bearer(olivia))).status).toBe(200);
  });
});
