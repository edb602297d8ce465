import { and, asc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  emails,
  invoiceActions,
  invoices,
  orderEvents,
  orderPayments,
  organisers,
  paymentRefunds,
} from '@server/db/schema';
import { invoicePass } from '@server/invoices/invoices';
import type { Db } from '@server/db/client';
import { mailSettings, queueEventMails } from '@server/mail/outbox';
import { processOrderEvents } from '@server/orders/order-events';
import { DATABASES, seededApp, signIn, type TestApp } from './helpers';
import { getJson, json, paidBadgeByCard } from './fixtures';

/*
 * Card refunds through NewebPay (issue 22): the back office's refund calls the sandbox gateway's
 * cancel-authorisation (before the nightly close) or refund (after), records every call, marks
 * the payment refunded only when the gateway agrees, and e-mails the registrant.
 */
const ORGANISER = 'olivia@example.com';
const FINANCE = 'fiona@example.com';
const HOUR = 60 * 60 * 1000;

describe.each(DATABASES)('card refunds through the gateway (%s)', (kind) => {
  // Real time (sessions and uploads run on it); the nightly close (21:00 Taipei) is within a day.
  let clock = new Date();
  const suite = seededApp(kind, { ORGANISER_EMAILS: ORGANISER }, { now: () => clock });
  let db: Db;
  let app: TestApp;
  let organiser: string;

  beforeEach(async () => {
    clock = new Date();
    ({ db, app } = suite);
    ({ token: organiser } = await signIn(app, ORGANISER, 'Olivia'));
  });

  const post = (path: string, body: unknown, token = organiser) => app.request(path, json(token, 'POST', body));

  /** Amy's Professional badge (TWD 1,000) paid by card through the sandbox gateway. */
  const paidByCard = (email = 'amy@example.com') => paidBadgeByCard(app, db, email);

  const refundsOf = (paymentId: string) =>
    db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, paymentId))
      .orderBy(asc(paymentRefunds.createdAt));
  const paymentOf = async (paymentId: string) =>
    (await db.select().from(orderPayments).where(eq(orderPayments.id, paymentId)))[0]!;
  const refundedEvents = (orderId: string) =>
    db
      .select({ payload: orderEvents.payload, actorId: orderEvents.actorId })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'refunded')))
      .orderBy(asc(orderEvents.id));

  it('before the nightly close: a canceled order’s card payment is cancelled at the gateway, refunded, mailed, on the order', async () => {
    const amy = await paidByCard();
    expect((await post(`/api/v1/admin/orders/${amy.orderNo}/cancel`, { reason: 'Asked to cancel' })).status).toBe(200);
    expect((await paymentOf(amy.paymentId)).status).toBe('refund_due');
    const list = await getJson(app, '/api/v1/admin/refunds', organiser);
    expect(list.body.data).toEqual([
      expect.objectContaining({ payment_id: amy.paymentId, method: 'credit_card', refunded_cents: 0 }),
    ]);

    const res = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'Order canceled' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).data).toMatchObject({
      payment_id: amy.paymentId,
      kind: 'cancel',
      amount_cents: 100_000,
      currency: 'TWD',
      payment_status: 'refunded',
    });
    expect(await refundsOf(amy.paymentId)).toEqual([
      expect.objectContaining({
        kind: 'cancel',
        outcome: 'succeeded',
        amountCents: 100_000,
        reason: 'Order canceled',
        actor: 'organiser',
        actorId: ORGANISER,
        gatewayStatus: 'SUCCESS',
        gatewayMessage: '放棄授權成功',
      }),
    ]);
    expect((await paymentOf(amy.paymentId)).status).toBe('refunded');
    expect(await refundedEvents(amy.orderId)).toEqual([
      {
        actorId: ORGANISER,
        payload: expect.objectContaining({
          paymentId: amy.paymentId,
          amountCents: 100_000,
          partial: false,
          refundedCents: 100_000,
          kind: 'cancel',
        }),
      },
    ]);
    expect((await getJson(app, '/api/v1/admin/refunds', organiser)).body.data).toEqual([]);

    // The registrant's order says so; the mail is queued.
    const view = await getJson(app, `/api/v1/orders/${amy.orderId}`, amy.token);
    expect(view.body.data.refunds).toEqual([
      { amount_cents: 100_000, currency: 'TWD', at: expect.any(String), kind: 'cancel', reason: null },
    ]);
    await processOrderEvents(
      db,
      queueEventMails(mailSettings(app.config), () => clock),
      { now: clock },
    );
    const [mail] = await db.select().from(emails).where(eq(emails.template, 'refund_made'));
    expect(mail).toMatchObject({ recipient: 'amy@example.com' });
    // Both languages, as every mail.
    expect(mail!.subject).toBe(
      `Order ${amy.orderNo}: TWD 1,000 refunded / 訂單 ${amy.orderNo}：已退款 新臺幣 1,000 元`,
    );
    expect(mail!.text).toContain('to the credit card you paid with');
    expect(mail!.text).toContain('退回您付款的信用卡');

    // Twice: nothing left to refund.
    const again = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'again' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'not_refund_due' });
  });

  it('after the nightly close: refunds, in part (goodwill, the order stays paid), once a day, up to the balance', async () => {
    const amy = await paidByCard();
    // Before settlement a partial refund is impossible (cancel is all or nothing): refused, recorded.
    const early = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, {
      amount_cents: 30_000,
      reason: 'Goodwill',
    });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: 'partial_refund_unsettled' });
    expect((await paymentOf(amy.paymentId)).status).toBe('paid');

    clock = new Date(clock.getTime() + 24 * HOUR); // past 21:00 Taipei: settled
    const part = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, {
      amount_cents: 30_000,
      reason: 'Goodwill',
    });
    expect(part.status, await part.clone().text()).toBe(200);
    expect((await part.json()).data).toMatchObject({ kind: 'refund', amount_cents: 30_000, payment_status: 'paid' });
    const orderView = await getJson(app, `/api/v1/orders/${amy.orderId}`, amy.token);
    expect(orderView.body.data).toMatchObject({
      payment_status: 'paid',
      refunds: [{ amount_cents: 30_000, currency: 'TWD', kind: 'refund' }],
    });

    // The gateway takes one refund a day per trade: refused, the payment as it was, the code said.
    const sameDay = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, {
      amount_cents: 10_000,
      reason: 'More',
    });
    expect(sameDay.status).toBe(409);
    expect(await sameDay.json()).toMatchObject({ code: 'refund_refused', gateway_status: 'TRA10045' });
    expect((await paymentOf(amy.paymentId)).status).toBe('paid');

    clock = new Date(clock.getTime() + 24 * HOUR);
    const tooMuch = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, {
      amount_cents: 80_000,
      reason: 'Too much',
    });
    expect(tooMuch.status).toBe(409);
    expect(await tooMuch.json()).toMatchObject({ code: 'refund_exceeds_balance' });

    // The rest (no amount: the balance): the payment is refunded; the event says partial.
    const rest = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'The rest' });
    expect(rest.status).toBe(200);
    expect((await rest.json()).data).toMatchObject({
      kind: 'refund',
      amount_cents: 70_000,
      payment_status: 'refunded',
    });
    expect((await refundedEvents(amy.orderId)).map((e) => e.payload)).toEqual([
      expect.objectContaining({ amountCents: 30_000, partial: true, refundedCents: 30_000, kind: 'refund' }),
      expect.objectContaining({ amountCents: 70_000, partial: true, refundedCents: 100_000, kind: 'refund' }),
    ]);
    expect((await refundsOf(amy.paymentId)).map((r) => [r.kind, r.outcome, r.amountCents, r.gatewayStatus])).toEqual([
      ['cancel', 'refused', 30_000, 'partial_refund_unsettled'],
      ['refund', 'succeeded', 30_000, 'SUCCESS'],
      ['refund', 'refused', 10_000, 'TRA10045'],
      ['refund', 'succeeded', 70_000, 'SUCCESS'],
    ]);
    await processOrderEvents(
      db,
      queueEventMails(mailSettings(app.config), () => clock),
      { now: clock },
    );
    const mails = await db.select().from(emails).where(eq(emails.template, 'refund_made'));
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.text).join('\n')).toContain('This is part of the TWD 1,000 you paid');
  });

  it('a gateway refusal keeps the payment refund_due and answers the gateway’s code', async () => {
    const amy = await paidByCard();
    expect((await post(`/api/v1/admin/orders/${amy.orderNo}/cancel`, {})).status).toBe(200);
    const refuse = await app.request('/sandbox-gateway/API/sandbox/refuse-next', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code: 'TRA10095' }),
    });
    expect(refuse.status).toBe(303);
    const res = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'Canceled' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'refund_refused', gateway_status: 'TRA10095' });
    expect((await paymentOf(amy.paymentId)).status).toBe('refund_due');
    expect(await refundedEvents(amy.orderId)).toEqual([]);
    expect(await refundsOf(amy.paymentId)).toEqual([
      expect.objectContaining({ kind: 'cancel', outcome: 'refused', gatewayStatus: 'TRA10095' }),
    ]);
    // The next try goes through.
    expect((await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'Canceled' })).status).toBe(200);
  });

  it('the preview says what a refund would do (cancel or refund, part or not, void or allowance); each part credits the invoice', async () => {
    const amy = await paidByCard();
    await invoicePass({ db, client: app.invoices.client, now: clock, mail: mailSettings(app.config) });
    const preview = async () => {
      const res = await getJson(app, `/api/v1/admin/payments/${amy.paymentId}/refund-preview`, organiser);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const [invoice] = await db.select().from(invoices).where(eq(invoices.orderId, amy.orderId));
    expect(invoice!.status).toBe('issued');
    // Before the nightly close: the authorisation is cancelled, whole only; the invoice voided.
    expect(await preview()).toEqual({
      payment_id: amy.paymentId,
      currency: 'TWD',
      amount_cents: 100_000,
      refunded_cents: 0,
      balance_cents: 100_000,
      gateway_call: 'cancel',
      gateway_status: null,
      partial_allowed: false,
      invoice: { number: invoice!.number, status: 'issued', whole: 'void', partial: 'allowance' },
    });
    // Settled: refunded, in part too; each part is an allowance of its own (two the same payment).
    clock = new Date(clock.getTime() + 24 * HOUR);
    expect(await preview()).toMatchObject({ gateway_call: 'refund', partial_allowed: true });
    expect(
      (await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { amount_cents: 30_000, reason: 'Goodwill' }))
        .status,
    ).toBe(200);
    clock = new Date(clock.getTime() + 24 * HOUR);
    expect(
      (await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { amount_cents: 20_000, reason: 'More' })).status,
    ).toBe(200);
    const actions = await db.select().from(invoiceActions).where(eq(invoiceActions.invoiceId, invoice!.id));
    expect(actions.map((a) => [a.kind, a.amountTwd]).sort()).toEqual([
      ['allowance', 200],
      ['allowance', 300],
    ]);
    expect(await preview()).toMatchObject({
      refunded_cents: 50_000,
      balance_cents: 50_000,
      invoice: { whole: 'allowance', partial: 'allowance' },
    });
    // The money right only; a payment not by card is not refunded through the gateway.
    await db.insert(organisers).values({ email: FINANCE, role: 'viewer', grantedBy: ORGANISER });
    const { token: viewer } = await signIn(app, FINANCE, 'Fiona');
    expect((await getJson(app, `/api/v1/admin/payments/${amy.paymentId}/refund-preview`, viewer)).status).toBe(403);
    expect((await getJson(app, `/api/v1/admin/payments/${amy.paymentId}/refund-preview`, amy.token)).status).toBe(403);
    expect((await getJson(app, '/api/v1/admin/payments/not-a-uuid/refund-preview', organiser)).status).toBe(404);
    await db.update(orderPayments).set({ method: 'atm' }).where(eq(orderPayments.id, amy.paymentId));
    const atm = await getJson(app, `/api/v1/admin/payments/${amy.paymentId}/refund-preview`, organiser);
    expect([atm.status, atm.body.code]).toEqual([409, 'not_refundable']);
  });

  it('needs the money right; bad input is 400 naming the field', async () => {
    const amy = await paidByCard();
    const bad = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { amount_cents: 150, reason: 'x' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(await (await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, {})).json())).toContain(
      'reason',
    );
    const registrant = await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'x' }, amy.token);
    expect(registrant.status).toBe(403);
    // A desk member has no 'money' right.
    await db.insert(organisers).values({ email: FINANCE, role: 'desk', grantedBy: ORGANISER });
    const { token: desk } = await signIn(app, FINANCE, 'Fiona');
    expect((await post(`/api/v1/admin/payments/${amy.paymentId}/refund`, { reason: 'x' }, desk)).status).toBe(403);
    expect((await refundsOf(amy.paymentId)).length).toBe(0);
  });
});
