/**
 * E-invoices (統一發票, issue 22): the carriers a two-part (B2C) invoice goes to, their formats as
 * ezPay and the Ministry of Finance define them (reference ezpay-invoice.md "Validation"), the
 * amounts of an invoice (tax included for B2C, shown apart for B2B), and the period within which an
 * issued invoice may still be voided. Pure: the pay page and the API share it.
 */

/** Where an invoice goes: ezPay member carrier (the registrant's e-mail), a mobile barcode, a citizen digital certificate, donated, or `none` (B2B, printed). */
export const CARRIER_TYPES = ['ezpay', 'mobile', 'certificate', 'donation', 'none'] as const;
export type CarrierType = (typeof CARRIER_TYPES)[number];

/** The personal (B2C) choices, the ezPay member carrier first (the default). */
export const PERSONAL_CARRIERS = [
  'ezpay',
  'mobile',
  'certificate',
  'donation',
] as const satisfies readonly CarrierType[];

export const MOBILE_BARCODE = /^\/[0-9A-Z.+-]{7}$/;
export const CITIZEN_CERTIFICATE = /^[A-Z]{2}[0-9]{14}$/;
export const LOVE_CODE = /^[0-9]{3,7}$/;

export const INVOICE_STATUSES = ['pending', 'issued', 'failed', 'void', 'allowance'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type InvoiceKind = 'b2c' | 'b2b';

/** Taiwan's business tax rate (5 %). */
export const TAX_RATE = 5;

/**
 * The amounts of an invoice of `totalTwd` (tax included, whole TWD): sales amount and tax. B2C
 * invoices show the total only (prices tax included) but still declare the split.
 */
export function invoiceAmounts(totalTwd: number): { amount: number; tax: number; total: number } {
  const amount = Math.round(totalTwd / (1 + TAX_RATE / 100));
  return { amount, tax: totalTwd - amount, total: totalTwd };
}

const TAIPEI_MS = 8 * 3600_000;

/**
 * The last moment an invoice issued at `issuedAt` may be voided: invoices are filed per two-month
 * period (Jan–Feb, Mar–Apr …) by the 15th of the month after it (reference D: "void only before
 * the VAT filing deadline"); after that a refund is an allowance (折讓). Taipei time.
 */
export function voidDeadline(issuedAt: Date): Date {
  const taipei = new Date(issuedAt.getTime() + TAIPEI_MS);
  const month = taipei.getUTCMonth(); // 0-based
  const periodEnd = month - (month % 2) + 1; // Feb = 1, Apr = 3 …
  // The 15th of the month after the period, 23:59:59.999 Taipei.
  const deadline = Date.UTC(taipei.getUTCFullYear(), periodEnd + 1, 15, 23, 59, 59, 999) - TAIPEI_MS;
  return new Date(deadline);
}

/** Whether an invoice issued at `issuedAt` may still be voided at `now`. */
export const voidable = (issuedAt: Date, now: Date) => now.getTime() <= voidDeadline(issuedAt).getTime();

/** The reasons of voids and allowances the portal gives as codes (the registrant reads them translated); any other reason is the organiser's words. */
export const INVOICE_REASONS = [
  'order_canceled',
  'refund',
  'duplicate_charge',
  'paid_by_transfer',
  'order_not_payable',
  'order_superseded',
  'not_approved',
] as const;
