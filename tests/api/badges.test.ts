import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { badgeLinks, badges, events, orders, users } from '@server/db/schema';
import { createBadgeLink } from '@server/badges/badges';
import { markPaid, expireOverdueOrders } from '@server/payments/payments';
import { verifyPickupCode } from '@server/badges/pickup';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';
import { seed } from '@server/db/seed';
import { application, applyBadge, counts, getJson, json, AGENCY, tokenMinter, uploadPhoto } from './fixtures';

const DAY = 24 * 60 * 60 * 1000;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.each(DATABASES)('badges API (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  const minter = tokenMinter();
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile });
    ({ token } = await signIn(app, 'amy@example.com', 'Amy'));
  });

  const apply = (t: string, body: unknown) => app.request('/api/v1/demonstration_order', json(t, 'POST', body));
  const userRow = async (email: string) => (await database.db.select().from(users).where(eq(users.email, email)))[0]!;

  describe('Professional badge application', () => {
    it('creates an unpaid order (201) with its number, and shows it as the badge order', async () => {
      const photo = await uploadPhoto(app, token);
      const res = await apply(token, application(photo));
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toMatchObject({
        order_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        order_no: expect.stringMatching(/^TC\d{6}[0-9A-Z]{6}$/),
        event_slug: 'badge-professional',
        payment_status: 'pending',
      });
      expect(body.id).toBe(body.order_id);

      const [row] = await database.db.select().from(orders).where(eq(orders.id, body.order_id));
      expect(row).toMatchObject({
        registrationType: 'BADGE_PROFESSIONAL',
        currency: 'TWD',
        amountCents: 100_000,
        badgeEmailKey: 'amy@example.com',
      });
      // Default deadline: three days, never after the registration end.
      expect(Math.abs(row!.paymentExpiresAt!.getTime() - (Date.now() + 3 * DAY))).toBeLessThan(60_000);

      const order = await getJson(app, '/api/v1/demonstration_order', token);
      expect(order.status).toBe(200);
      expect(order.body.data).toMatchObject({
        order_id: body.order_id,
        order_no: body.order_no,
        event_slug: 'badge-professional',
        payment_status: 'pending',
        registration_type: 'BADGE_PROFESSIONAL',
        payment: { amount_twd: 100_000, amount_usd: 3_500, type: null, status: 'pending' },
      });
      // No badge while unpaid.
      const badge = await getJson(app, '/api/v1/demonstration', token);
      expect(badge.status).toBe(404);
      expect(badge.body).toMatchObject({ code: 'not_found' });
      expect(await counts(database.db)).toMatchObject({
        orders: 1,
        payments: 0,
        orderEvents: 1,
        registrations: 1,
        badges: 0,
      });
    });

    it('keeps the identity e-mail, not the one sent, in the registration form', async () => {
      const { order_id } = await applyBadge(app, token);
      const order = (await getJson(app, `/api/v1/orders/${order_id}`, token)).body.data;
      expect(order.registration_id).toBeTruthy();
      const [row] = await database.db.select().from(orders).where(eq(orders.id, order_id));
      expect(row!.badgeEmailKey).toBe('amy@example.com');
    });

    it('the registration window caps the payment deadline', async () => {
      await database.db
        .update(events)
        .set({ registerEndAt: new Date(Date.now() + DAY) })
        .where(eq(events.slug, 'badge-professional'));
      const { order_id } = await applyBadge(app, token);
      const [row] = await database.db.select().from(orders).where(eq(orders.id, order_id));
      expect(Math.abs(row!.paymentExpiresAt!.getTime() - (Date.now() + DAY))).toBeLessThan(60_000);
    });

    const long = (n: number, ch = 'a') => ch.repeat(n);
    it.each([
      ['applicant.name_zh', { applicant: { name_zh: long(21, '王') } }],
      ['applicant.name_en', { applicant: { name_en: undefined } }],
      ['applicant.name_en', { applicant: { name_en: '   ' } }],
      ['applicant.name_en', { applicant: { name_en: long(256) } }],
      ['applicant.company_name_zh', { applicant: { company_name_zh: long(31, '公') } }],
      ['applicant.company_name_en', { applicant: { company_name_en: long(256) } }],
      ['applicant.contact_phone', { applicant: { contact_phone: undefined } }],
      ['applicant.contact_phone', { applicant: { contact_phone: 'call me maybe' } }],
      ['applicant.contact_phone', { applicant: { contact_phone: '12-34' } }],
      ['badge.name_zh', { badge: { name_zh: long(6, '王') } }],
      ['badge.name_en', { badge: { name_en: undefined } }],
      ['badge.name_en', { badge: { name_en: long(18) } }],
      ['badge.company_name_zh', { badge: { company_name_zh: long(10, '公') } }],
      ['badge.company_name_en', { badge: { company_name_en: long(21) } }],
    ])('refuses %s out of the §5 limits with 400 validation_failed and writes nothing (%#)', async (path, over) => {
      const photo = await uploadPhoto(app, token);
      const res = await apply(token, application(photo, over));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({
        code: 'validation_failed',
        issues: expect.arrayContaining([expect.objectContaining({ path })]),
      });
      expect(body.error).toBe(body.message);
      expect(body.message).toContain(path);
      expect(await counts(database.db)).toMatchObject({ orders: 0, payments: 0, registrations: 0, badges: 0 });
    });

    it('accepts every field at exactly its limit', async () => {
      const photo = await uploadPhoto(app, token);
      const res = await apply(
        token,
        application(photo, {
          applicant: {
            name_zh: long(20, '王'),
            name_en: long(255),
            company_name_zh: long(30, '公'),
            company_name_en: long(255),
            contact_phone: '+886 2 2345 6789',
          },
          badge: {
            name_zh: long(5, '王'),
            name_en: long(17),
            company_name_zh: long(9, '公'),
            company_name_en: long(20),
          },
        }),
      );
      expect(res.status).toBe(201);
    });

    it('refuses a missing, unknown or foreign photo with 400 invalid_photo', async () => {
      const noPhoto = application('x');
      delete (noPhoto as Partial<typeof noPhoto>).personal_photo_file_id;
      const missing = await apply(token, noPhoto);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({
        code: 'validation_failed',
        issues: [expect.objectContaining({ path: 'personal_photo_file_id' })],
      });

      const unknown = await apply(token, application('00000000-0000-4000-8000-000000000000'));
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ code: 'invalid_photo', message: 'No personal photo selected' });

      const { token: bob } = await signIn(app, 'bob@example.com');
      const bobsPhoto = await uploadPhoto(app, bob);
      const foreign = await apply(token, application(bobsPhoto));
      expect(foreign.status).toBe(400);
      expect(await foreign.json()).toMatchObject({ code: 'invalid_photo' });
      expect(await counts(database.db)).toMatchObject({ orders: 0, registrations: 0 });
    });

    it('refuses bodies that are not JSON', async () => {
      const res = await app.request('/api/v1/demonstration_order', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_json' });
      const form = await app.request('/api/v1/demonstration_order', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: 'a=b',
      });
      expect(await form.json()).toMatchObject({ code: 'unsupported_media_type' });
    });

    it('requires sign-in', async () => {
      const res = await app.request('/api/v1/demonstration_order', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(401);
      expect((await app.request('/api/v1/demonstration')).status).toBe(401);
      expect((await app.request('/api/v1/demonstration_order')).status).toBe(401);
    });

    it('answers GET /demonstration_order with 404 before any application', async () => {
      const res = await getJson(app, '/api/v1/demonstration_order', token);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    });

    it('one e-mail, one badge: a second application gets 409 demonstration_exists', async () => {
      await applyBadge(app, token);
      const photo = await uploadPhoto(app, token);
      const res = await apply(token, application(photo));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        code: 'demonstration_exists',
        message: 'One e-mail can apply for only one badge',
      });
      expect(await counts(database.db)).toMatchObject({ orders: 1 });
    });

    it('20 concurrent applications by one user create exactly one order; 19 get 409', async () => {
      const photo = await uploadPhoto(app, token);
      const results = await Promise.all(Array.from({ length: 20 }, () => apply(token, application(photo))));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      for (const r of results.filter((x) => x.status === 409)) {
        expect(await r.json()).toMatchObject({ code: 'demonstration_exists' });
      }
      expect(await counts(database.db)).toMatchObject({ orders: 1, payments: 0, orderEvents: 1, registrations: 1 });
    });

    it('a second identity with the same e-mail (another subject) is refused, also in different case', async () => {
      await applyBadge(app, token);
      const twin = await minter.token('other-subject', 'AMY@example.com');
      const photo = await uploadPhoto(app, twin);
      const res = await apply(twin, application(photo));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'demonstration_exists' });
      expect(await database.db.select().from(users)).toHaveLength(2);
      expect(await counts(database.db)).toMatchObject({ orders: 1 });
    });

    it('concurrent applications by two identities with one e-mail create one order', async () => {
      const twin = await minter.token('other-subject', 'amy@example.com');
      const [p1, p2] = await Promise.all([uploadPhoto(app, token), uploadPhoto(app, twin)]);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? apply(token, application(p1)) : apply(twin, application(p2)))),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
      expect(await counts(database.db)).toMatchObject({ orders: 1 });
    });

    it('refuses when the badge event is closed, with nothing written', async () => {
      await database.db
        .update(events)
        .set({ registerEndAt: new Date(Date.now() - 1000), registerStartAt: new Date(Date.now() - 10 * DAY) })
        .where(eq(events.slug, 'badge-professional'));
      const photo = await uploadPhoto(app, token);
      const res = await apply(token, application(photo));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'registration_closed' });
      expect(await counts(database.db)).toMatchObject({ orders: 0 });
    });

    it('an overdue order frees the e-mail: the same user can apply again', async () => {
      const first = await applyBadge(app, token);
      await database.db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, first.order_id));
      // The orders list expires lapsed orders before answering (at most every 10 s per
      // instance: a fresh instance runs it on its first request).
      app = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile });
      const list = await getJson(app, '/api/v1/orders', token);
      expect(list.body.data[0]).toMatchObject({
        order_id: first.order_id,
        payment_status: 'overdue',
        payment: { status: 'overdue' },
      });
      const second = await applyBadge(app, token);
      expect(second.order_id).not.toBe(first.order_id);
      const current = await getJson(app, '/api/v1/demonstration_order', token);
      expect(current.body.data.order_id).toBe(second.order_id);
    });

    it('an order past its deadline does not block a new application even before any expiry run', async () => {
      const first = await applyBadge(app, token);
      await database.db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, first.order_id));
      const second = await applyBadge(app, token);
      expect(second.order_id).not.toBe(first.order_id);
      const [old] = await database.db.select().from(orders).where(eq(orders.id, first.order_id));
      expect(old!.paymentStatus).toBe('overdue');
    });

    it('expireOverdueOrders leaves orders within their deadline and paid ones alone', async () => {
      const { order_id } = await applyBadge(app, token);
      expect(await expireOverdueOrders(database.db, new Date())).toBe(0);
      expect(await expireOverdueOrders(database.db, new Date(Date.now() + 4 * DAY))).toBe(1);
      const [row] = await database.db.select().from(orders).where(eq(orders.id, order_id));
      expect(row!.paymentStatus).toBe('overdue');
    });
  });

  describe('the badge', () => {
    it('after mark-paid: the badge with identity, names, photo link and a QR PNG of a valid pick-up code', async () => {
      const { order_id, order_no } = await applyBadge(app, token);
      expect(
        await markPaid(database.db, order_no, { now: new Date(), pickupSecret: app.config.PICKUP_CODE_SECRET }),
      ).toBe('paid');
      expect(
        await markPaid(database.db, order_no, { now: new Date(), pickupSecret: app.config.PICKUP_CODE_SECRET }),
      ).toBe('already_paid');
      const res = await getJson(app, '/api/v1/demonstration', token);
      expect(res.status).toBe(200);
      const badge = res.body.data;
      expect(badge).toMatchObject({
        identity: 'PROFESSIONAL',
        name_zh: '王小明',
        name_en: 'Ming Wang',
        company_name_zh: '好影像',
        company_name_en: 'Good Pictures',
        order_id,
        payment_status: 'paid',
        personal_photo_file: { name: 'me.png', url: expect.stringMatching(/^\/api\/v1\/files\/[0-9a-f-]{36}$/) },
      });
      expect([...Buffer.from(badge.qr_code_image, 'base64').subarray(0, 8)]).toEqual(PNG_MAGIC);
      const [row] = await database.db.select().from(badges);
      expect(verifyPickupCode(row!.pickupCode, app.config.PICKUP_CODE_SECRET)).toBe(row!.id);
      // The photo link works for the owner.
      expect((await app.request(badge.personal_photo_file.url, bearer(token))).status).toBe(200);
      // Another user has no badge.
      const { token: bob } = await signIn(app, 'bob@example.com');
      expect((await app.request('/api/v1/demonstration', bearer(bob))).status).toBe(404);
      // And cannot apply with the same e-mail later either.
      const photo = await uploadPhoto(app, token);
      expect((await apply(token, application(photo))).status).toBe(409);
    });
  });

  describe('free badge through a one-time link', () => {
    const link = (over: { email?: string; expiresAt?: Date; identity?: 'VIP' | 'EXHIBITOR_MARKET' } = {}) =>
      createBadgeLink(database.db, {
        identity: over.identity ?? 'VIP',
        email: over.email,
        expiresAt: over.expiresAt ?? new Date(Date.now() + 14 * DAY),
      });
    const claim = (t: string, code: string, body: unknown) =>
      app.request(`/api/v1/demonstration?code=${encodeURIComponent(code)}`, json(t, 'PUT', body));

    it('issues the badge with its QR code at once, and uses the link', async () => {
      const { code } = await link();
      const photo = await uploadPhoto(app, token);
      const res = await claim(token, code, application(photo));
      expect(res.status).toBe(200);
      const badge = (await res.json()).data;
      expect(badge).toMatchObject({
        identity: 'VIP',
        payment_status: 'free',
        name_en: 'Ming Wang',
        event_slug: 'badge-free',
      });
      expect([...Buffer.from(badge.qr_code_image, 'base64').subarray(0, 8)]).toEqual(PNG_MAGIC);
      const [used] = await database.db.select().from(badgeLinks);
      expect(used!.usedAt).toBeInstanceOf(Date);
      expect(used!.usedBy).toBe((await userRow('amy@example.com')).id);
      expect((await getJson(app, '/api/v1/demonstration', token)).body.data.identity).toBe('VIP');
      const order = (await getJson(app, '/api/v1/demonstration_order', token)).body.data;
      expect(order).toMatchObject({ registration_type: 'BADGE_FREE', payment_status: 'free', amount_cents: 0 });
    });

    it('the same link again (another user) is 409 link_used, with nothing written', async () => {
      const { code } = await link();
      await claim(token, code, application(await uploadPhoto(app, token)));
      const { token: bob } = await signIn(app, 'bob@example.com');
      const photo = await uploadPhoto(app, bob);
      const before = await counts(database.db);
      const res = await claim(bob, code, application(photo));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'link_used' });
      expect(await counts(database.db)).toEqual(before);
      expect((await app.request('/api/v1/demonstration', bearer(bob))).status).toBe(404);
    });

    it('two users racing for one link: one badge, one 409', async () => {
      const { code } = await link();
      const { token: bob } = await signIn(app, 'bob@example.com');
      const [pa, pb] = await Promise.all([uploadPhoto(app, token), uploadPhoto(app, bob)]);
      const results = await Promise.all([claim(token, code, application(pa)), claim(bob, code, application(pb))]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await counts(database.db)).toMatchObject({ badges: 1, orders: 1 });
    });

    it('an unknown code is 404 link_expired; so is an expired link, which stays unused', async () => {
      const photo = await uploadPhoto(app, token);
      const unknown = await claim(token, 'no-such-code', application(photo));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'link_expired' });

      const { code } = await link({ expiresAt: new Date(Date.now() - 1000) });
      const expired = await claim(token, code, application(photo));
      expect(expired.status).toBe(404);
      expect(await expired.json()).toMatchObject({ code: 'link_expired' });
      const [row] = await database.db.select().from(badgeLinks);
      expect(row!.usedAt).toBeNull();
      expect(await counts(database.db)).toMatchObject({ orders: 0, badges: 0 });

      const noCode = await app.request('/api/v1/demonstration', json(token, 'PUT', application(photo)));
      expect(noCode.status).toBe(400);
    });

    it('a user who already has a badge order gets 409 demonstration_exists and the link stays unused', async () => {
      await applyBadge(app, token);
      const { code } = await link();
      const res = await claim(token, code, application(await uploadPhoto(app, token)));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'demonstration_exists' });
      const [row] = await database.db.select().from(badgeLinks);
      expect(row!.usedAt).toBeNull();
      expect(await counts(database.db)).toMatchObject({ orders: 1, badges: 0 });
    });

    it('a user with a free badge already gets 409 demonstration_exists for a second link', async () => {
      const first = await link();
      const second = await link();
      const photo = await uploadPhoto(app, token);
      expect((await claim(token, first.code, application(photo))).status).toBe(200);
      const res = await claim(token, second.code, application(photo));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'demonstration_exists' });
      const rows = await database.db.select().from(badgeLinks).where(eq(badgeLinks.code, second.code));
      expect(rows[0]!.usedAt).toBeNull();
    });

    it('a link issued to an e-mail is refused to anyone else (403) and stays unused', async () => {
      const { code } = await link({ email: 'bob@example.com' });
      const res = await claim(token, code, application(await uploadPhoto(app, token)));
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'link_not_for_user' });
      const { token: bob } = await signIn(app, 'Bob@Example.com');
      expect((await claim(bob, code, application(await uploadPhoto(app, bob)))).status).toBe(200);
    });

    it('validates the application like the paid one', async () => {
      const { code } = await link();
      const photo = await uploadPhoto(app, token);
      const res = await claim(token, code, application(photo, { badge: { name_en: 'x'.repeat(18) } }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'validation_failed',
        issues: [expect.objectContaining({ path: 'badge.name_en' })],
      });
      const [row] = await database.db.select().from(badgeLinks);
      expect(row!.usedAt).toBeNull();
    });
  });
});
