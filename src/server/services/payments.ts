import { isUuid } from '@domain/validation';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { OrderPaymentUpdate } from '@domain/payments';
import { currencyOf, isTransfer } from '@domain/payments';
import { ApiError, notFound } from '../api/errors';
import type { Db, Tx } from '../db/client';
import { badges, events, orders, payments, receipts, registrations, users } from '../db/schema';
import { isUniqueViolation } from './db-errors';
import { pickupCode } from './pickup';

const DAY = 24 * 60 * 60 * 1000;
const BADGE_TYPES = ['BADGE_PROFESSIONAL', 'BADGE_FREE'];

/** When an unpaid order lapses: `days` after `now`, never after the event's registration end. */
export function paymentDeadline(now: Date, registerEndAt: Date, days: number): Date {
  return new Date(Math.min(now.getTime() + days * DAY, registerEndAt.getTime()));
}

/**
 * Unpaid orders past their payment deadline become overdue and give their seat back, in one
 * transaction; rows another transaction holds are left for the next run. `scope` limits the run
 * to one user's orders and the badge orders of one e-mail (before a new badge application).
 */
export async function expireOverdueOrders(
  db: Db,
  now: Date,
  scope?: { userId: string; emailKey?: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const whose = scope
      ? scope.emailKey
        ? or(eq(orders.userId, scope.userId), eq(orders.badgeEmailKey, scope.emailKey))
        : eq(orders.userId, scope.userId)
      : undefined;
    const due = await tx
      .select({ id: orders.id, eventId: orders.eventId, holdsSeat: orders.holdsSeat })
      .from(orders)
      .where(and(eq(orders.paymentStatus, 'pending'), lt(orders.paymentExpiresAt, now), whose))
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    const ids = due.map((d) => d.id);
    await tx
      .update(orders)
      .set({ paymentStatus: 'overdue', holdsSeat: false, updatedAt: now })
      .where(inArray(orders.id, ids));
    await tx.update(payments).set({ status: 'overdue', updatedAt: now }).where(inArray(payments.orderId, ids));
    const seats = new Map<string, number>();
    for (const d of due) if (d.holdsSeat) seats.set(d.eventId, (seats.get(d.eventId) ?? 0) + 1);
    for (const [eventId, n] of seats) {
      await tx
        .update(events)
        .set({ seatsTaken: sql`${events.seatsTaken} - ${n}` })
        .where(eq(events.id, eventId));
    }
    return due.length;
  });
}

/**
 * Issues the badge of a badge order once it leaves unpaid (checking, paid, free). Idempotent:
 * the badge is unique per order, user and e-mail.
 */
export async function ensureBadge(tx: Tx, orderId: string, secret: string): Promise<void> {
  const [row] = await tx
    .select({ order: orders, form: registrations.form, email: users.email })
    .from(orders)
    .innerJoin(registrations, eq(registrations.orderId, orders.id))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row || !BADGE_TYPES.includes(row.order.registrationType)) return;
  const form = row.form as { badge?: Record<string, string>; personalPhotoFileId?: string; identity?: string };
  const id = randomUUID();
  await tx
    .insert(badges)
    .values({
      id,
      userId: row.order.userId,
      emailKey: row.order.badgeEmailKey ?? row.email.toLowerCase(),
      orderId,
      identity: (form.identity as typeof badges.$inferInsert.identity) ?? 'PROFESSIONAL',
      nameZh: form.badge?.nameZh ?? '',
      nameEn: form.badge?.nameEn ?? '',
      companyNameZh: form.badge?.companyNameZh ?? '',
      companyNameEn: form.badge?.companyNameEn ?? '',
      personalPhotoFileId: form.personalPhotoFileId ?? null,
      pickupCode: pickupCode(id, secret),
    })
    .onConflictDoNothing();
}

export type PaymentContext = { now: Date; pickupSecret: string };

/**
 * Payment type, transfer details and invoice of an unpaid order (pay page, summary edits).
 * Everything is validated before anything is written, in one transaction: a refused update
 * leaves the order exactly as it was.
 */
export async function updateOrderPayment(
  db: Db,
  input: { userId: string; orderId: string; update: OrderPaymentUpdate },
  ctx: PaymentContext,
) {
  if (!isUuid(input.orderId)) throw notFound('Order');
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ order: orders, event: events })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)))
      .for('update', { of: orders })
      .limit(1);
    if (!row) throw notFound('Order');
    const { order, event } = row;
    if (order.paymentStatus === 'paid' || order.paymentStatus === 'free') {
      throw new ApiError(409, 'order_paid', 'A paid order cannot update remittance or invoice details');
    }
    if (order.paymentStatus === 'overdue' || order.paymentStatus === 'canceled') {
      throw new ApiError(409, 'order_closed', 'This order is no longer open for payment');
    }
    // After formModifyExpiresAt, declared details can no longer be corrected; an unpaid order can
    // still be paid until its payment deadline (the pay page sends its choice through here).
    if (
      order.paymentStatus === 'checking' &&
      event.formModifyExpiresAt &&
      event.formModifyExpiresAt.getTime() < ctx.now.getTime()
    ) {
      throw new ApiError(409, 'form_modify_expired', 'Order details can no longer be changed');
    }
    // An unpaid order past its deadline is overdue even before the expiry run marks it so: a
    // transfer declared now does not count (spec §4, transfer instruction).
    if (
      order.paymentStatus === 'pending' &&
      order.paymentExpiresAt &&
      order.paymentExpiresAt.getTime() < ctx.now.getTime()
    ) {
      throw new ApiError(409, 'order_closed', 'The payment deadline of this order has passed');
    }
    const { payment, receipt } = input.update;
    if (payment) {
      if (order.paymentStatus === 'checking' && !isTransfer(payment.type)) {
        throw new ApiError(
          409,
          'payment_type_locked',
          'A transfer awaiting confirmation cannot switch to card payment',
        );
      }
      if (isTransfer(payment.type)) {
        const currency = currencyOf(payment.type);
        const unit = currency === 'USD' ? event.priceCentsUsd : event.priceCentsTwd;
        if (unit <= 0) throw new ApiError(400, 'currency_unavailable', `This order cannot be paid in ${currency}`);
        const amount = unit * order.quantity;
        await tx
          .update(payments)
          .set({
            type: payment.type,
            status: 'checking',
            remitter: payment.remitter || null,
            senderBank: payment.senderBank || null,
            lastFiveDigits: payment.lastFiveDigits!,
            amountTwd: currency === 'TWD' ? amount : null,
            amountUsd: currency === 'USD' ? amount : null,
            updatedAt: ctx.now,
          })
          .where(eq(payments.orderId, order.id));
        await tx
          .update(orders)
          .set({ paymentStatus: 'checking', currency, amountCents: amount, updatedAt: ctx.now })
          .where(eq(orders.id, order.id));
        await ensureBadge(tx, order.id, ctx.pickupSecret);
      } else {
        await tx
          .update(payments)
          .set({ type: 'credit_card', remitter: null, senderBank: null, lastFiveDigits: null, updatedAt: ctx.now })
          .where(eq(payments.orderId, order.id));
      }
    }
    if (receipt) {
      const values = {
        kind: receipt.kind,
        invoiceTitle: receipt.invoiceTitle || null,
        unifiedBusinessNumber: receipt.kind === 'company' ? receipt.unifiedBusinessNumber || null : null,
        updatedAt: ctx.now,
      };
      await tx
        .insert(receipts)
        .values({ orderId: order.id, ...values })
        .onConflictDoUpdate({ target: receipts.orderId, set: values });
    }
  });
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
  | { outcome: 'rejected'; reason: string; orderId?: string };

/** The order number inside a MerchantOrderNo (`{orderNo}_{attempt}`). */
export const orderNoOf = (merchantOrderNo: string) => merchantOrderNo.split('_')[0] ?? '';

/**
 * Applies a verified gateway result to its order. Idempotent: the gateway repeats notifications
 * and the browser return carries the same result; only the first success changes anything.
 */
export async function applyGatewayResult(db: Db, result: GatewayResult, ctx: PaymentContext): Promise<GatewayOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ order: orders, priceCentsTwd: events.priceCentsTwd })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(eq(orders.orderNo, orderNoOf(result.merchantOrderNo)))
      .for('update', { of: orders })
      .limit(1);
    if (!row) return { outcome: 'rejected', reason: 'unknown_order' };
    const { order } = row;
    // Cards are charged in TWD. An order since switched to a USD transfer (another tab, or the
    // pay page after an abandoned card attempt) was charged what startCardAttempt asked for.
    const cardCents = order.currency === 'TWD' ? order.amountCents : row.priceCentsTwd * order.quantity;
    if (Math.round(cardCents / 100) !== result.amount) {
      return { outcome: 'rejected', reason: 'amount_mismatch', orderId: order.id };
    }
    if (result.status === 'SUCCESS') {
      if (order.paymentStatus === 'paid') {
        const [payment] = await tx
          .select({ tradeNo: payments.gatewayTradeNo })
          .from(payments)
          .where(eq(payments.orderId, order.id))
          .limit(1);
        // The same trade again is a repeat; another trade is a second charge the operator refunds.
        if (result.tradeNo && payment?.tradeNo && payment.tradeNo !== result.tradeNo) {
          return { outcome: 'rejected', reason: 'duplicate_charge', orderId: order.id };
        }
        return { outcome: 'already_paid', orderId: order.id };
      }
      if (!['pending', 'checking', 'overdue'].includes(order.paymentStatus)) {
        return { outcome: 'rejected', reason: `order_${order.paymentStatus}`, orderId: order.id };
      }
      const paid = await payOrder(tx, order.id, ctx, {
        order: { currency: 'TWD', amountCents: cardCents },
        payment: {
          type: 'credit_card',
          amountTwd: cardCents,
          amountUsd: null,
          gatewayTradeNo: result.tradeNo ?? null,
          gatewayStatus: result.status,
          gatewayMessage: result.message,
          gatewayAt: ctx.now,
        },
      });
      // Charged, but the order cannot become paid: the operator refunds (see the notification log).
      if (!paid) return { outcome: 'rejected', reason: 'order_superseded', orderId: order.id };
      return { outcome: 'paid', orderId: order.id };
    }
    if (order.paymentStatus !== 'pending') return { outcome: 'ignored', orderId: order.id };
    const attempt = Number(result.merchantOrderNo.split('_')[1]);
    const [current] = await tx
      .select({ attempts: payments.cardAttempts })
      .from(payments)
      .where(eq(payments.orderId, order.id))
      .limit(1);
    if (current && Number.isInteger(attempt) && attempt !== current.attempts)
      return { outcome: 'ignored', orderId: order.id };
    await tx
      .update(payments)
      .set({ gatewayStatus: result.status, gatewayMessage: result.message, gatewayAt: ctx.now, updatedAt: ctx.now })
      .where(eq(payments.orderId, order.id));
    return { outcome: 'declined', orderId: order.id };
  });
}

/**
 * Marks an order paid and issues its badge, inside a savepoint: an overdue order whose owner has
 * since registered again (a new live order for the event, or another badge) cannot become paid
 * without breaking the one-live-order and one-badge constraints; then nothing changes and the
 * answer is false.
 */
async function payOrder(
  tx: Tx,
  orderId: string,
  ctx: PaymentContext,
  extra: { order?: Partial<typeof orders.$inferInsert>; payment?: Partial<typeof payments.$inferInsert> } = {},
): Promise<boolean> {
  try {
    await tx.transaction(async (sp) => {
      const [current] = await sp
        .select({ holdsSeat: orders.holdsSeat, eventId: orders.eventId, status: orders.paymentStatus })
        .from(orders)
        .where(eq(orders.id, orderId))
        .limit(1);
      // An overdue order gave its seat back: paying late takes one again, if one is left.
      if (current && !current.holdsSeat && current.status === 'overdue') {
        const [event] = await sp
          .select({ capacity: events.capacity })
          .from(events)
          .where(eq(events.id, current.eventId))
          .limit(1);
        if (event?.capacity !== null && event?.capacity !== undefined) {
          const [seat] = await sp
            .update(events)
            .set({ seatsTaken: sql`${events.seatsTaken} + 1` })
            .where(and(eq(events.id, current.eventId), lt(events.seatsTaken, events.capacity)))
            .returning({ id: events.id });
          if (!seat) throw new Superseded();
          extra = { ...extra, order: { ...extra.order, holdsSeat: true } };
        }
      }
      await sp
        .update(orders)
        .set({ ...extra.order, paymentStatus: 'paid', paidAt: ctx.now, updatedAt: ctx.now })
        .where(eq(orders.id, orderId));
      await sp
        .update(payments)
        .set({ ...extra.payment, status: 'paid', paidAt: ctx.now, updatedAt: ctx.now })
        .where(eq(payments.orderId, orderId));
      await ensureBadge(sp, orderId, ctx.pickupSecret);
      // ensureBadge skips silently when the user or e-mail already has a badge: that is the same conflict.
      const [badge] = await sp.select({ id: badges.id }).from(badges).where(eq(badges.orderId, orderId)).limit(1);
      const [order] = await sp
        .select({ type: orders.registrationType })
        .from(orders)
        .where(eq(orders.id, orderId))
        .limit(1);
      if (!badge && BADGE_TYPES.includes(order!.type)) throw new Superseded();
    });
    return true;
  } catch (error) {
    if (error instanceof Superseded || isUniqueViolation(error)) return false;
    throw error;
  }
}
class Superseded extends Error {}

/** Operator: confirms a transfer (or any unpaid order) as paid. */
export async function markPaid(db: Db, orderNo: string, ctx: PaymentContext): Promise<'paid' | 'already_paid'> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.orderNo, orderNo)).for('update').limit(1);
    if (!order) throw notFound('Order');
    if (order.paymentStatus === 'paid') return 'already_paid';
    if (!['pending', 'checking', 'overdue'].includes(order.paymentStatus)) {
      throw new ApiError(409, 'order_not_payable', `Order is ${order.paymentStatus}`);
    }
    if (!(await payOrder(tx, order.id, ctx))) {
      throw new ApiError(409, 'order_superseded', 'The owner has another live order or badge since this order lapsed');
    }
    return 'paid';
  });
}

/** Starts a card attempt: card as the type, a fresh MerchantOrderNo, and when it began. */
export async function startCardAttempt(db: Db, input: { userId: string; orderId: string }, ctx: PaymentContext) {
  if (!isUuid(input.orderId)) throw notFound('Order');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ order: orders, event: events, payment: payments })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .innerJoin(payments, eq(payments.orderId, orders.id))
      .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)))
      .for('update', { of: orders })
      .limit(1);
    if (!row) throw notFound('Order');
    const { order, event, payment } = row;
    if (order.paymentStatus !== 'pending') {
      throw new ApiError(
        409,
        order.paymentStatus === 'paid' ? 'order_paid' : 'order_not_payable',
        `Order is ${order.paymentStatus}`,
      );
    }
    if (order.paymentExpiresAt && order.paymentExpiresAt.getTime() < ctx.now.getTime()) {
      throw new ApiError(409, 'order_closed', 'The payment deadline of this order has passed');
    }
    // Card payments are charged in TWD (the gateway's Amt is whole TWD).
    const amountCents = event.priceCentsTwd * order.quantity;
    if (amountCents < 100) throw new ApiError(409, 'currency_unavailable', 'This order cannot be paid by card in TWD');
    const attempt = payment.cardAttempts + 1;
    await tx.update(orders).set({ currency: 'TWD', amountCents, updatedAt: ctx.now }).where(eq(orders.id, order.id));
    await tx
      .update(payments)
      .set({
        type: 'credit_card',
        cardAttempts: attempt,
        cardStartedAt: ctx.now,
        amountTwd: amountCents,
        amountUsd: null,
        updatedAt: ctx.now,
      })
      .where(eq(payments.orderId, order.id));
    return { order: { ...order, amountCents }, event, merchantOrderNo: `${order.orderNo}_${attempt}` };
  });
}
