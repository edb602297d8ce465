import { describe, expect, it } from 'vitest';
import { validate } from 'superstruct';
import { invoiceAmounts, voidable, voidDeadline } from './invoices';
import { ReceiptDetails, receiptValues } from './payments';

const failedPaths = (value: unknown) =>
  validate(value, ReceiptDetails, { coerce: true })[0]
    ?.failures()
    .map((f) => f.path.join('.')) ?? [];

describe('carrier formats (the same struct on the page and the API)', () => {
  it.each(['/ABC1234', '/1234567', '/A.B+C-1', '/abc1234'])('takes the mobile barcode %s', (n) => {
    expect(failedPaths({ kind: 'personal', carrierType: 'mobile', carrierNumber: n })).toEqual([]);
  });
  it.each(['ABC1234', '/ABC123', '/ABC12345', '/ABC 123', '/ABC_123', ''])('refuses the mobile barcode %j', (n) => {
    expect(failedPaths({ kind: 'personal', carrierType: 'mobile', carrierNumber: n })).toEqual(['carrierNumber']);
  });
  it('citizen certificate: 2 capital letters and 14 digits', () => {
    expect(failedPaths({ kind: 'personal', carrierType: 'certificate', carrierNumber: 'AB12345678901234' })).toEqual(
      [],
    );
    expect(failedPaths({ kind: 'personal', carrierType: 'certificate', carrierNumber: 'A123456789012345' })).toEqual([
      'carrierNumber',
    ]);
  });
  it('love code: 3 to 7 digits (full-width digits read as ASCII)', () => {
    for (const code of ['123', '1234567', '８８４'])
      expect(failedPaths({ kind: 'personal', carrierType: 'donation', loveCode: code })).toEqual([]);
    for (const code of ['12', '12345678', 'abc', ''])
      expect(failedPaths({ kind: 'personal', carrierType: 'donation', loveCode: code })).toEqual(['loveCode']);
  });
  it('a personal invoice defaults to the ezPay carrier; a company one is printed (no carrier)', () => {
    expect(receiptValues({ kind: 'personal' })).toMatchObject({
      carrierType: 'ezpay',
      carrierNumber: null,
      loveCode: null,
    });
    expect(
      receiptValues({
        kind: 'company',
        invoiceTitle: 'X',
        unifiedBusinessNumber: '04595257',
        carrierType: 'mobile',
        carrierNumber: '/ABC1234',
      }),
    ).toMatchObject({ carrierType: 'none', carrierNumber: null });
    expect(
      receiptValues({ kind: 'personal', carrierType: 'donation', loveCode: '884', carrierNumber: '/ABC1234' }),
    ).toMatchObject({
      carrierNumber: null,
      loveCode: '884',
    });
    expect(failedPaths({ kind: 'personal', carrierType: 'none' })).toEqual(['carrierType']);
  });
});

describe('amounts and the void period', () => {
  it('splits a tax-included total at 5 %', () => {
    expect(invoiceAmounts(1000)).toEqual({ amount: 952, tax: 48, total: 1000 });
    expect(invoiceAmounts(8400)).toEqual({ amount: 8000, tax: 400, total: 8400 });
  });
  it('an invoice may be voided until the 15th after its two-month period (Taipei)', () => {
    // Issued 2026-11-26 (Nov–Dec period): voidable until 2027-01-15 23:59:59 Taipei.
    const issued = new Date('2026-11-26T02:00:00Z');
    expect(voidDeadline(issued).toISOString()).toBe('2027-01-15T15:59:59.999Z');
    expect(voidable(issued, new Date('2027-01-15T15:00:00Z'))).toBe(true);
    expect(voidable(issued, new Date('2027-01-16T00:00:00Z'))).toBe(false);
    // 1 March 00:30 Taipei is the Mar–Apr period (still 28 Feb in UTC).
    expect(voidDeadline(new Date('2027-02-28T16:30:00Z')).toISOString()).toBe('2027-05-15T15:59:59.999Z');
  });
});
