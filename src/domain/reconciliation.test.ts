import { describe, expect, it } from 'vitest';
import { amountMatches, inPaymentWindow, matchLines, taipeiDay, type OpenTransfer } from './reconciliation';

const placed = new Date('2026-11-18T02:00:00Z');
const deadline = new Date('2026-11-21T02:00:00Z');
const order = (id: string, over: Partial<OpenTransfer> = {}): OpenTransfer => ({
  orderId: id,
  orderNo: `TC261118${id.toUpperCase().padEnd(6, '0')}`,
  currency: 'TWD',
  amountCents: 100_000,
  lastFiveDigits: '12345',
  placedAt: placed,
  deadline,
  ...over,
});
const line = (over: Partial<Parameters<typeof matchLines>[0][number]> = {}) => ({
  kind: 'credit' as const,
  bookedOn: '2026-11-20',
  amountCents: 100_000,
  currency: 'TWD' as const,
  accountLastFive: '12345',
  memo: '',
  ...over,
});

describe('the payment window', () => {
  it('runs from the Taipei day the order was placed to its deadline plus five days', () => {
    expect(taipeiDay(new Date('2026-11-17T16:30:00Z'))).toBe('2026-11-18');
    const o = order('a');
    expect(inPaymentWindow(o, '2026-11-17')).toBe(false);
    expect(inPaymentWindow(o, '2026-11-18')).toBe(true);
    expect(inPaymentWindow(o, '2026-11-26')).toBe(true);
    expect(inPaymentWindow(o, '2026-11-27')).toBe(false);
    expect(inPaymentWindow({ ...o, deadline: null }, '2027-01-01')).toBe(true);
  });
});

describe('matching statement lines', () => {
  it('exact: last five digits + amount + currency, one order', () => {
    expect(matchLines([line()], [order('a'), order('b', { lastFiveDigits: '99999' })])).toEqual([
      { outcome: 'matched', candidates: ['a'], reason: null },
    ]);
  });

  it('ambiguous: two orders with the same last five and amount', () => {
    expect(matchLines([line()], [order('a'), order('b')])).toEqual([
      { outcome: 'ambiguous', candidates: ['a', 'b'], reason: 'several_orders' },
    ]);
  });

  it('the order number in the memo settles it (full-width, spaced or lower case)', () => {
    const a = order('a');
    const memo = ` 轉帳 ${a.orderNo.toLowerCase().replace(/(.{4})/g, '$1 ')}`.normalize('NFKC');
    expect(matchLines([line({ memo })], [a, order('b')])).toEqual([
      { outcome: 'matched', candidates: ['a'], reason: null },
    ]);
    // Named, amount fits, but another account's last five: an organiser decides.
    expect(matchLines([line({ memo: a.orderNo, accountLastFive: '55555' })], [a])).toEqual([
      { outcome: 'ambiguous', candidates: ['a'], reason: 'last_five_differs' },
    ]);
    // Named with no account on the line: the order number and amount are enough.
    expect(matchLines([line({ memo: a.orderNo, accountLastFive: null })], [a])[0]!.outcome).toBe('matched');
  });

  it('a wrong amount or currency is never matched (the near order is given as a hint)', () => {
    expect(matchLines([line({ amountCents: 90_000 })], [order('a')])).toEqual([
      { outcome: 'unmatched', candidates: ['a'], reason: 'amount_differs' },
    ]);
    expect(matchLines([line({ currency: 'USD', amountCents: 100_000 })], [order('a')])[0]).toMatchObject({
      outcome: 'unmatched',
      reason: 'amount_differs',
    });
    expect(matchLines([line({ memo: order('a').orderNo, amountCents: 1 })], [order('a')])[0]).toMatchObject({
      outcome: 'unmatched',
      reason: 'amount_differs',
    });
  });

  it('outside the payment window, with no account, or nothing at all: unmatched', () => {
    expect(matchLines([line({ bookedOn: '2026-12-20' })], [order('a')])[0]).toEqual({
      outcome: 'unmatched',
      candidates: ['a'],
      reason: 'outside_window',
    });
    expect(matchLines([line({ accountLastFive: null })], [order('a')])[0]).toMatchObject({ reason: 'no_last_five' });
    expect(matchLines([line({ accountLastFive: '00000' })], [order('a')])[0]).toEqual({
      outcome: 'unmatched',
      candidates: [],
      reason: 'no_order',
    });
  });

  it('two lines for one order: both ambiguous, so it is not paid twice', () => {
    expect(matchLines([line(), line({ bookedOn: '2026-11-21' })], [order('a')]).map((m) => m.reason)).toEqual([
      'several_lines',
      'several_lines',
    ]);
  });

  it('debits and unreadable lines are not matched', () => {
    expect(
      matchLines([line({ kind: 'debit' }), line({ kind: 'unreadable', bookedOn: null })], [order('a')]).map(
        (m) => m.outcome,
      ),
    ).toEqual(['debit', 'unreadable']);
  });
});

describe('amountMatches', () => {
  const totals = { totalTwdCents: 100_000, totalUsdCents: 3_500 };
  it('the declared transfer: its currency and amount exactly', () => {
    const declared = { currency: 'USD' as const, amountCents: 3_500 };
    expect(amountMatches({ currency: 'USD', amountCents: 3_500 }, { declared, ...totals })).toBe(true);
    expect(amountMatches({ currency: 'USD', amountCents: 3_400 }, { declared, ...totals })).toBe(false);
    expect(amountMatches({ currency: 'TWD', amountCents: 100_000 }, { declared, ...totals })).toBe(false);
  });
  it("nothing declared: the order's total in the line's currency", () => {
    expect(amountMatches({ currency: 'TWD', amountCents: 100_000 }, { declared: null, ...totals })).toBe(true);
    expect(amountMatches({ currency: 'USD', amountCents: 3_500 }, { declared: null, ...totals })).toBe(true);
    expect(
      amountMatches({ currency: 'USD', amountCents: 3_500 }, { declared: null, ...totals, totalUsdCents: null }),
    ).toBe(false);
  });
});
