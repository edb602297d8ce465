/**
 * ATM transfers through NewebPay virtual accounts (VACC, issue 22, decision 057). When the
 * order's edition has them on, "ATM transfer" is an MPG trade with VACC=1: the gateway hands out a
 * bank code, an account number and a deadline for this order (form-posted through the browser to
 * CustomerURL), the registrant pays at any ATM or web bank, and the gateway's notification pays
 * the order (applyGatewayResult: no last five digits, no statement import). An account past its
 * deadline is expired; the order lapses at its own deadline like any unpaid order, freeing its seat.
 */
import { and, desc, eq, lt } from 'drizzle-orm';
import { DomainError, notFoundError } from '@domain/errors';
import { isUuid } from '@domain/validation';
import type { Db, Tx } from '../db/client';
import { editions, events, orderPayments, orders, virtualAccounts } from '../db/schema';
import { loadOrderFacts, originFor, queueEmail, type MailSettings } from '../mail/outbox';
import { atmAccountMail, linkOn } from '../mail/templates';
import { lockOrder } from '../orders/order-state';
import type { MpgResult } from './newebpay';
import { orderNoOf, startGatewayAttempt, type PaymentContext } from './payments';

/** MPG offers ATM up to this many TWD a trade (reference ezpay-invoice.md §B): above, remittance only. */
export const ATM_LIMIT_TWD = 49_999;
/** The gateway keeps an account open at most this many days. */
const MAX_ACCOUNT_DAYS = 180;
const DAY = 24 * 60 * 60 * 1000;
const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000;

/** Whether an order of this total can be paid by ATM (whole TWD, within the channel's limit). */
export const atmFits = (totalTwdCents: number) =>
  totalTwdCents >= 100 && totalTwdCents % 100 === 0 && totalTwdCents <= ATM_LIMIT_TWD * 100;

/**
 * ATM_VIRTUAL_ACCOUNTS: whether editions that do not say (atm_enabled null) take virtual accounts.
 * Set once by the server app from its configuration.
 */
let enabledByDefault = false;
export const setAtmDefault = (enabled: boolean) => {
  enabledByDefault = enabled;
};

/** What an edition's setting means: its own, else the configuration's default. */
export const atmSetting = (column: boolean | null | undefined) => column ?? enabledByDefault;

/** Whether the event's edition (else the current one) takes ATM virtual accounts. */
export async function atmEnabledFor(db: Db | Tx, eventId: string | null): Promise<boolean> {
  const [row] = eventId
    ? await db
        .select({ atm: editions.atmEnabled })
        .from(events)
        .innerJoin(editions, eq(editions.id, events.editionId))
        .where(eq(events.id, eventId))
        .limit(1)
    : await db.select({ atm: editions.atmEnabled }).from(editions).where(eq(editions.isCurrent, true)).limit(1);
  return atmSetting(row?.atm);
}

/** The `Ymd` (Taipei) of an instant, as MPG's ExpireDate. */
const ymd = (at: Date) => new Date(at.getTime() + TAIPEI_OFFSET_MS).toISOString().slice(0, 10).replace(/-/g, '');

/**
 * Starts an MPG trade for an ATM virtual account of the caller's unpaid order: the order's
 * payment type becomes `atm` (no declared transfer), a payment record `{orderNo}_{attempt}` is
 * started, and the account's last day is the order's deadline's (Taipei).
 */
export async function startAtmAttempt(db: Db, input: { userId: string; orderId: string }, ctx: PaymentContext) {
  if (!isUuid(input.orderId)) throw notFoundError('Order');
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, and(eq(orders.id, input.orderId), eq(orders.userId, input.userId))!);
    if (!locked) throw notFoundError('Order');
    const { order, event } = locked;
    if (!(await atmEnabledFor(tx, event.id)))
      throw new DomainError('currency_unavailable', 'ATM virtual accounts are not offered for this edition');
    if (order.paymentStatus === 'pending' && !atmFits(order.totalTwdCents)) throw new DomainError('atm_over_limit');
    const { order: updated, merchantOrderNo, amount } = await startGatewayAttempt(tx, locked, 'atm', input.userId, ctx);
    const lastDay = new Date(
      Math.min(
        (updated.paymentExpiresAt ?? new Date(ctx.now.getTime() + 7 * DAY)).getTime(),
        ctx.now.getTime() + MAX_ACCOUNT_DAYS * DAY,
      ),
    );
    return { order: updated, event, merchantOrderNo, amount, expireDate: ymd(lastDay) };
  });
}

/** `YYYY-MM-DD` + `HH:mm:ss` in Taipei as an instant. */
function taipeiInstant(date: string, time = '23:59:59'): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2}):(\d{2})$/.exec(time);
  if (!m || !t) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +t[1]!, +t[2]!, +t[3]!) - TAIPEI_OFFSET_MS);
}

export type AccountOutcome =
  { outcome: 'issued' | 'seen'; orderId: string } | { outcome: 'rejected'; reason: string; orderId?: string };

/**
 * The gateway's 取號 answer (CustomerURL, verified): keeps the account with the order and mails
 * it, once (a repeat changes nothing).
 */
export async function recordVirtualAccount(
  db: Db,
  status: string,
  result: MpgResult,
  ctx: Pick<PaymentContext, 'now'>,
  mail: MailSettings,
): Promise<AccountOutcome> {
  if ((status !== 'SUCCESS' && status !== 'CUSTOM') || result.PaymentType !== 'VACC')
    return { outcome: 'rejected', reason: 'not_an_account' };
  const expiresAt = taipeiInstant(result.ExpireDate ?? '', result.ExpireTime || undefined);
  const { BankCode: bankCode, CodeNo: accountNo } = result;
  if (!bankCode || !accountNo || !expiresAt) return { outcome: 'rejected', reason: 'bad_result' };
  return db.transaction(async (tx) => {
    const [record] = await tx
      .select({ orderId: orderPayments.orderId, amountCents: orderPayments.amountCents, orderNo: orders.orderNo })
      .from(orderPayments)
      .innerJoin(orders, eq(orders.id, orderPayments.orderId))
      .where(and(eq(orderPayments.merchantOrderNo, result.MerchantOrderNo), eq(orderPayments.method, 'atm')))
      .limit(1);
    if (!record || record.orderNo !== orderNoOf(result.MerchantOrderNo))
      return { outcome: 'rejected', reason: 'unknown_order' };
    if (record.amountCents !== result.Amt * 100)
      return { outcome: 'rejected', reason: 'amount_mismatch', orderId: record.orderId };
    const [inserted] = await tx
      .insert(virtualAccounts)
      .values({
        orderId: record.orderId,
        merchantOrderNo: result.MerchantOrderNo,
        amountCents: record.amountCents,
        bankCode,
        accountNo,
        expiresAt,
        gatewayTradeNo: result.TradeNo || null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .onConflictDoNothing({ target: virtualAccounts.merchantOrderNo })
      .returning({ id: virtualAccounts.id });
    if (!inserted) return { outcome: 'seen', orderId: record.orderId };
    const loaded = await loadOrderFacts(tx, record.orderId);
    if (loaded)
      await queueEmail(tx, mail, {
        key: `atm-account:${result.MerchantOrderNo}`,
        template: 'atm_account',
        recipient: loaded.facts.email,
        locale: loaded.locale,
        content: atmAccountMail(
          loaded.facts,
          { bankCode, accountNo, expiresAt },
          linkOn(originFor(mail, loaded.siteOrigin)),
        ),
        orderId: record.orderId,
        now: ctx.now,
      });
    return { outcome: 'issued', orderId: record.orderId };
  });
}

/** Accounts past their deadline, unpaid, become expired (the worker, beside the orders' expiry). */
export async function expireVirtualAccounts(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(virtualAccounts)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(virtualAccounts.status, 'issued'), lt(virtualAccounts.expiresAt, now)))
    .returning({ id: virtualAccounts.id });
  return rows.length;
}

/** The latest account of an order (the order and pay pages show it). */
export async function virtualAccountOf(db: Db, orderId: string) {
  const [row] = await db
    .select()
    .from(virtualAccounts)
    .where(eq(virtualAccounts.orderId, orderId))
    .orderBy(desc(virtualAccounts.createdAt))
    .limit(1);
  return row;
}
