/**
 * Matching bank statement lines with declared transfers (issue 11; decision 026). Pure: the
 * server loads the open transfers, asks here, stores each line's outcome, and pays an order only
 * when an organiser confirms, re-checking the amount under the order's lock.
 */
import type { Currency } from './money';
import type { StatementLine } from './bank-statement';

/** Days after an order's payment deadline its transfer may still show on a statement (bank days, remittances from abroad). */
export const STATEMENT_GRACE_DAYS = 5;

/** An order a statement line can pay: a transfer being checked, or sent back with its details kept. */
export type OpenTransfer = {
  orderId: string;
  orderNo: string;
  currency: Currency;
  /** What the order is to pay, in `currency`. */
  amountCents: number;
  lastFiveDigits: string | null;
  placedAt: Date;
  deadline: Date | null;
};

export const LINE_OUTCOMES = [
  'matched',
  'ambiguous',
  'unmatched',
  'already_imported',
  'debit',
  'unreadable',
  'paid',
] as const;
export type LineOutcome = (typeof LINE_OUTCOMES)[number];

export const LINE_REASONS = [
  /** More than one order fits the line. */
  'several_orders',
  /** The line fits one order, but so does another line of the same statement. */
  'several_lines',
  /** The memo names the order and the amount fits, but the last five digits are another account's. */
  'last_five_differs',
  /** An order has these last five digits (or is named in the memo), but expects another amount or currency. */
  'amount_differs',
  /** The order fits, but the line's date is outside its payment window. */
  'outside_window',
  /** The line has no account's last five digits, and its memo names no order. */
  'no_last_five',
  /** No open transfer fits. */
  'no_order',
] as const;
export type LineReason = (typeof LINE_REASONS)[number];

/** What the matcher says of one line: the order it pays, the orders it might pay, or why none. */
export type LineMatch = {
  outcome: Extract<LineOutcome, 'matched' | 'ambiguous' | 'unmatched' | 'debit' | 'unreadable'>;
  /** matched: the one order; ambiguous: the choices; unmatched: an order it nearly fits (a hint), if any. */
  candidates: string[];
  reason: LineReason | null;
};

const DAY = 24 * 60 * 60 * 1000;
/** The Taipei calendar day of an instant, `YYYY-MM-DD` (statements are dated in Taipei). */
export const taipeiDay = (at: Date) => new Date(at.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 10);

/** Whether a statement date falls in an order's payment window: from the day it was placed to its deadline's day plus the grace days. */
export function inPaymentWindow(order: Pick<OpenTransfer, 'placedAt' | 'deadline'>, bookedOn: string): boolean {
  if (bookedOn < taipeiDay(order.placedAt)) return false;
  if (!order.deadline) return true;
  return bookedOn <= taipeiDay(new Date(order.deadline.getTime() + STATEMENT_GRACE_DAYS * DAY));
}

/** Memo text compared for order numbers: ASCII, upper case, no spaces or dashes. */
const compact = (memo: string) =>
  memo
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-_/]/g, '');

type Line = Pick<StatementLine, 'kind' | 'bookedOn' | 'amountCents' | 'currency' | 'accountLastFive' | 'memo'>;

/**
 * Matches each credit line with the open transfers, by last five digits + amount + currency
 * within the payment window, narrowed by the order number when the memo has one:
 *
 * - matched: exactly one order fits, and no other line of the statement fits it too;
 * - ambiguous: several orders fit, or several lines fit one order, or the memo names an order
 *   whose amount fits but whose last five digits differ (an organiser decides, by hand);
 * - unmatched: nothing fits (an order that fits all but the amount is given as a hint; an amount
 *   that does not match is never paid).
 */
export function matchLines(lines: Line[], orders: OpenTransfer[]): LineMatch[] {
  // Orders by their last five digits: a statement of thousands of lines against hundreds of orders.
  const byAccount = new Map<string, OpenTransfer[]>();
  for (const o of orders)
    if (o.lastFiveDigits) byAccount.set(o.lastFiveDigits, [...(byAccount.get(o.lastFiveDigits) ?? []), o]);
  // Order numbers are a 1–4 letter prefix, a yymmdd date and 6 characters: look them up where the
  // memo has six digits, rather than searching every memo for every order.
  const byNo = new Map(orders.map((o) => [o.orderNo.toUpperCase(), o]));
  const namedIn = (memo: string): OpenTransfer[] => {
    const found = new Set<OpenTransfer>();
    for (let i = 1; i + 12 <= memo.length; i++) {
      if (!/^\d{6}$/.test(memo.slice(i, i + 6))) continue;
      for (let p = 1; p <= 4 && p <= i; p++) {
        const order = byNo.get(memo.slice(i - p, i + 12));
        if (order) found.add(order);
      }
    }
    return [...found];
  };
  const result = lines.map((line): LineMatch => {
    if (line.kind === 'debit') return { outcome: 'debit', candidates: [], reason: null };
    if (line.kind !== 'credit' || !line.bookedOn || line.amountCents === null || !line.currency)
      return { outcome: 'unreadable', candidates: [], reason: null };
    const bookedOn = line.bookedOn;
    const amountFits = (o: OpenTransfer) => o.currency === line.currency && o.amountCents === line.amountCents;
    const windowFits = (o: OpenTransfer) => inPaymentWindow(o, bookedOn);
    const named = namedIn(compact(line.memo));
    const ids = (list: OpenTransfer[]) => list.map((o) => o.orderId);

    if (named.length > 0) {
      const fitting = named.filter((o) => amountFits(o) && windowFits(o));
      if (fitting.length > 1) return { outcome: 'ambiguous', candidates: ids(fitting), reason: 'several_orders' };
      if (fitting.length === 1) {
        const order = fitting[0]!;
        const differs =
          !!line.accountLastFive && !!order.lastFiveDigits && line.accountLastFive !== order.lastFiveDigits;
        return differs
          ? { outcome: 'ambiguous', candidates: [order.orderId], reason: 'last_five_differs' }
          : { outcome: 'matched', candidates: [order.orderId], reason: null };
      }
      const first = named[0]!;
      return {
        outcome: 'unmatched',
        candidates: [first.orderId],
        reason: amountFits(first) ? 'outside_window' : 'amount_differs',
      };
    }
    if (!line.accountLastFive) return { outcome: 'unmatched', candidates: [], reason: 'no_last_five' };
    const sameAccount = byAccount.get(line.accountLastFive) ?? [];
    const fitting = sameAccount.filter((o) => amountFits(o) && windowFits(o));
    if (fitting.length === 1) return { outcome: 'matched', candidates: ids(fitting), reason: null };
    if (fitting.length > 1) return { outcome: 'ambiguous', candidates: ids(fitting), reason: 'several_orders' };
    const inWindow = sameAccount.filter(windowFits);
    const nearly = inWindow[0] ?? sameAccount[0];
    if (!nearly) return { outcome: 'unmatched', candidates: [], reason: 'no_order' };
    return {
      outcome: 'unmatched',
      candidates: [nearly.orderId],
      reason: amountFits(nearly) ? 'outside_window' : 'amount_differs',
    };
  });
  // One order, two lines (paid twice, or two registrants with the same account and amount): an
  // organiser decides which line pays it.
  const byOrder = new Map<string, number>();
  for (const m of result)
    if (m.outcome === 'matched') byOrder.set(m.candidates[0]!, (byOrder.get(m.candidates[0]!) ?? 0) + 1);
  return result.map((m) =>
    m.outcome === 'matched' && byOrder.get(m.candidates[0]!)! > 1
      ? { outcome: 'ambiguous', candidates: m.candidates, reason: 'several_lines' }
      : m,
  );
}

/**
 * Whether a line may pay an order, by hand or confirmed: the same currency and the exact amount
 * the order is to pay. `payable` gives the order's amounts: the declared transfer's, or (nothing
 * declared) the order's total in the line's currency.
 */
export function amountMatches(
  line: { currency: Currency; amountCents: number },
  order: {
    declared: { currency: Currency; amountCents: number } | null;
    totalTwdCents: number;
    totalUsdCents: number | null;
  },
): boolean {
  if (order.declared)
    return order.declared.currency === line.currency && order.declared.amountCents === line.amountCents;
  const total = line.currency === 'USD' ? order.totalUsdCents : order.totalTwdCents;
  return total !== null && total > 0 && total === line.amountCents;
}
