import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { badges, editions, events, meetingSlots, orders, users } from '@server/db/schema';
import { createBadgeLink } from '@server/badges/badges';
import { holdsIssuedBadge } from '@server/meetings/meetings';
import { registrationContext } from '@server/orders/registrations';
import { AGENCY, application, json, tokenMinter, uploadPhoto } from './fixtures';
import { bearer, DATABASES, seededApp, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * One badge per person per edition (issue 21, decision 068): a returning visitor who holds last
 * edition's badge applies again once the next edition starts; within one edition the rule holds
 * as before (409, and exactly one order under concurrency, by the database's indexes); the desk
 * refuses a past edition's badge; a meeting and an event that needs a badge need one of their own
 * edition.
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('one badge per person per edition (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let olivia: string;
  let amy: string;
  const minter = tokenMinter();
  const suite = seededApp(
    kind,
    { ORGANISER_EMAILS: 'olivia@example.com', ...AGENCY },
    { devIdentityKeyFile: minter.keyFile },
  );

  beforeEach(async () => {
    ({ database, app } = suite);
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
    ({ token: amy } = await signIn(app, 'amy@example.com', 'Amy'));
  });

  const call = (method: string, path: string, body?: unknown, token = olivia) =>
    app.request(`/api/v1${path}`, method === 'GET' ? bearer(token) : json(token, method, body ?? {}));
  const current = async () => (await database.db.select().from(editions).where(eq(editions.isCurrent, true)))[0]!;
  const userId = async (email: string) =>
    (await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  const apply = async (token: string) =>
    app.request('/api/v1/demonstration_order', json(token, 'POST', application(await uploadPhoto(app, token))));
  /** Amy's free badge of the current edition, through a one-time link (issued at once). */
  const freeBadge = async (token = amy) => {
    const link = await createBadgeLink(database.db, { identity: 'VIP', expiresAt: new Date(Date.now() + 14 * DAY) });
    const res = await app.request(
      `/api/v1/demonstration?code=${encodeURIComponent(link.code)}`,
      json(token, 'PUT', application(await uploadPhoto(app, token))),
    );
    expect(res.status).toBe(200);
    return (await res.json()).data as { order_id: string; edition_slug: string; qr_code_image: string | null };
  };
  /** The organiser starts the next edition (its events copied as drafts) and publishes the copies of `types`. */
  const startNext = async (...types: (typeof events.$inferSelect)['type'][]) => {
    const res = await call('POST', '/admin/editions/next', {
      slug: 'tccf-next',
      name_en: 'TCCF next',
      name_zh: 'TCCF 下一屆',
      first_day: '2031-10-28',
    });
    expect(res.status).toBe(201);
    const next = await current();
    const copies = await database.db.select().from(events).where(eq(events.editionId, next.id));
    for (const type of types)
      for (const copy of copies.filter((e) => e.type === type)) {
        // Registration open now (the copies are shifted to the next fair's dates).
        await database.db
          .update(events)
          .set({ registerStartAt: new Date(Date.now() - DAY), registerEndAt: new Date(Date.now() + 30 * DAY) })
          .where(eq(events.id, copy.id));
        expect((await call('POST', `/admin/events/${copy.slug}/publish`)).status).toBe(200);
      }
    return { next, copies };
  };

  it('a returning visitor with last edition’s badge applies again in the next one (201); a second application there is refused', async () => {
    const first = await current();
    const old = await freeBadge();
    expect(old.edition_slug).toBe(first.slug);
    // Within the edition: one badge, as before.
    const again = await apply(amy);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'demonstration_exists' });

    const { next, copies } = await startNext('badge_professional');
    const copy = copies.find((e) => e.type === 'badge_professional')!;
    // My badge of the current edition: none yet; last edition's stays reachable by its edition.
    expect((await call('GET', '/demonstration', undefined, amy)).status).toBe(404);
    expect((await call('GET', '/demonstration_order', undefined, amy)).status).toBe(404);
    const past = await call('GET', `/demonstration?edition=${first.slug}`, undefined, amy);
    expect(past.status).toBe(200);
    expect((await past.json()).data).toMatchObject({ order_id: old.order_id, edition_slug: first.slug });
    expect((await call('GET', '/demonstration?edition=no-such-edition', undefined, amy)).status).toBe(404);

    // The application (no slug: the current edition's Professional badge event) is for the new edition.
    const applied = await apply(amy);
    expect(applied.status).toBe(201);
    const placed = await applied.json();
    expect(placed.event_slug).toBe(copy.slug);
    const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.order_id));
    expect(row).toMatchObject({ badgeEditionId: next.id, badgeEmailKey: 'amy@example.com', paymentStatus: 'pending' });
    const order = await call('GET', '/demonstration_order', undefined, amy);
    expect((await order.json()).data).toMatchObject({ order_id: placed.order_id, edition_slug: next.slug });

    // A second application in the new edition: refused as today, in both languages.
    const second = await apply(amy);
    expect(second.status).toBe(409);
    expect((await second.json()).message).toMatch(/only one badge/);
    const zh = await app.request(
      '/api/v1/demonstration_order?lang=zh-TW',
      json(amy, 'POST', application(await uploadPhoto(app, amy))),
    );
    expect(zh.status).toBe(409);
    expect((await zh.json()).code).toBe('demonstration_exists');

    // Paid: the new edition's badge is issued beside the old one, each of its edition.
    expect(
      (await call('PUT', `/orders/${placed.order_id}`, { payment: { type: 'TWD', last_five_digits: '12345' } }, amy))
        .status,
    ).toBe(200);
    expect((await call('POST', `/admin/orders/${placed.order_no}/mark-paid`)).status).toBe(200);
    const held = await database.db
      .select()
      .from(badges)
      .where(eq(badges.userId, await userId('amy@example.com')));
    expect(held.map((b) => b.editionId).sort()).toEqual([first.id, next.id].sort());
    const mine = (await (await call('GET', '/demonstration', undefined, amy)).json()).data;
    expect(mine).toMatchObject({ order_id: placed.order_id, edition_slug: next.slug });
    expect(mine.qr_code_image).toBeTruthy();
    // The back office home counts the badges the desk hands out: the current edition's only.
    const summary = (await (await call('GET', '/admin/summary')).json()).data;
    expect(summary).toMatchObject({ badges_issued: 1, badges_picked_up: 0 });
  });

  it('the database holds the rule per edition: concurrent applications in one edition yield exactly one order', async () => {
    await freeBadge();
    const { next } = await startNext('badge_professional');
    const photos = await Promise.all(Array.from({ length: 8 }, () => uploadPhoto(app, amy)));
    const answers = await Promise.all(
      photos.map((photo) => app.request('/api/v1/demonstration_order', json(amy, 'POST', application(photo)))),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const live = await database.db
      .select()
      .from(orders)
      .where(and(eq(orders.badgeEditionId, next.id), eq(orders.badgeEmailKey, 'amy@example.com')));
    expect(live).toHaveLength(1);
    // Past application code: a second live badge order of the same edition is refused by the index itself.
    await expect(
      database.db.insert(orders).values({
        orderNo: `TX${randomUUID().slice(0, 10)}`,
        userId: live[0]!.userId,
        eventId: live[0]!.eventId,
        registrationType: 'BADGE_PROFESSIONAL',
        paymentStatus: 'pending',
        badgeEmailKey: 'amy@example.com',
        badgeEditionId: next.id,
      }),
    ).rejects.toThrow();
  });

  it('a free-badge link of the new edition gives that edition’s badge to a holder of last edition’s', async () => {
    const first = await current();
    await freeBadge();
    const { next } = await startNext('badge_free');
    const fresh = await freeBadge();
    expect(fresh.edition_slug).toBe(next.slug);
    expect(fresh.edition_slug).not.toBe(first.slug);
    // And only one there.
    const link = await createBadgeLink(database.db, { identity: 'VIP', expiresAt: new Date(Date.now() + 14 * DAY) });
    const twice = await app.request(
      `/api/v1/demonstration?code=${encodeURIComponent(link.code)}`,
      json(amy, 'PUT', application(await uploadPhoto(app, amy))),
    );
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ code: 'demonstration_exists' });
  });

  it('the desk refuses a past edition’s badge, saying so; the current edition’s is handed out', async () => {
    const old = await freeBadge();
    const [oldBadge] = await database.db.select().from(badges).where(eq(badges.orderId, old.order_id));
    await startNext('badge_free');
    const fresh = await freeBadge();
    const [newBadge] = await database.db.select().from(badges).where(eq(badges.orderId, fresh.order_id));

    const verify = async (code: string) => {
      const res = await call('POST', '/admin/desk/verify', { code });
      expect(res.status).toBe(200);
      return (await res.json()).data;
    };
    expect(await verify(oldBadge!.pickupCode)).toMatchObject({ id: oldBadge!.id, refusal: 'past_edition' });
    expect(await verify(newBadge!.pickupCode)).toMatchObject({ id: newBadge!.id, refusal: null });
    const cached = (await (await call('GET', '/admin/desk/badges')).json()).data as { id: string; refusal: string }[];
    expect(cached.find((b) => b.id === oldBadge!.id)?.refusal).toBe('past_edition');

    const at = new Date().toISOString();
    const res = await call('POST', '/admin/desk/pickups', {
      desk: 'Hall A',
      pickups: [
        { id: randomUUID(), badge_id: oldBadge!.id, at },
        { id: randomUUID(), badge_id: newBadge!.id, at },
      ],
    });
    expect(res.status).toBe(200);
    const results = (await res.json()).data;
    expect(results[0]).toMatchObject({ outcome: 'refused', refusal: 'past_edition', picked_up_at: null });
    expect(results[1]).toMatchObject({ outcome: 'picked_up', refusal: null });
    const [still] = await database.db.select().from(badges).where(eq(badges.id, oldBadge!.id));
    expect(still!.pickedUpAt).toBeNull();
  });

  it('a meeting needs a badge of the meeting’s edition; an event that needs a badge, one of the event’s', async () => {
    const first = await current();
    await freeBadge();
    const amyId = await userId('amy@example.com');
    const { next, copies } = await startNext('event_general', 'badge_free');
    const slot = async (editionId: string, day: string) =>
      (
        await database.db
          .insert(meetingSlots)
          .values({
            editionId,
            startsAt: new Date(`${day}T02:00:00Z`),
            endsAt: new Date(`${day}T02:30:00Z`),
            day,
          })
          .returning({ id: meetingSlots.id })
      )[0]!.id;
    expect(await holdsIssuedBadge(database.db, amyId, await slot(first.id, '2030-10-28'))).toBe(true);
    const newSlot = await slot(next.id, '2031-10-28');
    expect(await holdsIssuedBadge(database.db, amyId, newSlot)).toBe(false);
    // Through the API: 403 demonstration_invalid before anything else about the request.
    const booked = await call('POST', '/meetings', { exhibitor_id: randomUUID(), slot_id: newSlot }, amy);
    expect(booked.status).toBe(403);
    expect(await booked.json()).toMatchObject({ code: 'demonstration_invalid' });

    // An event that needs a badge: last edition's event takes last edition's badge, the new one's not.
    const now = new Date();
    const oldCtx = await registrationContext(database.db, { slug: 'opening-forum', userId: amyId, now });
    expect(oldCtx!.checks.badged).toBe(true);
    const forum = copies.find((e) => e.type === 'event_general')!;
    const newCtx = await registrationContext(database.db, { slug: forum.slug, userId: amyId, now });
    expect(newCtx!.checks.badged).toBe(false);
    const registered = await app.request(
      `/api/v1/orders?event=${forum.slug}`,
      json(amy, 'POST', { agree_terms: true }),
    );
    expect(registered.status).toBe(400);
    expect(await registered.json()).toMatchObject({ code: 'demonstration_invalid' });
    // With this edition's badge, the registration goes through.
    await freeBadge();
    const ok = await app.request(`/api/v1/orders?event=${forum.slug}`, json(amy, 'POST', { agree_terms: true }));
    expect(ok.status).toBe(201);
  });
});
