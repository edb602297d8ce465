import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, orders, paymentNotifications } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { expireOverdueOrders } from '@server/payments/payments';
import { applyBadge, json, keysOf, postForm, signedCallback, upload, PNG } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/** Cases found in review: each once a 500, a hole or a wrong outcome. */
describe.each(DATABASES)('hardening (%s)', (kind) => {
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

  it('answers ids that only look like UUIDs with 404, never 500', async () => {
    const { token } = await signIn(app, 'ids@example.com');
    for (const id of ['-'.repeat(36), 'a'.repeat(36)]) {
      for (const path of [
        `/api/v1/orders/${id}`,
        `/api/v1/registrations/${id}`,
        `/api/v1/files/${id}`,
        `/api/v1/payment/${id}/tradeinfo`,
      ]) {
        expect((await app.request(path, bearer(token))).status, path).toBe(404);
      }
      expect(
        (await app.request(`/api/v1/orders/${id}`, json(token, 'PUT', { payment: { type: 'credit_card' } }))).status,
      ).toBe(404);
    }
  });

  it('refuses inherited property names as upload purposes and deeply nested JSON with 400', async () => {
    const { token } = await signIn(app, 'hostile@example.com');
    for (const purpose of ['constructor', 'toString', '__proto__']) {
      const res = await upload(app, token, { name: 'a.png', type: 'image/png', bytes: PNG }, purpose);
      expect(res.status, purpose).toBe(400);
    }
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await app.request('/api/v1/demonstration_order', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: deep,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('invalid_json');
  });

  it('refuses an operator token of the same length in other characters with 401, not 500', async () => {
    const operator = await createTestApp(database, { OPERATOR_TOKEN: 'x'.repeat(32) });
    const res = await operator.request('/api/v1/operator/orders', {
      headers: { authorization: `Bearer ${'é'.repeat(32)}` },
    });
    expect(res.status).toBe(401);
  });

  it('refuses an operator list limit that is not a whole number from 1 to 1000 with 400', async () => {
    const operator = await createTestApp(database, {}, { operatorToken: 'o'.repeat(32) });
    const list = (limit: string) =>
      operator.request(`/api/v1/operator/orders?limit=${limit}`, {
        headers: { authorization: `Bearer ${'o'.repeat(32)}` },
      });
    for (const limit of ['1.5', '0', '1001', 'abc', '-1', '1e2', ''])
      expect((await list(encodeURIComponent(limit))).status, limit).toBe(400);
    for (const limit of ['1', '1000']) expect((await list(limit)).status, limit).toBe(200);
  });

  it('keeps only the protocol fields of a gateway post in the log', async () => {
    const junk = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`junk${i}`, 'x'.repeat(1000)]));
    const res = await postForm(app, '/api/v1/payment/newebpay/notify', { ...junk, Status: 'SUCCESS\u0000' });
    expect(res.status).toBe(400);
    const [logged] = await database.db.select().from(paymentNotifications);
    expect(Object.keys(logged!.payload as object)).toEqual(['Status']);
  });

  it('a second, different successful charge is received and logged as duplicate_charge for a refund', async () => {
    const { token } = await signIn(app, 'twice@example.com');
    const order = await applyBadge(app, token);
    const first = signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000, TradeNo: 'T1' });
    const second = signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_2`, Amt: 1000, TradeNo: 'T2' });
    expect(await (await postForm(app, '/api/v1/payment/newebpay/notify', first)).json()).toEqual({
      data: { result: 'paid' },
    });
    expect(await (await postForm(app, '/api/v1/payment/newebpay/notify', first)).json()).toEqual({
      data: { result: 'already_paid' },
    });
    const dup = await postForm(app, '/api/v1/payment/newebpay/notify', second);
    expect(dup.status).toBe(200);
    expect(await dup.json()).toEqual({ data: { result: 'duplicate_charge' } });
  });

  it('a transfer still being checked does not count as the exhibit badge events require', async () => {
    const { token } = await signIn(app, 'checking@example.com');
    await applyBadge(app, token);
    const declared = await app.request(
      '/api/v1/demonstration_order',
      json(token, 'PUT', { payment: { type: 'TWD', last_five_digits: '00000' } }),
    );
    expect(declared.status).toBe(200);
    const res = await app.request('/api/v1/orders?event=opening-forum', json(token, 'POST', { agree_terms: true }));
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('demonstration_invalid');
  });

  it('a late payment of an overdue order takes its seat back when one is left, and is refused when not', async () => {
    // A charged event with one seat.
    await database.db
      .update(events)
      .set({ priceCentsTwd: 50_000, capacity: 1 })
      .where(eq(events.slug, 'opening-forum'));
    const holder = async (email: string) => {
      const { token } = await signIn(app, email);
      const badge = await applyBadge(app, token);
      await postForm(
        app,
        '/api/v1/payment/newebpay/notify',
        signedCallback(keysOf(app), { MerchantOrderNo: `${badge.order_no}_1`, Amt: 1000, TradeNo: `B-${email}` }),
      );
      return token;
    };
    const register = async (token: string) =>
      (await app.request('/api/v1/orders?event=opening-forum', json(token, 'POST', { agree_terms: true }))).json();
    const amy = await holder('amy-late@example.com');
    const bob = await holder('bob-late@example.com');
    const a = await register(amy);
    expect(a.payment_status).toBe('pending');
    const lapse = async (orderId: string) => {
      await database.db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, orderId));
      await expireOverdueOrders(database.db, new Date());
    };
    await lapse(a.order_id);
    // Nobody took the seat: Amy's late charge pays her order and takes the seat again.
    const paid = await postForm(
      app,
      '/api/v1/payment/newebpay/notify',
      signedCallback(keysOf(app), { MerchantOrderNo: `${a.order_no}_1`, Amt: 500, TradeNo: 'L1' }),
    );
    expect(await paid.json()).toEqual({ data: { result: 'paid' } });
    const [afterPaid] = await database.db.select().from(events).where(eq(events.slug, 'opening-forum'));
    expect(afterPaid!.seatsTaken).toBe(1);
    expect((await register(bob)).code).toBe('event_capacity_full');

    // Now the other way round: Bob's lapsed order lost its seat to Carol.
    await database.db.update(events).set({ capacity: 2 }).where(eq(events.slug, 'opening-forum'));
    const b = await register(bob);
    await lapse(b.order_id);
    const carol = await holder('carol-late@example.com');
    expect((await register(carol)).payment_status).toBe('pending');
    const late = await postForm(
      app,
      '/api/v1/payment/newebpay/notify',
      signedCallback(keysOf(app), { MerchantOrderNo: `${b.order_no}_1`, Amt: 500, TradeNo: 'L2' }),
    );
    expect(await late.json()).toEqual({ data: { result: 'order_superseded' } });
    const [bobOrder] = await database.db.select().from(orders).where(eq(orders.id, b.order_id));
    expect(bobOrder!.paymentStatus).toBe('overdue');
    const [final] = await database.db.select().from(events).where(eq(events.slug, 'opening-forum'));
    expect(final!.seatsTaken).toBe(2);
  });

  it('a free-badge link opened under another type is not valid; a retried claim by the same user succeeds', async () => {
    const { createBadgeLink } = await import('@server/badges/badges');
    const link = await createBadgeLink(database.db, {
      identity: 'PROFESSIONAL',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const { token } = await signIn(app, 'typed@example.com');
    const photo = await (await import('./fixtures')).uploadPhoto(app, token);
    const body = {
      applicant: { name_en: 'Typed', contact_phone: '886-912-345-678' },
      badge: { name_en: 'Typed' },
      personal_photo_file_id: photo,
    };
    const wrong = await app.request(`/api/v1/demonstration?code=${link.code}&type=vip`, json(token, 'PUT', body));
    expect(wrong.status).toBe(404);
    const ok = await app.request(`/api/v1/demonstration?code=${link.code}&type=professional`, json(token, 'PUT', body));
    expect(ok.status).toBe(200);
    const again = await app.request(
      `/api/v1/demonstration?code=${link.code}&type=professional`,
      json(token, 'PUT', body),
    );
    expect(again.status).toBe(200);
    expect((await again.json()).data.identity).toBe('PROFESSIONAL');
  });
});
