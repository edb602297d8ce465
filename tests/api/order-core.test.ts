import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { events, orderEvents, orderPayments, orders, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { decryptTradeInfo } from '@server/payments/newebpay';
import { expireOverdueOrders } from '@server/orders/order-state';
import {
  applyBadge,
  getJson,
  giveBadges,
  json,
  keysOf,
  postForm,
  signedCallback,
  AGENCY,
  tokenMinter,
} from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * The order core (issue: one writer of order state, prices fixed at order time, approval before
 * payment, payment records that reconcile, order_events for every transition).
 */
const DAY = 24 * 60 * 60 * 1000;
const OPERATOR_TOKEN = 'operator-token-for-the-order-core-tests';

describe.each(DATABASES)('order core (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  const minter = tokenMinter();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile, operatorToken: OPERATOR_TOKEN });
  });

  const operator = (path: string, body?: unknown) =>
    app.request(`/api/v1/operator${path}`, {
      method: body === undefined && path.startsWith('/refunds') ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${OPERATOR_TOKEN}`,
        'x-operator': 'olivia',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const notify = (fields: Record<string, string>) => postForm(app, '/api/v1/payment/newebpay/notify', fields);
  const tradeInfo = async (token: string, orderId: string) => {
    const res = await app.request(`/api/v1/payment/${orderId}/tradeinfo`, bearer(token));
    const body = await res.json();
    return {
      status: res.status,
      body,
      params: res.ok ? new URLSearchParams(decryptTradeInfo(body.data.trade_info_hex, keysOf(app))) : null,
    };
  };
  const trail = async (orderId: string) =>
    db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
  const recordsOf = async (orderId: string) =>
    db.select().from(orderPayments).where(eq(orderPayments.orderId, orderId)).orderBy(asc(orderPayments.createdAt));
  const orderRow = async (orderId: string) => (await db.select().from(orders).where(eq(orders.id, orderId)))[0]!;

  async function badgeHolder(email: string) {
    const { token } = await signIn(app, email);
    const [user] = await db.select().from(users).where(eq(users.email, email));
    await giveBadges(db, [user!]);
    return token;
  }
  /** An audit event (approval before payment) that is open now. */
  async function auditEvent(slug: string, over: { capacity?: number; priceCentsTwd?: number } = {}) {
    const now = Date.now();
    await db.insert(events).values({
      slug,
      type: 'event_audit',
      nameEn: `Audit ${slug}`,
      nameZh: `旁聽 ${slug}`,
      registerStartAt: new Date(now - DAY),
      registerEndAt: new Date(now + 10 * DAY),
      startTime: new Date(now + 20 * DAY),
      endAt: new Date(now + 20 * DAY + 3600_000),
      requiresApproval: true,
      ...over,
    });
  }
  const register = (token: string, slug: string) =>
    app.request(`/api/v1/orders?event=${slug}`, json(token, 'POST', { agree_terms: true }));
  const seats = async (slug: string) => (await db.select().from(events).where(eq(events.slug, slug)))[0]!.seatsTaken;

  describe('prices are fixed when the order is placed', () => {
    it('raising the event price later changes nothing: trade info, transfer, view and notify keep TWD 1,000', async () => {
      const { token } = await signIn(app, 'amy@example.com');
      const order = await applyBadge(app, token);
      await db
        .update(events)
        .set({ priceCentsTwd: 150_000, priceCentsUsd: 5_000 })
        .where(eq(events.slug, 'badge-professional'));

      const view = (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data;
      expect(view).toMatchObject({ amount_cents: 100_000, currency: 'TWD' });
      expect(view.payment).toMatchObject({ amount_twd: 100_000, amount_usd: 3_500, unit_price_twd: 100_000 });

      const card = await tradeInfo(token, order.order_id);
      expect(card.status).toBe(200);
      expect(card.params!.get('Amt')).toBe('1000');
      expect(card.body.data.amount_twd).toBe(100_000);

      // A notify for the new price is a mismatch; for the order's price it pays.
      const merchantOrderNo = card.params!.get('MerchantOrderNo')!;
      const wrong = await notify(signedCallback(keysOf(app), { MerchantOrderNo: merchantOrderNo, Amt: 1500 }));
      expect(wrong.status).toBe(400);
      expect((await orderRow(order.order_id)).paymentStatus).toBe('pending');
      const right = await notify(signedCallback(keysOf(app), { MerchantOrderNo: merchantOrderNo, Amt: 1000 }));
      expect(await right.json()).toEqual({ data: { result: 'paid' } });
      expect(await recordsOf(order.order_id)).toMatchObject([
        { merchantOrderNo, amountCents: 100_000, currency: 'TWD', status: 'paid' },
      ]);
    });

    it('a transfer declared after a price change is for the order’s price, in TWD and in USD', async () => {
      const { token } = await signIn(app, 'ben@example.com');
      const order = await applyBadge(app, token);
      await db.update(events).set({ priceCentsUsd: 9_900 }).where(eq(events.slug, 'badge-professional'));
      const usd = await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(token, 'PUT', {
          payment: { type: 'USD', last_five_digits: '12345', remitter: 'Ben', sender_bank: 'HSBC' },
        }),
      );
      expect(usd.status).toBe(200);
      expect(await usd.json()).toMatchObject({ currency: 'USD', amount_cents: 3_500, payment: { amount_usd: 3_500 } });
    });
  });

  describe('approval before payment', () => {
    it('refuses trade info and transfers until approved (409 not_approved); the deadline starts at approval', async () => {
      await auditEvent('paid-audit', { priceCentsTwd: 50_000, capacity: 5 });
      const amy = await badgeHolder('amy@example.com');
      const created = await register(amy, 'paid-audit');
      expect(created.status).toBe(201);
      const order = await created.json();
      expect(order).toMatchObject({ payment_status: 'pending', approval_status: 'pending_approval' });
      expect((await orderRow(order.order_id)).paymentExpiresAt).toBeNull();

      const early = await tradeInfo(amy, order.order_id);
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 'not_approved' });
      const transfer = await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(amy, 'PUT', { payment: { type: 'TWD', last_five_digits: '12345' } }),
      );
      expect(transfer.status).toBe(409);
      expect(await transfer.json()).toMatchObject({ code: 'not_approved' });
      // An unapproved order does not lapse (it has no deadline yet).
      expect(await expireOverdueOrders(db, new Date(Date.now() + 30 * DAY))).toBe(0);
      expect(await recordsOf(order.order_id)).toEqual([]);

      const before = Date.now();
      const approved = await operator(`/orders/${order.order_no}/approve`, {});
      expect(await approved.json()).toMatchObject({ data: { result: 'approved' } });
      const row = await orderRow(order.order_id);
      expect(row.approvalStatus).toBe('approved');
      expect(row.paymentExpiresAt!.getTime()).toBeGreaterThanOrEqual(before + 3 * DAY - 1000);
      expect(row.paymentExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 3 * DAY);

      const now = await tradeInfo(amy, order.order_id);
      expect(now.status).toBe(200);
      expect(now.params!.get('Amt')).toBe('500');
      // Approving again answers already_approved.
      expect(await (await operator(`/orders/${order.order_no}/approve`, {})).json()).toMatchObject({
        data: { result: 'already_approved' },
      });
    });

    it('reject (with a reason) frees the seat, shows Rejected with the reason, and lets the next registrant in', async () => {
      await auditEvent('one-seat', { capacity: 1 });
      const amy = await badgeHolder('amy@example.com');
      const bob = await badgeHolder('bob@example.com');
      const order = await (await register(amy, 'one-seat')).json();
      expect(order).toMatchObject({ payment_status: 'free', approval_status: 'pending_approval' });
      expect(await seats('one-seat')).toBe(1);
      const full = await register(bob, 'one-seat');
      expect(full.status).toBe(400);
      expect(await full.json()).toMatchObject({ code: 'event_capacity_full' });

      const noReason = await operator(`/orders/${order.order_no}/reject`, {});
      expect(noReason.status).toBe(400);
      const rejected = await operator(`/orders/${order.order_no}/reject`, { reason: 'Audit places are for buyers.' });
      expect(await rejected.json()).toMatchObject({ data: { result: 'rejected' } });
      expect(await seats('one-seat')).toBe(0);

      const view = (await getJson(app, `/api/v1/orders/${order.order_id}`, amy)).body.data;
      expect(view).toMatchObject({
        payment_status: 'canceled',
        approval_status: 'rejected',
        rejected_reason: 'Audit places are for buyers.',
      });
      const list = (await getJson(app, '/api/v1/orders', amy)).body.data;
      expect(list.find((o: { order_id: string }) => o.order_id === order.order_id)).toMatchObject({
        approval_status: 'rejected',
        rejected_reason: 'Audit places are for buyers.',
      });
      // Rejecting twice, or approving a rejected order, is refused.
      expect((await operator(`/orders/${order.order_no}/reject`, { reason: 'again' })).status).toBe(409);
      expect((await operator(`/orders/${order.order_no}/approve`, {})).status).toBe(409);
      expect((await register(bob, 'one-seat')).status).toBe(201);

      expect(await trail(order.order_id)).toMatchObject([
        { kind: 'placed', actor: 'registrant', paymentStatusBefore: null, paymentStatusAfter: 'free' },
        {
          kind: 'rejected',
          actor: 'organiser',
          actorId: 'olivia',
          paymentStatusBefore: 'free',
          paymentStatusAfter: 'canceled',
          approvalStatusBefore: 'pending_approval',
          approvalStatusAfter: 'rejected',
          payload: { reason: 'Audit places are for buyers.' },
        },
      ]);
    });
  });

  describe('payment records that reconcile', () => {
    it('a card charge after a confirmed transfer is recorded as refund_due, listed, and can be marked refunded', async () => {
      const { token } = await signIn(app, 'cai@example.com');
      const order = await applyBadge(app, token);
      const card = await tradeInfo(token, order.order_id);
      const merchantOrderNo = card.params!.get('MerchantOrderNo')!;
      // The user then pays by transfer instead, and the organiser confirms it.
      await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(token, 'PUT', { payment: { type: 'TWD', last_five_digits: '54321' } }),
      );
      expect(await (await operator(`/orders/${order.order_no}/mark-paid`)).json()).toMatchObject({
        data: { result: 'paid' },
      });
      // The abandoned card attempt completes after all: money moved twice.
      const late = await notify(
        signedCallback(keysOf(app), { MerchantOrderNo: merchantOrderNo, Amt: 1000, TradeNo: 'T9' }),
      );
      expect(late.status).toBe(200);
      expect(await late.json()).toEqual({ data: { result: 'paid_by_transfer' } });
      // Repeats of the same notification say the same and add nothing.
      expect(
        await (
          await notify(signedCallback(keysOf(app), { MerchantOrderNo: merchantOrderNo, Amt: 1000, TradeNo: 'T9' }))
        ).json(),
      ).toEqual({
        data: { result: 'paid_by_transfer' },
      });

      const records = await recordsOf(order.order_id);
      expect(records.map((r) => [r.method, r.status, r.amountCents, r.refundReason])).toEqual([
        ['credit_card', 'refund_due', 100_000, 'paid_by_transfer'],
        ['TWD', 'paid', 100_000, null],
      ]);
      expect((await orderRow(order.order_id)).paymentStatus).toBe('paid');

      const refunds = await (await operator('/refunds')).json();
      expect(refunds.data).toEqual([
        expect.objectContaining({
          payment_id: records[0]!.id,
          order_no: order.order_no,
          email: 'cai@example.com',
          amount_cents: 100_000,
          reason: 'paid_by_transfer',
          gateway_trade_no: 'T9',
        }),
      ]);
      expect((await operator(`/payments/${records[0]!.id}/refunded`)).status).toBe(200);
      expect((await operator(`/payments/${records[0]!.id}/refunded`)).status).toBe(409);
      expect((await (await operator('/refunds')).json()).data).toEqual([]);
      expect((await trail(order.order_id)).map((e) => [e.kind, e.actor])).toEqual([
        ['placed', 'registrant'],
        ['card_attempt_started', 'registrant'],
        ['transfer_declared', 'registrant'],
        ['paid', 'organiser'],
        ['refund_due', 'gateway'],
        ['refunded', 'organiser'],
      ]);
    });

    it('canceling a paid order frees its seat and owes its payment back', async () => {
      const amy = await badgeHolder('amy@example.com');
      const now = Date.now();
      await db.insert(events).values({
        slug: 'paid-talk',
        type: 'event_general',
        nameEn: 'Paid talk',
        nameZh: '付費講座',
        registerStartAt: new Date(now - DAY),
        registerEndAt: new Date(now + 10 * DAY),
        startTime: new Date(now + 20 * DAY),
        endAt: new Date(now + 20 * DAY + 3600_000),
        capacity: 3,
        priceCentsTwd: 30_000,
      });
      const order = await (await register(amy, 'paid-talk')).json();
      const card = await tradeInfo(amy, order.order_id);
      await notify(signedCallback(keysOf(app), { MerchantOrderNo: card.params!.get('MerchantOrderNo')!, Amt: 300 }));
      expect(await seats('paid-talk')).toBe(1);
      const canceled = await operator(`/orders/${order.order_no}/cancel`, { reason: 'Talk moved online' });
      expect(await canceled.json()).toMatchObject({ data: { result: 'canceled' } });
      expect(await seats('paid-talk')).toBe(0);
      expect((await recordsOf(order.order_id)).map((r) => [r.status, r.refundReason])).toEqual([
        ['refund_due', 'order_canceled'],
      ]);
      expect((await operator(`/orders/${order.order_no}/cancel`, {})).status).toBe(409);
    });

    it('20 concurrent trade-info calls get 20 distinct card attempts (MerchantOrderNo)', async () => {
      const { token } = await signIn(app, 'dan@example.com');
      const order = await applyBadge(app, token);
      const results = await Promise.all(Array.from({ length: 20 }, () => tradeInfo(token, order.order_id)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      const numbers = results.map((r) => r.params!.get('MerchantOrderNo'));
      expect(new Set(numbers).size).toBe(20);
      expect((await orderRow(order.order_id)).cardAttempts).toBe(20);
      const records = await recordsOf(order.order_id);
      expect(records.map((r) => r.attempt).sort((a, b) => a! - b!)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });
  });

  it('every transition leaves an order_events row with its actor, before and after', async () => {
    const { token } = await signIn(app, 'eve@example.com');
    const order = await applyBadge(app, token);
    const card = await tradeInfo(token, order.order_id);
    await notify(
      signedCallback(keysOf(app), { MerchantOrderNo: card.params!.get('MerchantOrderNo')!, Amt: 1000 }, 'MPG03009'),
    );
    await app.request(
      `/api/v1/orders/${order.order_id}`,
      json(token, 'PUT', { payment: { type: 'atm', last_five_digits: '11111' } }),
    );
    await operator(`/orders/${order.order_no}/mark-paid`);
    expect(
      (await trail(order.order_id)).map((e) => [e.kind, e.actor, e.paymentStatusBefore, e.paymentStatusAfter]),
    ).toEqual([
      ['placed', 'registrant', null, 'pending'],
      ['card_attempt_started', 'registrant', 'pending', 'pending'],
      ['card_declined', 'gateway', 'pending', 'pending'],
      ['transfer_declared', 'registrant', 'pending', 'checking'],
      ['paid', 'organiser', 'checking', 'paid'],
    ]);
    // Expiry is the system's.
    const { token: fay } = await signIn(app, 'fay@example.com');
    const lapsing = await applyBadge(app, fay);
    await db
      .update(orders)
      .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, lapsing.order_id));
    expect(await expireOverdueOrders(db, new Date())).toBe(1);
    expect((await trail(lapsing.order_id)).at(-1)).toMatchObject({
      kind: 'expired',
      actor: 'system',
      paymentStatusBefore: 'pending',
      paymentStatusAfter: 'overdue',
      processedAt: null,
    });
  });
});
