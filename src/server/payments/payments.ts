/**
 * Paying an order: the payment choice and declared transfer, card attempts, the gateway's answer,
 * the organiser's confirmation, and the payment records (`order_payments`) that reconcile them.
 * Order status changes go through the order-state service; amounts come from the price fixed on
 * the order when it was placed, never from the event.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { DomainError, notFoundError } from '@domain/errors';
import { money, toGatewayAmount } from '@domain/money';
import { detailsEditRefusal, SETTLEABLE_STATUSES } from '@domain/order-lifecycle';
import { currencyOf, isTransfer, receiptValues, type OrderPaymentUpdate } from '@domain/payments';
import { isUuid } from '@domain/validation';
import type { Db, Tx } from '../db/client';
import { eventNameColumns, ownerColumns, withOrderOwner } from '../db/order-joins';
import { events, orderPayments, orders, paymentRefunds, receipts, virtualAccounts } from '../db/schema';
import { isUniqueViolation } from '../db/db-errors';
import { queueInvoiceAfterRefund } from '../invoices/invoices';
import {
  applyCommand,
  GATEWAY,
  lockOrder,
  recordOrderEvent,
  type ActorRef,
  type Locked,
  type OrderContext,
  type OrderRow,
  type OrderSet,
  type TransitionContext,
} from '../orders/order-state';

export { expireOverdueOrders } from '../orders/order-state';
export type PaymentContext = TransitionContext;
type PaymentRecord = typeof orderPayments.$inferSelect;

const ownOrder = (userId: string, orderId: string) => and(eq(orders.id, orderId), eq(orders.userId, userId));

/**
 * Paying through the gateway (a card, or an ATM virtual account): the declared transfer is
 * dropped, and the gateway charges the order's TWD total.
 */
const gatewayChoice = (order: OrderRow, paymentType: GatewayMethod = 'credit_card') =>
  ({
    paymentType,
    remitter: null,
    senderBank: null,
    lastFiveDigits: null,
    currency: 'TWD',
    amountCents: order.totalTwdCents,
  }) as const;

/**
 * Payment type, transfer details and invoice of an unpaid order (pay page, summary edits).
 * Everything is checked before anything is written, in one transaction: a refused update leaves
 * the order exactly as it was. A declared transfer moves the order to `checking`.
 */
export async function updateOrderPayment(
  db: Db,
  input: { userId: string; orderId: string; update: OrderPaymentUpdate },
  ctx: PaymentContext,
) {
  if (!isUuid(input.orderId)) throw notFoundError('Order');
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, ownOrder(input.userId, input.orderId));
    if (!locked) throw notFoundError('Order');
    const { order, event } = locked;
    const refusal = detailsEditRefusal(
      { paymentStatus: order.paymentStatus, paymentExpiresAt: order.paymentExpiresAt },
      { now: ctx.now, formModifyExpiresAt: event.formModifyExpiresAt },
    );
    if (refusal) throw new DomainError(refusal.code, refusal.message);
    const actor: ActorRef = { kind: 'registrant', id: input.userId };
    const { payment, receipt } = input.update;
    if (payment && isTransfer(payment.type)) {
      const currency = currencyOf(payment.type);
      const amount = currency === 'USD' ? order.totalUsdCents : order.totalTwdCents;
      if (!amount || amount <= 0)
        throw new DomainError('currency_unavailable', `This order cannot be paid in ${currency}`);
      await applyCommand(tx, locked, { type: 'declare_transfer' }, actor, ctx, {
        set: {
          paymentType: payment.type,
          remitter: payment.remitter || null,
          senderBank: payment.senderBank || null,
          lastFiveDigits: payment.lastFiveDigits!,
          currency,
          amountCents: amount,
          // A transfer declared again answers the organiser's message of a transfer sent back.
          transferReturnedMessage: null,
        },
        payload: { paymentType: payment.type, currency, amountCents: amount },
      });
    } else if (payment) {
      if (order.paymentStatus === 'checking') throw new DomainError('payment_type_locked');
      await tx
        .update(orders)
        .set({ ...gatewayChoice(order), updatedAt: ctx.now })
        .where(and(eq(orders.id, order.id), eq(orders.paymentStatus, 'pending')));
    }
    if (receipt) {
      const values = { ...receiptValues(receipt), updatedAt: ctx.now };
      await tx
        .insert(receipts)
        .values({ orderId: order.id, ...values })
        .onConflictDoUpdate({ target: receipts.orderId, set: values });
    }
  });
}

/**
 * Starts a card attempt: the attempt counter is incremented by the UPDATE itself (never read and
 * written back), so concurrent calls get distinct MerchantOrderNo values, and the attempt is
 * recorded with the amount the gateway is asked for: the order's TWD total, fixed when placed.
 */
export async function startCardAttempt(db: Db, input: { userId: string; orderId: string }, ctx: PaymentContext) {
  if (!isUuid(input.orderId)) throw notFoundError('Order');
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, ownOrder(input.userId, input.orderId));
    if (!locked) throw notFoundError('Order');
    const { order, event } = locked;
    // Card payments are charged in whole TWD (the gateway's Amt).
    if ((order.totalTwdCents < 100 || order.totalTwdCents % 100 !== 0) && order.paymentStatus === 'pending')
      throw new DomainError('currency_unavailable', 'This order cannot be paid by card in TWD');
    const attempt = await startGatewayAttempt(tx, locked, 'credit_card', input.userId, ctx);
    return { ...attempt, event };
  });
}

/** How a gateway trade is paid: by card, or at an ATM into a virtual account. */
export type GatewayMethod = 'credit_card' | 'atm';

/**
 * A new gateway trade for the registrant's locked order: the order core's `start_card` (the
 * payment type chosen, the attempt counted), then the attempt's payment record, `started`, whose
 * `{orderNo}_{attempt}` is the trade's MerchantOrderNo. The card and the ATM flows both start here.
 */
export async function startGatewayAttempt(
  tx: Tx,
  locked: Locked,
  method: GatewayMethod,
  userId: string,
  ctx: PaymentContext,
) {
  const { order } = locked;
  const updated = await applyCommand(tx, locked, { type: 'start_card' }, { kind: 'registrant', id: userId }, ctx, {
    set: { ...gatewayChoice(order, method), cardAttempts: sql`${orders.cardAttempts} + 1` },
    ...(method === 'credit_card' ? {} : { payload: { method } }),
  });
  const merchantOrderNo = `${order.orderNo}_${updated.cardAttempts}`;
  const amount = money(order.totalTwdCents, 'TWD');
  await tx.insert(orderPayments).values({
    orderId: order.id,
    method,
    attempt: updated.cardAttempts,
    merchantOrderNo,
    currency: 'TWD',
    amountCents: amount.cents,
    status: 'started',
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  return { order: updated, merchantOrderNo, amount };
}

export type GatewayResult = {
  merchantOrderNo: string;
  amount: number;
  status: string;
  message: string;
  tradeNo: string | undefined;
};
export type GatewayOutcome =
  | { outcome: 'paid' | 'already_paid' | 'declined' | 'ignored'; orderId: string }
  /** A verified charge that cannot settle its order: recorded as refund_due, answered as received. */
  | { outcome: 'refund_due'; reason: string; orderId: string }
  | { outcome: 'rejected'; reason: string; orderId?: string };

/** The order number inside a MerchantOrderNo (`{orderNo}_{attempt}`). */
export const orderNoOf = (merchantOrderNo: string) => merchantOrderNo.split('_')[0] ?? '';
const attemptOf = (merchantOrderNo: string) => Number(merchantOrderNo.split('_')[1]);

/** Marks a payment record as money owed back, and says so on the order's trail. */
async function flagRefund(
  tx: Tx,
  order: OrderRow,
  recordId: string,
  reason: string,
  actor: ActorRef,
  now: Date,
  gateway?: Partial<PaymentRecord>,
  detail: Record<string, unknown> = {},
) {
  await tx
    .update(orderPayments)
    .set({ ...gateway, status: 'refund_due', refundReason: reason, updatedAt: now })
    .where(eq(orderPayments.id, recordId));
  const state = { paymentStatus: order.paymentStatus, approvalStatus: order.approvalStatus };
  await recordOrderEvent(tx, {
    orderId: order.id,
    kind: 'refund_due',
    actor,
    before: state,
    after: state,
    payload: { ...detail, paymentId: recordId, reason },
    at: now,
  });
}

/**
 * Applies a verified gateway result. Idempotent: the gateway repeats notifications and the
 * browser return carries the same result; only the first success changes anything. A charge that
 * cannot settle the order (already paid, by card or by a confirmed transfer; closed since) is
 * kept as a payment record marked refund_due.
 */
export async function applyGatewayResult(db: Db, result: GatewayResult, ctx: PaymentContext): Promise<GatewayOutcome> {
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, eq(orders.orderNo, orderNoOf(result.merchantOrderNo)));
    if (!locked) return { outcome: 'rejected', reason: 'unknown_order' };
    const { order } = locked;
    let [record] = await tx
      .select()
      .from(orderPayments)
      .where(and(eq(orderPayments.orderId, order.id), eq(orderPayments.merchantOrderNo, result.merchantOrderNo)))
      .limit(1);
    // The amount asked for: the attempt's record, or (an attempt the portal has no record of) the
    // order's TWD total. Never the event's current price.
    const asked = record ? money(record.amountCents, 'TWD') : money(order.totalTwdCents, 'TWD');
    if (asked.cents < 100 || toGatewayAmount(asked) !== result.amount)
      return { outcome: 'rejected', reason: 'amount_mismatch', orderId: order.id };
    const attempt = attemptOf(result.merchantOrderNo);
    // A failure of an attempt the portal has no record of, for an order no longer unpaid, says nothing.
    if (!record && result.status !== 'SUCCESS' && order.paymentStatus !== 'pending')
      return { outcome: 'ignored', orderId: order.id };
    if (!record) {
      // Verified by the merchant's keys, so real: record it before deciding what it means.
      [record] = await tx
        .insert(orderPayments)
        .values({
          orderId: order.id,
          method: 'credit_card',
          attempt: Number.isInteger(attempt) ? attempt : null,
          merchantOrderNo: result.merchantOrderNo,
          currency: 'TWD',
          amountCents: asked.cents,
          status: 'started',
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
    }
    const gateway = {
      gatewayTradeNo: result.tradeNo ?? record!.gatewayTradeNo,
      gatewayStatus: result.status,
      gatewayMessage: result.message,
      gatewayAt: ctx.now,
    };
    if (result.status !== 'SUCCESS') {
      if (record!.status !== 'started') return { outcome: 'ignored', orderId: order.id };
      await tx
        .update(orderPayments)
        .set({ ...gateway, status: 'declined', updatedAt: ctx.now })
        .where(eq(orderPayments.id, record!.id));
      // Only the latest attempt of an unpaid order says anything about the order.
      if (order.paymentStatus !== 'pending' || (Number.isInteger(attempt) && attempt !== order.cardAttempts))
        return { outcome: 'ignored', orderId: order.id };
      await applyCommand(tx, locked, { type: 'decline' }, GATEWAY, ctx, {
        payload: { merchantOrderNo: result.merchantOrderNo, gatewayStatus: result.status },
      });
      return { outcome: 'declined', orderId: order.id };
    }
    // A success seen before: the same trade again is a repeat.
    if (record!.status === 'paid') {
      if (result.tradeNo && record!.gatewayTradeNo && result.tradeNo !== record!.gatewayTradeNo) {
        // Verified, on the same attempt, under another trade number: the card was charged twice
        // (issue 20). Money owed back, kept as a payment record of its own (once per trade).
        const reason = await recordSecondCharge(tx, order, record!, result, asked.cents, gateway, ctx.now);
        return { outcome: 'refund_due', reason, orderId: order.id };
      }
      return { outcome: 'already_paid', orderId: order.id };
    }
    if (record!.status === 'refund_due' || record!.status === 'refunded')
      return { outcome: 'refund_due', reason: record!.refundReason ?? 'refund_due', orderId: order.id };
    if (order.paymentStatus === 'paid') {
      const reason = order.paymentType && isTransfer(order.paymentType) ? 'paid_by_transfer' : 'duplicate_charge';
      await flagRefund(tx, order, record!.id, reason, GATEWAY, ctx.now, gateway);
      return { outcome: 'refund_due', reason, orderId: order.id };
    }
    const reason = await settle(tx, locked, GATEWAY, ctx, {
      // An ATM virtual account's payment (issue 22) is notified like a card's.
      paymentType: record!.method === 'atm' ? 'atm' : 'credit_card',
      currency: 'TWD',
      amountCents: asked.cents,
    });
    if (reason) {
      await flagRefund(tx, order, record!.id, reason, GATEWAY, ctx.now, gateway);
      return { outcome: 'refund_due', reason, orderId: order.id };
    }
    await tx
      .update(orderPayments)
      .set({ ...gateway, status: 'paid', paidAt: ctx.now, updatedAt: ctx.now })
      .where(eq(orderPayments.id, record!.id));
    if (record!.method === 'atm')
      await tx
        .update(virtualAccounts)
        .set({ status: 'paid', paidAt: ctx.now, updatedAt: ctx.now })
        .where(eq(virtualAccounts.merchantOrderNo, result.merchantOrderNo));
    return { outcome: 'paid', orderId: order.id };
  });
}

/**
 * A second verified charge of a card attempt already paid, under another gateway trade number:
 * recorded as its own payment, owed back (refund_due, `duplicate_charge`), with the attempt's
 * merchant order number on the order's trail. The record has no merchant order number of its
 * own (that one is the first charge's); a repeat of the same trade finds it by its trade number.
 */
async function recordSecondCharge(
  tx: Tx,
  order: OrderRow,
  first: PaymentRecord,
  result: GatewayResult,
  amountCents: number,
  gateway: Partial<PaymentRecord>,
  now: Date,
): Promise<string> {
  const [seen] = await tx
    .select({ refundReason: orderPayments.refundReason })
    .from(orderPayments)
    .where(and(eq(orderPayments.orderId, order.id), eq(orderPayments.gatewayTradeNo, result.tradeNo!)))
    .limit(1);
  if (seen) return seen.refundReason ?? 'duplicate_charge';
  const [second] = await tx
    .insert(orderPayments)
    .values({
      orderId: order.id,
      method: 'credit_card',
      attempt: first.attempt,
      merchantOrderNo: null,
      currency: 'TWD',
      amountCents,
      status: 'started',
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: orderPayments.id });
  await flagRefund(tx, order, second!.id, 'duplicate_charge', GATEWAY, now, gateway, {
    merchantOrderNo: result.merchantOrderNo,
    tradeNo: result.tradeNo,
    firstTradeNo: first.gatewayTradeNo,
  });
  return 'duplicate_charge';
}

/**
 * Pays a locked order inside a savepoint. An order that cannot become paid (closed, or lapsed
 * while its owner registered again or got another badge, or its seat gone) changes nothing, and
 * the answer is the reason the money is owed back.
 */
async function settle(
  tx: Tx,
  locked: Locked,
  actor: ActorRef,
  ctx: PaymentContext,
  set: OrderSet,
): Promise<string | undefined> {
  if (!(SETTLEABLE_STATUSES as readonly string[]).includes(locked.order.paymentStatus)) return 'order_not_payable';
  try {
    await tx.transaction((sp) => applyCommand(sp, locked, { type: 'pay' }, actor, ctx, { set }));
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.code === 'not_approved' ? 'not_approved' : 'order_superseded';
    if (isUniqueViolation(error)) return 'order_superseded';
    throw error;
  }
}

/** Organiser: confirms a transfer (or any unpaid order) as paid, with a payment record. */
export async function markPaid(
  db: Db,
  orderNo: string,
  ctx: PaymentContext,
  actor: ActorRef = { kind: 'organiser' },
): Promise<'paid' | 'already_paid'> {
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, eq(orders.orderNo, orderNo));
    if (!locked) throw notFoundError('Order');
    if (locked.order.paymentStatus === 'paid') return 'already_paid';
    await payLocked(tx, locked, actor, ctx);
    return 'paid';
  });
}

/**
 * Pays a locked unpaid order as the organiser confirmed it (markPaid, a bank statement line):
 * the `pay` transition and its payment record in the order's currency and amount, in the caller's
 * transaction. `set` changes the order with it (e.g. the transfer a statement line shows, when
 * none was declared); `payload` goes on the `paid` event. Answers the payment record's id.
 */
export async function payLocked(
  tx: Tx,
  locked: Locked,
  actor: ActorRef,
  ctx: PaymentContext,
  extra: { set?: OrderSet; payload?: Record<string, unknown> } = {},
): Promise<string> {
  const { order } = locked;
  if (order.paymentStatus === 'paid') throw new DomainError('order_paid', 'This order is paid already');
  if (!(SETTLEABLE_STATUSES as readonly string[]).includes(order.paymentStatus))
    throw new DomainError('order_not_payable', `Order is ${order.paymentStatus}`);
  const paid = await tx
    .transaction((sp) => applyCommand(sp, locked, { type: 'pay' }, actor, ctx, extra))
    .catch((error: unknown) => {
      // Not approved says so; any other refusal of a settleable order is its being superseded
      // (lapsed, and its owner has another live order or badge since, or its seat is gone).
      if (error instanceof DomainError && error.code === 'not_approved') throw error;
      if (error instanceof DomainError || isUniqueViolation(error)) throw new DomainError('order_superseded');
      throw error;
    });
  const [record] = await tx
    .insert(orderPayments)
    .values({
      orderId: order.id,
      method: paid.paymentType && isTransfer(paid.paymentType) ? paid.paymentType : 'TWD',
      currency: paid.currency === 'USD' ? 'USD' : 'TWD',
      amountCents: paid.amountCents,
      status: 'paid',
      paidAt: ctx.now,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: orderPayments.id });
  return record!.id;
}

/** Organiser: approve, reject (with a reason), start reviewing, or cancel an order. */
export async function decideOrder(
  db: Db,
  orderNo: string,
  command:
    | { type: 'approve' }
    | { type: 'reject'; reason: string }
    | { type: 'start_review' }
    | { type: 'cancel'; reason?: string | undefined },
  ctx: TransitionContext & Pick<OrderContext, 'paymentDays'>,
  actor: ActorRef = { kind: 'organiser' },
): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, eq(orders.orderNo, orderNo));
    if (!locked) throw notFoundError('Order');
    const wasPaid = locked.order.paymentStatus === 'paid';
    const updated = await applyCommand(tx, locked, command, actor, ctx);
    if (command.type === 'cancel' && wasPaid) {
      // A paid order canceled by the organiser: its confirmed payments are owed back.
      const paid = await tx
        .select({ id: orderPayments.id })
        .from(orderPayments)
        .where(and(eq(orderPayments.orderId, updated.id), eq(orderPayments.status, 'paid')));
      for (const p of paid) await flagRefund(tx, updated, p.id, 'order_canceled', actor, ctx.now);
    }
    return updated;
  });
}

/**
 * A refund has been paid back (issue 11; issue 22): recorded by the organiser with its reference
 * (money owed back, `refund_due`, refunded outside the portal: the whole balance), or after the
 * gateway agreed to a card cancel / refund (`refund.refundId`, its payment_refunds row: any
 * amount up to the balance, of a payment owed back or still paid — a goodwill refund). The one
 * path every refund takes: the `refunded` order event (amountCents, partial: less than the whole
 * payment, refundedCents: all refunds of it so far) and, once nothing is left, the payment
 * `refunded`. In the caller's transaction when given one.
 */
export async function markRefunded(
  db: Db | Tx,
  paymentId: string,
  ctx: Pick<PaymentContext, 'now'>,
  actor: ActorRef,
  reference?: string | null,
  refund: { amountCents?: number; refundId?: string; reason?: string | null } = {},
) {
  if (!isUuid(paymentId)) throw notFoundError('Payment');
  const refundReference = reference?.trim() || null;
  return db.transaction(async (tx) => {
    const [found] = await tx.select().from(orderPayments).where(eq(orderPayments.id, paymentId)).for('update');
    if (!found) throw notFoundError('Payment');
    const viaGateway = refund.refundId !== undefined;
    if (!(found.status === 'refund_due' || (viaGateway && found.status === 'paid')))
      throw new DomainError('not_refund_due');
    const already = await refundedCents(tx, paymentId, refund.refundId);
    const balance = found.amountCents - already;
    const amountCents = refund.amountCents ?? balance;
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > balance)
      throw new DomainError('refund_exceeds_balance');
    const whole = already + amountCents === found.amountCents;
    let kind: string = 'manual';
    let refundRowId = refund.refundId;
    if (viaGateway) {
      const [row] = await tx
        .update(paymentRefunds)
        .set({ outcome: 'succeeded', answeredAt: ctx.now })
        .where(eq(paymentRefunds.id, refund.refundId!))
        .returning({ kind: paymentRefunds.kind });
      kind = row?.kind ?? 'refund';
    } else {
      const [inserted] = await tx
        .insert(paymentRefunds)
        .values({
          paymentId,
          orderId: found.orderId,
          amountCents,
          currency: found.currency,
          kind: 'manual',
          outcome: 'succeeded',
          reason: refund.reason ?? found.refundReason,
          reference: refundReference,
          actor: actor.kind,
          actorId: actor.id ?? null,
          createdAt: ctx.now,
          answeredAt: ctx.now,
        })
        .returning({ id: paymentRefunds.id });
      refundRowId = inserted!.id;
    }
    const [record] = await tx
      .update(orderPayments)
      .set(
        whole
          ? {
              status: 'refunded',
              refundedAt: ctx.now,
              refundReference: refundReference ?? found.refundReference,
              updatedAt: ctx.now,
            }
          : { updatedAt: ctx.now },
      )
      .where(eq(orderPayments.id, paymentId))
      .returning();
    const [order] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).limit(1);
    const state = { paymentStatus: order!.paymentStatus, approvalStatus: order!.approvalStatus };
    await recordOrderEvent(tx, {
      orderId: found.orderId,
      kind: 'refunded',
      actor,
      before: state,
      after: state,
      payload: {
        paymentId,
        amountCents,
        currency: found.currency,
        partial: amountCents < found.amountCents,
        refundedCents: already + amountCents,
        kind,
        ...(refund.refundId ? { refundId: refund.refundId } : {}),
        ...(refundReference ? { reference: refundReference } : {}),
      },
      at: ctx.now,
    });
    await queueInvoiceAfterRefund(tx, {
      orderId: found.orderId,
      paymentId,
      refundId: refundRowId!,
      amountCents,
      reason: refund.reason ?? found.refundReason,
      now: ctx.now,
    });
    return record!;
  });
}

/** What went back of a payment so far (its succeeded refunds), leaving out `except`. */
export async function refundedCents(db: Db | Tx, paymentId: string, except?: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${paymentRefunds.amountCents}), 0)::int` })
    .from(paymentRefunds)
    .where(
      and(
        eq(paymentRefunds.paymentId, paymentId),
        eq(paymentRefunds.outcome, 'succeeded'),
        except ? sql`${paymentRefunds.id} <> ${except}` : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/** Payment records owed back, oldest first (`npm run orders -- refunds`). */
export async function listRefundsDue(db: Db) {
  return withOrderOwner(
    db
      .select({
        paymentId: orderPayments.id,
        orderNo: orders.orderNo,
        ...ownerColumns,
        eventSlug: events.slug,
        ...eventNameColumns,
        method: orderPayments.method,
        currency: orderPayments.currency,
        amountCents: orderPayments.amountCents,
        reason: orderPayments.refundReason,
        gatewayTradeNo: orderPayments.gatewayTradeNo,
        at: orderPayments.updatedAt,
        refundedCents: sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from payment_refunds r where r.payment_id = ${orderPayments.id} and r.outcome = 'succeeded')`,
      })
      .from(orderPayments)
      .innerJoin(orders, eq(orders.id, orderPayments.orderId))
      .$dynamic(),
  )
    .where(eq(orderPayments.status, 'refund_due'))
    .orderBy(asc(orderPayments.updatedAt));
}

/** The latest card attempt of each order (the pay and processing pages read its outcome). */
export async function latestCardAttempts(db: Db, orderIds: string[]): Promise<Map<string, PaymentRecord>> {
  const out = new Map<string, PaymentRecord>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectDistinctOn([orderPayments.orderId])
    .from(orderPayments)
    .where(and(inArray(orderPayments.orderId, orderIds), eq(orderPayments.method, 'credit_card')))
    .orderBy(orderPayments.orderId, desc(orderPayments.createdAt), desc(orderPayments.attempt));
  for (const r of rows) out.set(r.orderId, r);
  return out;
}
