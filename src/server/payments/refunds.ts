/**
 * Card refunds through NewebPay (issue 22, decision 056). The back office's refund of a card
 * payment asks the gateway for the trade's settlement state (QueryTradeInfo CloseStatus), then
 * cancels the authorisation (unsettled), cancels a waiting payment request, or refunds (settled);
 * every call and its answer is a payment_refunds row, and only the gateway's agreement goes
 * through markRefunded (the payment refunded once nothing is left, the order's `refunded` event,
 * the registrant's mail). A refusal changes nothing else and answers the gateway's code.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CardRefunded } from '@domain/contract/reconciliation';
import { DomainError, notFoundError } from '@domain/errors';
import { isUuid } from '@domain/validation';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/db-errors';
import { invoiceActions, invoices, orderPayments, paymentRefunds } from '../db/schema';
import { INVOICE_REASONS, voidable } from '@domain/invoices';
import type { ActorRef } from '../orders/order-state';
import { refundCallFor, type CardApi, type GatewayAnswer } from './newebpay-api';
import { markRefunded, refundedCents, type PaymentContext } from './payments';

export type CardRefundInput = {
  paymentId: string;
  /** Cents (whole TWD); default: all that is left of the payment. */
  amountCents?: number | undefined;
  reason: string;
};

/** What a card refund did: the wire type the back office's API answers with. */
export type CardRefundResult = CardRefunded;

/** Refunds a card payment through the gateway; throws DomainError on any refusal (nothing changed). */
export async function refundCardPayment(
  db: Db,
  api: CardApi,
  input: CardRefundInput,
  ctx: Pick<PaymentContext, 'now'>,
  actor: ActorRef,
): Promise<CardRefundResult> {
  if (!isUuid(input.paymentId)) throw notFoundError('Payment');
  const [payment] = await db.select().from(orderPayments).where(eq(orderPayments.id, input.paymentId));
  if (!payment) throw notFoundError('Payment');
  if (payment.method !== 'credit_card' || !payment.merchantOrderNo || payment.currency !== 'TWD')
    throw new DomainError('not_refundable');
  if (payment.status !== 'paid' && payment.status !== 'refund_due') throw new DomainError('not_refund_due');
  const balance = payment.amountCents - (await refundedCents(db, payment.id));
  const amountCents = input.amountCents ?? balance;
  // The gateway takes whole TWD.
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > balance || amountCents % 100 !== 0)
    throw new DomainError('refund_exceeds_balance');
  const merchantOrderNo = payment.merchantOrderNo;
  const timestamp = () => Math.floor(ctx.now.getTime() / 1000);

  // One call at a time per payment (the partial unique index): a second click waits its turn.
  let refundId: string;
  try {
    const [row] = await db
      .insert(paymentRefunds)
      .values({
        paymentId: payment.id,
        orderId: payment.orderId,
        amountCents,
        currency: payment.currency,
        kind: 'refund',
        outcome: 'pending',
        reason: input.reason,
        actor: actor.kind,
        actorId: actor.id ?? null,
        gatewayTradeNo: payment.gatewayTradeNo,
        createdAt: ctx.now,
      })
      .returning({ id: paymentRefunds.id });
    refundId = row!.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('refund_in_progress');
    throw error;
  }

  const close = async (outcome: 'refused' | 'failed', answer: GatewayAnswer, kind?: 'cancel' | 'refund') => {
    await db
      .update(paymentRefunds)
      .set({
        outcome,
        ...(kind ? { kind } : {}),
        gatewayStatus: answer.status,
        gatewayMessage: answer.message.slice(0, 500),
        answeredAt: ctx.now,
      })
      .where(eq(paymentRefunds.id, refundId));
  };
  const refusal = (answer: GatewayAnswer) =>
    answer.status === 'unreachable' || answer.status.startsWith('http_') || answer.status === 'bad_answer'
      ? new DomainError('gateway_unavailable', undefined, { gateway_status: answer.status })
      : new DomainError('refund_refused', `The gateway refused the refund: ${answer.status} ${answer.message}`.trim(), {
          gateway_status: answer.status,
          gateway_message: answer.message,
        });

  const amount = payment.amountCents / 100;
  const state = await api.query({ merchantOrderNo, amount, timestamp: timestamp() });
  if (!state.ok) {
    await close(state.answer.status === 'unreachable' ? 'failed' : 'refused', state.answer);
    throw refusal(state.answer);
  }
  const call = refundCallFor(state.closeStatus);
  const kind = call.api === 'close' && call.closeType === 2 ? 'refund' : 'cancel';
  // Cancelling (an authorisation, a waiting payment request) is all or nothing.
  if (kind === 'cancel' && amountCents !== payment.amountCents) {
    const answer = {
      ok: false,
      status: 'partial_refund_unsettled',
      message: `CloseStatus ${state.closeStatus}`,
      tradeNo: null,
    };
    await close('refused', answer, kind);
    throw new DomainError('partial_refund_unsettled');
  }
  const answer = await api.refund(call, { merchantOrderNo, amount: amountCents / 100, timestamp: timestamp() });
  if (!answer.ok) {
    await close(answer.status === 'unreachable' || answer.status === 'bad_answer' ? 'failed' : 'refused', answer, kind);
    throw refusal(answer);
  }
  await db
    .update(paymentRefunds)
    .set({
      kind,
      gatewayStatus: answer.status,
      gatewayMessage: answer.message.slice(0, 500),
      gatewayTradeNo: answer.tradeNo ?? payment.gatewayTradeNo,
    })
    .where(eq(paymentRefunds.id, refundId));
  const record = await markRefunded(db, payment.id, ctx, actor, answer.tradeNo ?? payment.gatewayTradeNo, {
    amountCents,
    refundId,
    reason: input.reason,
  });
  return {
    refundId,
    paymentId: payment.id,
    kind,
    amountCents,
    currency: payment.currency,
    paymentStatus: record.status,
    gatewayTradeNo: answer.tradeNo ?? payment.gatewayTradeNo,
  };
}

/**
 * What a card refund of this payment would do, asked before it is made (the back office's confirm
 * dialog): the gateway's call by the trade's settlement state (cancel the authorisation, whole
 * amount only, or refund, in part too), what is left to refund, and the invoice's side (void
 * within the period for a whole refund, else an allowance). A gateway that cannot be asked leaves
 * `gatewayCall` null (the refund itself will say why).
 */
export async function cardRefundPreview(db: Db, api: CardApi | undefined, paymentId: string, now: Date) {
  if (!isUuid(paymentId)) throw notFoundError('Payment');
  const [payment] = await db.select().from(orderPayments).where(eq(orderPayments.id, paymentId));
  if (!payment) throw notFoundError('Payment');
  if (payment.method !== 'credit_card' || !payment.merchantOrderNo || payment.currency !== 'TWD')
    throw new DomainError('not_refundable');
  if (payment.status !== 'paid' && payment.status !== 'refund_due') throw new DomainError('not_refund_due');
  const refunded = await refundedCents(db, payment.id);
  const balanceCents = payment.amountCents - refunded;
  let gatewayCall: 'cancel' | 'refund' | null = null;
  let gatewayStatus: string | null = null;
  if (!api) gatewayStatus = 'unreachable';
  else {
    const state = await api.query({
      merchantOrderNo: payment.merchantOrderNo,
      amount: payment.amountCents / 100,
      timestamp: Math.floor(now.getTime() / 1000),
    });
    if (state.ok) {
      const call = refundCallFor(state.closeStatus);
      gatewayCall = call.api === 'close' && call.closeType === 2 ? 'refund' : 'cancel';
    } else gatewayStatus = state.answer.status;
  }
  // The invoice side, as queueInvoiceAfterRefund will decide it (a charge that never paid the order: none).
  const [invoice] = payment.paidAt
    ? await db.select().from(invoices).where(eq(invoices.orderId, payment.orderId)).limit(1)
    : [];
  let invoiceWhole: 'void' | 'allowance' | 'none' = 'none';
  let invoicePartial: 'allowance' | 'none' = 'none';
  if (invoice && invoice.status !== 'void') {
    const voiding = await db
      .select({ id: invoiceActions.id })
      .from(invoiceActions)
      .where(and(eq(invoiceActions.invoiceId, invoice.id), eq(invoiceActions.kind, 'void')))
      .limit(1);
    if (voiding.length === 0) {
      const untouched = invoice.remainingTwd === invoice.amountTwd;
      const inPeriod = !invoice.issuedAt || voidable(invoice.issuedAt, now);
      invoiceWhole = untouched && inPeriod && balanceCents / 100 >= invoice.remainingTwd ? 'void' : 'allowance';
      invoicePartial = invoice.remainingTwd > 0 ? 'allowance' : 'none';
      if (invoiceWhole === 'allowance' && invoice.remainingTwd <= 0) invoiceWhole = 'none';
    }
  }
  return {
    paymentId: payment.id,
    currency: payment.currency,
    amountCents: payment.amountCents,
    refundedCents: refunded,
    balanceCents,
    gatewayCall,
    gatewayStatus,
    /** A part of the balance: only once settled (before, a cancel is all or nothing). */
    partialAllowed: gatewayCall === 'refund' && balanceCents > 100,
    invoice: invoice
      ? { number: invoice.number, status: invoice.status, whole: invoiceWhole, partial: invoicePartial }
      : null,
  };
}

/** The money that went back for orders (succeeded refunds), oldest first, by order. */
export async function refundsOf(db: Db, orderIds: string[]) {
  const out = new Map<
    string,
    { amountCents: number; currency: string; at: Date; kind: string; reason: string | null }[]
  >();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({
      orderId: paymentRefunds.orderId,
      amountCents: paymentRefunds.amountCents,
      currency: paymentRefunds.currency,
      at: paymentRefunds.answeredAt,
      createdAt: paymentRefunds.createdAt,
      kind: paymentRefunds.kind,
      reason: paymentRefunds.reason,
    })
    .from(paymentRefunds)
    .where(and(inArray(paymentRefunds.orderId, orderIds), eq(paymentRefunds.outcome, 'succeeded')))
    .orderBy(asc(paymentRefunds.createdAt));
  for (const r of rows) {
    const list = out.get(r.orderId) ?? [];
    // The reason is the registrant's to read when it is one of the portal's codes; the organiser's own words stay in the back office.
    const reason = r.reason && (INVOICE_REASONS as readonly string[]).includes(r.reason) ? r.reason : null;
    list.push({ amountCents: r.amountCents, currency: r.currency, at: r.at ?? r.createdAt, kind: r.kind, reason });
    out.set(r.orderId, list);
  }
  return out;
}

/** Every refund call of a payment's order, newest first (the back office's order page). */
export async function refundCallsOf(db: Db, orderId: string) {
  return db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.orderId, orderId))
    .orderBy(asc(paymentRefunds.createdAt));
}
