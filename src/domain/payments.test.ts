import { create } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { check } from './validation';
import {
  cardFailure,
  currencyOf,
  isTransfer,
  isValidUnifiedBusinessNumber,
  OrderPaymentUpdate,
  receiptLines,
  toAsciiDigits,
} from './payments';

/*
 * Unified business number (統一編號) checksum, worked by hand. Weights 1 2 1 2 1 2 4 1; each
 * product contributes the sum of its digits; valid when the total is divisible by 5 (Ministry of
 * Finance rule since 2023; before it, 10). When the 7th digit is 7 its product is 28 → 2+8 = 10,
 * which may count as 1 or 0, so total + 1 (10 → 1 is −9 ≡ +1 mod 5) also makes it valid.
 *
 *   04595257: 0 8 5 18→9 5 4 20→2 7            = 40  valid
 *   22099131: 2 4 0 18→9 9 2 12→3 1            = 30  valid (TSMC's number)
 *   12345678: 1 4 3 8 5 12→3 28→10 8            = 42  invalid (43 with the 7-rule: still invalid)
 *   10458570: 1 0 4 10→1 8 10→1 28→10 0         = 25  valid under the ÷5 rule only (old ÷10: no)
 *   10458575: … 5                               = 30  valid (the Ministry's own 7th-digit example)
 *   10458574: … 4                               = 29  valid only through the 7-rule (29 + 1 = 30)
 *   10458571: … 1                               = 26  invalid (26, 27: neither divisible by 5)
 *   10458584: 1 0 4 1 8 1 32→5 4                = 24  invalid: same remainder as 10458574, but the
 *                                                     7th digit is 8, so no +1
 */
describe('isValidUnifiedBusinessNumber', () => {
  it.each(['04595257', '22099131', '10458570', '10458575', '10458580'])('accepts %s (total divisible by 5)', (ubn) => {
    expect(isValidUnifiedBusinessNumber(ubn)).toBe(true);
  });

  it.each(['10458574', '12345675'])('accepts %s only through the 7th-digit-is-7 rule', (ubn) => {
    expect(ubn[6]).toBe('7');
    expect(isValidUnifiedBusinessNumber(ubn)).toBe(true);
  });

  it.each(['12345678', '10458571', '10458584', '04595258', '22099132'])('refuses %s (bad checksum)', (ubn) => {
    expect(isValidUnifiedBusinessNumber(ubn)).toBe(false);
  });

  it.each([
    '',
    '0459525',
    '045952570',
    '0459525a',
    ' 04595257',
    '04595257 ',
    '０４５９５２５７',
    '-4595257',
    '4595257.',
  ])('refuses %j (not exactly 8 ASCII digits)', (ubn) => {
    expect(isValidUnifiedBusinessNumber(ubn)).toBe(false);
  });

  it('catches most one-digit typos of a real number', () => {
    // A one-digit change alters the total by a multiple of 5 only in a few cases.
    const valid = '04595257';
    let caught = 0;
    let total = 0;
    for (let i = 0; i < 8; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue;
        total++;
        if (!isValidUnifiedBusinessNumber(valid.slice(0, i) + d + valid.slice(i + 1))) caught++;
      }
    }
    expect(caught / total).toBeGreaterThan(0.75);
  });
});

describe('payment update validation', () => {
  const issues = (value: unknown) => {
    const r = check(value, OrderPaymentUpdate);
    return r.ok ? [] : r.issues.map((i) => i.path);
  };

  it('transfers need exactly five digits; USD also remitter and bank', () => {
    expect(issues({ payment: { type: 'TWD', lastFiveDigits: '12345' } })).toEqual([]);
    expect(issues({ payment: { type: 'TWD', lastFiveDigits: ' 12345 ' } })).toEqual([]);
    expect(
      create({ payment: { type: 'TWD', lastFiveDigits: ' 12345 ' } }, OrderPaymentUpdate).payment?.lastFiveDigits,
    ).toBe('12345');
    for (const digits of ['1234', '123456', 'abcde', '1234a', '１２３４', '１２３４５６']) {
      expect(issues({ payment: { type: 'atm', lastFiveDigits: digits } })).toEqual(['payment.lastFiveDigits']);
    }
    expect(issues({ payment: { type: 'TWD' } })).toEqual(['payment.lastFiveDigits']);
    expect(issues({ payment: { type: 'USD', lastFiveDigits: '12345' } }).sort()).toEqual([
      'payment.remitter',
      'payment.senderBank',
    ]);
    expect(issues({ payment: { type: 'USD', lastFiveDigits: '12345', remitter: 'A', senderBank: 'B' } })).toEqual([]);
    expect(issues({ payment: { type: 'credit_card' } })).toEqual([]);
  });

  it('a company invoice needs a title and a valid number; a personal one needs neither', () => {
    expect(issues({ receipt: { kind: 'personal' } })).toEqual([]);
    expect(issues({ receipt: { kind: 'company', invoiceTitle: 'X', unifiedBusinessNumber: '04595257' } })).toEqual([]);
    expect(issues({ receipt: { kind: 'company', invoiceTitle: 'X', unifiedBusinessNumber: '12345678' } })).toEqual([
      'receipt.unifiedBusinessNumber',
    ]);
    expect(issues({ receipt: { kind: 'company' } }).sort()).toEqual([
      'receipt.invoiceTitle',
      'receipt.unifiedBusinessNumber',
    ]);
  });

  it('reads full-width digits (０-９) as ASCII digits in the last five digits and the UBN', () => {
    expect(toAsciiDigits('０１２３４５６７８９')).toBe('0123456789');
    // Only digits change: full-width letters and other characters are kept as they are.
    expect(toAsciiDigits('１２a３Ａ－')).toBe('12a3Ａ－');
    expect(issues({ payment: { type: 'atm', lastFiveDigits: '１２３４５' } })).toEqual([]);
    expect(issues({ payment: { type: 'TWD', lastFiveDigits: '12３45' } })).toEqual([]);
    expect(
      create({ payment: { type: 'atm', lastFiveDigits: '　１２３４５ ' } }, OrderPaymentUpdate).payment?.lastFiveDigits,
    ).toBe('12345');
    const receipt = { kind: 'company', invoiceTitle: 'X', unifiedBusinessNumber: '０４５９５２５７' };
    expect(issues({ receipt })).toEqual([]);
    expect(create({ receipt }, OrderPaymentUpdate).receipt?.unifiedBusinessNumber).toBe('04595257');
    // A full-width number with a bad checksum is still refused.
    expect(issues({ receipt: { ...receipt, unifiedBusinessNumber: '１２３４５６７８' } })).toEqual([
      'receipt.unifiedBusinessNumber',
    ]);
  });

  it('knows transfer types and their currencies', () => {
    expect(['atm', 'TWD', 'USD'].every((t) => isTransfer(t as 'atm'))).toBe(true);
    expect(isTransfer('credit_card')).toBe(false);
    expect(isTransfer(null)).toBe(false);
    expect(currencyOf('USD')).toBe('USD');
    expect(currencyOf('atm')).toBe('TWD');
  });
});

describe('the lines of a receipt (summary, My badge)', () => {
  it('a two-part invoice: its kind, and no empty title or business number lines', () => {
    expect(receiptLines({ kind: 'personal', invoiceTitle: null, unifiedBusinessNumber: null })).toEqual([
      { field: 'kind', value: 'personal' },
    ]);
    expect(receiptLines({ kind: 'personal', invoiceTitle: '', unifiedBusinessNumber: '' })).toEqual([
      { field: 'kind', value: 'personal' },
    ]);
  });
  it('a two-part invoice with a title shows it, never a number', () => {
    expect(receiptLines({ kind: 'personal', invoiceTitle: '王小明', unifiedBusinessNumber: '04595257' })).toEqual([
      { field: 'kind', value: 'personal' },
      { field: 'invoiceTitle', value: '王小明' },
    ]);
  });
  it('a three-part invoice shows both, a missing one as not given', () => {
    expect(receiptLines({ kind: 'company', invoiceTitle: 'Good Pictures', unifiedBusinessNumber: '04595257' })).toEqual(
      [
        { field: 'kind', value: 'company' },
        { field: 'invoiceTitle', value: 'Good Pictures' },
        { field: 'unifiedBusinessNumber', value: '04595257' },
      ],
    );
    expect(receiptLines({ kind: 'company', invoiceTitle: 'Good Pictures', unifiedBusinessNumber: null })[2]).toEqual({
      field: 'unifiedBusinessNumber',
      value: null,
    });
  });
});

describe('why a card payment failed, for the registrant (NewebPay Status codes)', () => {
  it('reads the gateway’s codes', () => {
    expect(cardFailure('MPG03009')).toBe('declined');
    expect(cardFailure('MPG05005')).toBe('declined');
    expect(cardFailure('MPG05002')).toBe('card_not_accepted');
    expect(cardFailure('MPG05003')).toBe('card_not_accepted');
    expect(cardFailure('MPG02004')).toBe('timed_out');
    expect(cardFailure('MPG03003')).toBe('too_many_attempts');
    expect(cardFailure('MPG02006')).toBe('unavailable');
  });
  it('takes the shop’s own problems as the service being unavailable, anything else as other', () => {
    expect(cardFailure('MPG01015')).toBe('unavailable');
    expect(cardFailure('MPG03008')).toBe('unavailable');
    expect(cardFailure('TRA10003')).toBe('other');
    expect(cardFailure(null)).toBe('other');
    expect(cardFailure('')).toBe('other');
  });
});
