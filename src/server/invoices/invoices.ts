/**
 * E-invoices of paid orders (issue 22, decision 051): queued in the transaction where an order
 * becomes paid (the order core publishes every change here, for every kind), issued, voided and
 * credited (allowance) at ezPay by the invoice pass of the background worker, never inside the
 * payment request. Each call is claimed with a lease (`next_attempt_at` moved ahead, attempts
 * counted) in a short transaction, made outside any transaction, and its answer stored; a failure
 * is retried with backoff (1 min, 2, 4 … 6 h). Nothing is issued twice: one invoice row per order
 * (order_id unique), its order number the MerchantOrderNo ezPay refuses twice (LIB10003), after
 * which the invoice is found again by `invoice_search`.
 */
import { and, asc, desc, eq, ilike, inArray, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import { invoiceAmounts, voidable, type InvoiceStatus } from '@domain/invoices';
import type { Invoice, InvoiceAction } from '@domain/contract/invoices';
import type { Sendable } from '@domain/contract';
import type { Db, Tx } from '../db/client';
import {
  events,
  invoiceActions,
  invoices,
  invoiceSettings,
  orderPayments,
  orders,
  receipts,
  users,
} from '../db/schema';
import { retryDelayMs } from '../orders/order-events';
import type { OrderChange } from '../kinds/parts';
import { loadOrderFacts, queueEmail, type MailSettings } from '../mail/outbox';
import { linkOn } from '../mail/templates';
import {
  allowanceParams,
  checkCode,
  checkCodeMatches,
  issueParams,
  searchParams,
  voidParams,
  type EzpayAnswer,
  type EzpayClient,
} from './ezpay';
import { invoiceMail } from './invoice-mail';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceActionRow = typeof invoiceActions.$inferSelect;

/** How long a claimed call is left to its worker before another may make it again. */
export const CALL_LEASE_MS = 2 * 60_000;

/** The edition's invoice settings; none stored: enabled, items named after their event. */
export async function invoiceSettingsOf(db: Db | Tx, editionId: string | null) {
  if (!editionId) return { enabled: true, itemNames: {} as Record<string, { en: string; zh: string }> };
  const [row] = await db.select().from(invoiceSettings).where(eq(invoiceSettings.editionId, editionId)).limit(1);
  return { enabled: row?.enabled ?? true, itemNames: row?.itemNames ?? {} };
}

type ChangeFacts = {
  before: Pick<OrderChange['after'], 'paymentStatus'> | null;
  after: Pick<OrderChange['after'], 'paymentStatus'>;
  happened: OrderChange['happened'];
};
const issuesInvoice = ({ before, after }: ChangeFacts) =>
  after.paymentStatus === 'paid' && before?.paymentStatus !== 'paid';
const reversesInvoice = ({ before, happened }: ChangeFacts) =>
  happened === 'canceled' && before?.paymentStatus === 'paid';

/** Whether invoiceOnChange does anything for a change (the order core places most orders in one statement when not). */
export const invoiceActsOn = (change: ChangeFacts) => issuesInvoice(change) || reversesInvoice(change);

/**
 * The order core's hook (every kind, in the change's transaction): an order that becomes paid
 * gets its invoice queued; a paid order canceled gets its invoice voided (or, past the period a
 * void is allowed in, credited in full).
 */
export async function invoiceOnChange(change: OrderChange): Promise<void> {
  const { tx, after, now } = change;
  if (issuesInvoice(change)) await queueIssue(tx, change);
  if (reversesInvoice(change)) {
    const reason =
      typeof change.payload?.reason === 'string' && change.payload.reason.trim()
        ? change.payload.reason.trim()
        : 'order_canceled';
    await queueReversal(tx, { orderId: after.id, key: 'cancel', reason, now });
  }
}

/**
 * Queues the invoice of an order just paid (idempotent: one per order). No invoice for a free
 * order, for one paid in USD (decision 051: a remittance from abroad, invoiced by the accountant),
 * or when the edition's invoices are off.
 */
async function queueIssue(tx: Tx, { event, after, now }: OrderChange) {
  if (after.currency !== 'TWD' || after.amountCents <= 0) return;
  const settings = await invoiceSettingsOf(tx, event.editionId);
  if (!settings.enabled) return;
  const [buyer] = await tx
    .select({ email: users.email, name: users.name, receipt: receipts })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .where(eq(orders.id, after.id))
    .limit(1);
  if (!buyer) return;
  const receipt = buyer.receipt;
  const b2b = receipt?.kind === 'company' && !!receipt.unifiedBusinessNumber;
  const totalTwd = Math.round(after.amountCents / 100);
  const { tax } = invoiceAmounts(totalTwd);
  const zh = after.locale === 'zh-TW';
  const named = settings.itemNames[event.type];
  const itemName =
    (zh ? named?.zh || named?.en : named?.en || named?.zh) || (zh ? event.nameZh || event.nameEn : event.nameEn);
  await tx
    .insert(invoices)
    .values({
      orderId: after.id,
      editionId: event.editionId,
      kind: b2b ? 'b2b' : 'b2c',
      merchantOrderNo: after.orderNo,
      buyerName: b2b ? receipt!.invoiceTitle || buyer.email : buyer.name?.trim() || buyer.email.split('@')[0]!,
      buyerUbn: b2b ? receipt!.unifiedBusinessNumber : null,
      buyerEmail: buyer.email,
      carrierType: b2b ? 'none' : (receipt?.carrierType ?? 'ezpay'),
      carrierNumber: b2b ? null : (receipt?.carrierNumber ?? null),
      loveCode: b2b ? null : (receipt?.loveCode ?? null),
      itemName,
      amountTwd: totalTwd,
      tax,
      remainingTwd: totalTwd,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

/**
 * A void, or past the period a void is allowed in, an allowance of what is left: queued once per
 * `key`. An invoice already void (or being voided) needs nothing more.
 */
async function queueReversal(
  tx: Tx,
  input: { orderId: string; key: string; reason: string; now: Date; amountTwd?: number },
) {
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.orderId, input.orderId)).for('update').limit(1);
  if (!invoice || invoice.status === 'void') return;
  const voiding = await tx
    .select({ id: invoiceActions.id })
    .from(invoiceActions)
    .where(and(eq(invoiceActions.invoiceId, invoice.id), eq(invoiceActions.kind, 'void')))
    .limit(1);
  if (voiding.length) return;
  const amount = Math.min(input.amountTwd ?? invoice.remainingTwd, invoice.remainingTwd);
  // Not issued yet, or issued within the period: voided whole (a void cannot be partial).
  const full = amount >= invoice.remainingTwd && invoice.remainingTwd === invoice.amountTwd;
  const canVoid = full && (!invoice.issuedAt || voidable(invoice.issuedAt, input.now));
  if (!canVoid && amount <= 0) return;
  await tx
    .insert(invoiceActions)
    .values({
      invoiceId: invoice.id,
      key: input.key,
      kind: canVoid ? 'void' : 'allowance',
      reason: input.reason,
      amountTwd: canVoid ? invoice.amountTwd : amount,
      nextAttemptAt: input.now,
      createdAt: input.now,
    })
    .onConflictDoNothing();
}

/**
 * The invoice side of a refund (called at the end of `markRefunded`'s transaction): money paid
 * back on an invoiced payment voids the invoice (whole, within the period) or credits the
 * refunded amount (allowance). A refund of a charge the invoice never covered (a duplicate
 * charge, one that could not settle the order: no `paid_at`) changes nothing.
 */
export async function queueInvoiceAfterRefund(
  tx: Tx,
  input: {
    orderId: string;
    paymentId: string;
    refundId: string;
    amountCents: number;
    reason: string | null;
    now: Date;
  },
): Promise<void> {
  const [payment] = await tx
    .select({ paidAt: orderPayments.paidAt, currency: orderPayments.currency })
    .from(orderPayments)
    .where(eq(orderPayments.id, input.paymentId))
    .limit(1);
  if (!payment?.paidAt || payment.currency !== 'TWD') return;
  await queueReversal(tx, {
    orderId: input.orderId,
    // One action per refund: a payment refunded in parts credits each part.
    key: `refund:${input.paymentId}:${input.refundId}`,
    reason: input.reason || 'refund',
    now: input.now,
    amountTwd: Math.round(input.amountCents / 100),
  });
}

/** ezPay's words for a reason the portal gives as a code (its InvalidReason is at most 20 characters). */
const EZPAY_REASONS: Record<string, string> = {
  order_canceled: '訂單取消',
  refund: '退款',
  duplicate_charge: '重複扣款退款',
  paid_by_transfer: '退款',
};
const ezpayReason = (reason: string) => EZPAY_REASONS[reason] ?? reason;

type PassOptions = {
  db: Db;
  client: EzpayClient;
  now: Date;
  mail: MailSettings;
  log?: (message: string, data?: Record<string, unknown>) => void;
};

/** Taipei `YYYY-MM-DD HH:mm:ss` (ezPay's CreateTime) as a Date; `fallback` if unreadable. */
const createTimeOf = (text: string | undefined, fallback: Date) => {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text ?? '');
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}+08:00`) : fallback;
};

/** The issue result, if its CheckCode is the merchant's (a forged or garbled answer is a failure). */
function verifiedIssue(answer: EzpayAnswer, client: EzpayClient): Record<string, string> | string {
  if (!answer.ok) return `${answer.status}: ${answer.message}`;
  const r = answer.result;
  const expected = checkCode(
    {
      InvoiceTransNo: r.InvoiceTransNo ?? '',
      MerchantID: r.MerchantID ?? '',
      MerchantOrderNo: r.MerchantOrderNo ?? '',
      RandomNum: r.RandomNum ?? '',
      TotalAmt: r.TotalAmt ?? '',
    },
    client.keys,
  );
  if (!checkCodeMatches(r.CheckCode, expected)) return 'CHECK_CODE: the answer did not verify';
  if (!/^[A-Z]{2}\d{8}$/.test(r.InvoiceNumber ?? '')) return 'BAD_RESULT: no invoice number';
  return r;
}

/** Queues the mail of an invoice change to the registrant, in the pass's transaction. */
async function queueInvoiceMail(
  tx: Tx,
  mail: MailSettings,
  invoice: InvoiceRow,
  template: 'invoice_issued' | 'invoice_voided' | 'invoice_allowance',
  key: string,
  now: Date,
  action?: InvoiceActionRow,
) {
  const loaded = await loadOrderFacts(tx, invoice.orderId);
  if (!loaded) return;
  const origin = mail.siteUrl ?? loaded.siteOrigin ?? mail.defaultOrigin;
  await queueEmail(tx, mail, {
    key,
    template,
    recipient: loaded.facts.email,
    locale: loaded.locale,
    content: invoiceMail(template, loaded.facts, invoice, action, linkOn(origin)),
    orderId: invoice.orderId,
    now,
  });
}

/** One due issue: claimed with a lease, issued (or found again), stored. Answers false when none was due. */
async function issueOne(options: PassOptions): Promise<boolean> {
  const { db, client, now } = options;
  const invoice = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invoices)
      .where(
        and(
          inArray(invoices.status, ['pending', 'failed']),
          lte(invoices.nextAttemptAt, now),
          // A void queued before the invoice was issued: it is never issued (the void pass closes it).
          notExists(
            tx
              .select({ id: invoiceActions.id })
              .from(invoiceActions)
              .where(and(eq(invoiceActions.invoiceId, invoices.id), eq(invoiceActions.kind, 'void'))),
          ),
        ),
      )
      .orderBy(asc(invoices.nextAttemptAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return undefined;
    const [claimed] = await tx
      .update(invoices)
      .set({ attempts: row.attempts + 1, nextAttemptAt: new Date(now.getTime() + CALL_LEASE_MS), updatedAt: now })
      .where(eq(invoices.id, row.id))
      .returning();
    return claimed;
  });
  if (!invoice) return false;
  let outcome: Record<string, string> | string;
  try {
    const input = { ...invoice, totalTwd: invoice.amountTwd };
    let answer = await client.call('invoice_issue', issueParams(input, now));
    // Issued before (a call whose answer was lost): ezPay refuses the order number again; find it.
    if (!answer.ok && answer.status === 'LIB10003')
      answer = await client.call(
        'invoice_search',
        searchParams({ merchantOrderNo: invoice.merchantOrderNo, totalTwd: invoice.amountTwd }, now),
      );
    outcome = verifiedIssue(answer, client);
  } catch (error) {
    outcome = `UNREACHABLE: ${String((error as Error)?.message ?? error)}`;
  }
  await db.transaction(async (tx) => {
    if (typeof outcome === 'string') {
      await tx
        .update(invoices)
        .set({
          status: 'failed',
          lastError: outcome.slice(0, 1000),
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(invoice.attempts)),
          updatedAt: now,
        })
        .where(and(eq(invoices.id, invoice.id), inArray(invoices.status, ['pending', 'failed'])));
      options.log?.('e-invoice not issued; retried later', {
        invoice: invoice.id,
        attempts: invoice.attempts,
        error: outcome,
      });
      return;
    }
    const [stored] = await tx
      .update(invoices)
      .set({
        status: 'issued',
        number: outcome.InvoiceNumber!,
        randomCode: outcome.RandomNum ?? null,
        invoiceTransNo: outcome.InvoiceTransNo ?? null,
        issuedAt: createTimeOf(outcome.CreateTime, now),
        lastError: null,
        updatedAt: now,
      })
      .where(and(eq(invoices.id, invoice.id), inArray(invoices.status, ['pending', 'failed'])))
      .returning();
    if (stored) await queueInvoiceMail(tx, options.mail, stored, 'invoice_issued', `invoice:${stored.id}:issued`, now);
  });
  return true;
}

/** One due void or allowance. Answers false when none was due. */
async function actOne(options: PassOptions): Promise<boolean> {
  const { db, client, now } = options;
  const claimed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ action: invoiceActions, invoice: invoices })
      .from(invoiceActions)
      .innerJoin(invoices, eq(invoices.id, invoiceActions.invoiceId))
      .where(and(inArray(invoiceActions.status, ['pending', 'failed']), lte(invoiceActions.nextAttemptAt, now)))
      .orderBy(asc(invoiceActions.nextAttemptAt))
      .limit(1)
      .for('update', { of: [invoiceActions, invoices], skipLocked: true });
    if (!row) return undefined;
    const { action, invoice } = row;
    if (!invoice.number) {
      // Never issued. A void closes it here, unless an issue call is in flight (its lease): then
      // the void waits for its answer. An allowance waits for the invoice.
      const inFlight = invoice.attempts > 0 && invoice.nextAttemptAt > now && invoice.status === 'pending';
      if (action.kind === 'void' && !inFlight) {
        await tx.update(invoices).set({ status: 'void', updatedAt: now }).where(eq(invoices.id, invoice.id));
        await tx.update(invoiceActions).set({ status: 'done', doneAt: now }).where(eq(invoiceActions.id, action.id));
        return 'closed' as const;
      }
      await tx
        .update(invoiceActions)
        .set({ nextAttemptAt: new Date(now.getTime() + 60_000) })
        .where(eq(invoiceActions.id, action.id));
      return 'waiting' as const;
    }
    await tx
      .update(invoiceActions)
      .set({ attempts: action.attempts + 1, nextAttemptAt: new Date(now.getTime() + CALL_LEASE_MS) })
      .where(eq(invoiceActions.id, action.id));
    return { action: { ...action, attempts: action.attempts + 1 }, invoice };
  });
  if (!claimed) return false;
  if (typeof claimed === 'string') return true;
  const { action, invoice } = claimed;
  let answer: EzpayAnswer | undefined;
  let error: string | undefined;
  try {
    if (action.kind === 'void') {
      answer = await client.call(
        'invoice_invalid',
        voidParams({ invoiceNumber: invoice.number!, reason: ezpayReason(action.reason) }, now),
      );
      // Void already (an answer lost before): done.
      if (!answer.ok && answer.status === 'LIB10005') answer = { ok: true, result: {} };
    } else {
      const { tax } = invoiceAmounts(action.amountTwd);
      answer = await client.call(
        'allowance_issue',
        allowanceParams({ ...invoice, invoiceNumber: invoice.number!, amountTwd: action.amountTwd, tax }, now),
      );
    }
    if (!answer.ok) error = `${answer.status}: ${answer.message}`;
  } catch (e) {
    error = `UNREACHABLE: ${String((e as Error)?.message ?? e)}`;
  }
  await db.transaction(async (tx) => {
    if (error || !answer?.ok) {
      await tx
        .update(invoiceActions)
        .set({
          status: 'failed',
          lastError: (error ?? '').slice(0, 1000),
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(action.attempts)),
        })
        .where(and(eq(invoiceActions.id, action.id), inArray(invoiceActions.status, ['pending', 'failed'])));
      options.log?.('e-invoice void or allowance not made; retried later', { action: action.id, error });
      return;
    }
    const [done] = await tx
      .update(invoiceActions)
      .set({ status: 'done', doneAt: now, lastError: null, allowanceNo: answer.result.AllowanceNo || null })
      .where(and(eq(invoiceActions.id, action.id), inArray(invoiceActions.status, ['pending', 'failed'])))
      .returning();
    if (!done) return;
    const remaining = action.kind === 'void' ? 0 : Math.max(0, invoice.remainingTwd - action.amountTwd);
    const status: InvoiceStatus = action.kind === 'void' ? 'void' : 'allowance';
    const [stored] = await tx
      .update(invoices)
      .set({ status, remainingTwd: remaining, updatedAt: now })
      .where(eq(invoices.id, invoice.id))
      .returning();
    await queueInvoiceMail(
      tx,
      options.mail,
      stored!,
      action.kind === 'void' ? 'invoice_voided' : 'invoice_allowance',
      `invoice-action:${done.id}`,
      now,
      done,
    );
  });
  return true;
}

/** Most calls one pass makes, so a backlog never starves the rest of the worker's pass. */
const PER_PASS = 20;

/** One pass of the invoice queue: voids and allowances, then issues. Tests call it directly. */
export async function invoicePass(options: PassOptions): Promise<{ calls: number }> {
  let calls = 0;
  while (calls < PER_PASS && (await actOne(options))) calls++;
  while (calls < PER_PASS && (await issueOne(options))) calls++;
  return { calls };
}

/** Back office: a failed invoice (or void/allowance) is tried again at the next pass. */
export async function retryInvoice(db: Db, invoiceId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const issued = await tx
      .update(invoices)
      .set({ nextAttemptAt: now, updatedAt: now })
      .where(and(eq(invoices.id, invoiceId), eq(invoices.status, 'failed')))
      .returning({ id: invoices.id });
    const actions = await tx
      .update(invoiceActions)
      .set({ nextAttemptAt: now })
      .where(and(eq(invoiceActions.invoiceId, invoiceId), eq(invoiceActions.status, 'failed')))
      .returning({ id: invoiceActions.id });
    return issued.length + actions.length > 0;
  });
}

const actionView = (a: InvoiceActionRow) =>
  ({
    kind: a.kind,
    status: a.status,
    reason: a.reason,
    amountTwd: a.amountTwd,
    allowanceNo: a.allowanceNo,
    at: a.doneAt ?? a.createdAt,
  }) satisfies Sendable<InvoiceAction>;

/** The wire view of an invoice (the order's `invoice`), with its voids and allowances. */
export function invoiceView(row: InvoiceRow, actions: InvoiceActionRow[]) {
  return {
    status: row.status,
    number: row.number,
    randomCode: row.randomCode,
    issuedAt: row.issuedAt,
    kind: row.kind,
    carrierType: row.carrierType,
    amountTwd: row.amountTwd,
    tax: row.tax,
    remainingTwd: row.remainingTwd,
    actions: actions.map(actionView),
  } satisfies Sendable<Invoice>;
}

/** The invoice of an order as the registrant sees it: null before it is issued (or when there is none). */
export async function orderInvoice(db: Db | Tx, orderId: string) {
  const [row] = await db.select().from(invoices).where(eq(invoices.orderId, orderId)).limit(1);
  if (!row?.number) return null;
  const actions = await db
    .select()
    .from(invoiceActions)
    .where(eq(invoiceActions.invoiceId, row.id))
    .orderBy(asc(invoiceActions.createdAt));
  return invoiceView(row, actions);
}

/** Back office: invoices, newest first, by status and a search (order number, invoice number, buyer, e-mail). */
export async function listInvoices(
  db: Db,
  filter: { status?: InvoiceStatus | undefined; q?: string | undefined; limit?: number },
) {
  const where: (SQL | undefined)[] = [];
  if (filter.status) where.push(eq(invoices.status, filter.status));
  const q = filter.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    where.push(
      or(
        ilike(invoices.merchantOrderNo, like),
        ilike(invoices.number, like),
        ilike(invoices.buyerName, like),
        ilike(invoices.buyerEmail, like),
        ilike(invoices.buyerUbn, like),
      ),
    );
  }
  return db
    .select({ invoice: invoices, eventNameEn: events.nameEn, eventNameZh: events.nameZh })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(...where))
    .orderBy(desc(invoices.createdAt))
    .limit(filter.limit ?? 200);
}

/** Back office: the invoices issued on a day (Taipei), and the voids and allowances made that day, for the accountant. */
export async function invoicesOfDay(db: Db, day: string) {
  const start = new Date(`${day}T00:00:00+08:00`);
  const end = new Date(start.getTime() + 24 * 3600_000);
  const issued = await db
    .select()
    .from(invoices)
    .where(and(sql`${invoices.issuedAt} >= ${start}`, sql`${invoices.issuedAt} < ${end}`))
    .orderBy(asc(invoices.issuedAt));
  const acted = await db
    .select({ action: invoiceActions, invoice: invoices })
    .from(invoiceActions)
    .innerJoin(invoices, eq(invoices.id, invoiceActions.invoiceId))
    .where(
      and(
        eq(invoiceActions.status, 'done'),
        sql`${invoiceActions.doneAt} >= ${start}`,
        sql`${invoiceActions.doneAt} < ${end}`,
      ),
    )
    .orderBy(asc(invoiceActions.doneAt));
  return { issued, acted };
}
