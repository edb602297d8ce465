import { coerce, enums, nullable, object, optional, refine, size, string, trimmed, type Infer } from 'superstruct';
import { CARRIER_TYPES, CITIZEN_CERTIFICATE, LOVE_CODE, MOBILE_BARCODE, type CarrierType } from './invoices';

/** Payment types on the wire (spec §3): card, ATM transfer (TWD only), TWD and USD remittance. */
export const PAYMENT_TYPES = ['credit_card', 'atm', 'TWD', 'USD'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
export const TRANSFER_TYPES: readonly PaymentType[] = ['atm', 'TWD', 'USD'];
export const isTransfer = (type: PaymentType | null | undefined) => !!type && TRANSFER_TYPES.includes(type);
/** The currency a payment type is paid in. */
export const currencyOf = (type: PaymentType): 'TWD' | 'USD' => (type === 'USD' ? 'USD' : 'TWD');

/** Processing page poll interval (spec §9). */
export const PROCESSING_POLL_MS = 5000;

/**
 * Taiwan unified business number (統一編號) checksum: weights 1,2,1,2,1,2,4,1, sum the digits
 * of each product; valid when the sum is divisible by 5 (the rule since 2023, which accepts every
 * number the old divisible-by-10 rule did), or, when the 7th digit is 7, the sum plus 1 is.
 */
export function isValidUnifiedBusinessNumber(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  const weights = [1, 2, 1, 2, 1, 2, 4, 1];
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const product = Number(value[i]) * weights[i]!;
    sum += Math.floor(product / 10) + (product % 10);
  }
  return sum % 5 === 0 || (value[6] === '7' && (sum + 1) % 5 === 0);
}

/**
 * Full-width digits (０-９, what a Chinese input method in full-width mode types) as their ASCII
 * digits; every other character is kept.
 */
export const toAsciiDigits = (value: string) =>
  value.replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));

/** A trimmed string whose full-width digits are read as ASCII digits (client and API alike). */
const DigitString = () => coerce(trimmed(string()), string(), toAsciiDigits);

const Text = (max: number) => size(trimmed(string()), 0, max);
const LastFive = refine(DigitString(), 'last_five_digits', (v) => /^\d{5}$/.test(v) || 'Must be exactly 5 digits');
const Ubn = refine(
  DigitString(),
  'unified_business_number',
  (v) => v === '' || isValidUnifiedBusinessNumber(v) || 'Not a valid unified business number',
);

/** Transfer details and payment type (the pay page and the summary's edit form). */
export const PaymentDetails = refine(
  object({
    type: enums(PAYMENT_TYPES),
    remitter: optional(nullable(Text(256))),
    senderBank: optional(nullable(Text(256))),
    lastFiveDigits: optional(nullable(LastFive)),
  }),
  'payment',
  (p, ctx) => {
    if (!isTransfer(p.type)) return true;
    const failures = [];
    if (!p.lastFiveDigits)
      failures.push({ path: [...ctx.path, 'lastFiveDigits'], message: 'Last five digits are required for transfers' });
    if (p.type === 'USD' && !p.remitter)
      failures.push({ path: [...ctx.path, 'remitter'], message: 'Remitter name is required for USD remittance' });
    if (p.type === 'USD' && !p.senderBank)
      failures.push({ path: [...ctx.path, 'senderBank'], message: 'Sending bank is required for USD remittance' });
    return failures.length ? failures : true;
  },
);

/** A carrier number or love code: trimmed, upper-cased (barcodes and certificates are upper case), ASCII digits. */
const CarrierText = () => coerce(trimmed(string()), string(), (v) => toAsciiDigits(v).toUpperCase());

/**
 * Invoice: personal (two-part, B2C: to a carrier or donated) or company (three-part, B2B: title
 * and unified business number required). The carrier's number is checked against its format
 * (`@domain/invoices`): a mobile barcode `/XXXXXXX`, a citizen certificate `AB12345678901234`, a
 * love code of 3–7 digits. An absent carrier type is the ezPay member carrier (the e-mail).
 */
export const ReceiptDetails = refine(
  object({
    kind: enums(['personal', 'company'] as const),
    invoiceTitle: optional(nullable(Text(256))),
    unifiedBusinessNumber: optional(nullable(Ubn)),
    carrierType: optional(nullable(enums(CARRIER_TYPES))),
    carrierNumber: optional(nullable(size(CarrierText(), 0, 64))),
    loveCode: optional(nullable(size(CarrierText(), 0, 16))),
  }),
  'receipt',
  (r, ctx) => {
    const failures: { path: (string | number)[]; message: string }[] = [];
    const at = (field: string, message: string) => failures.push({ path: [...ctx.path, field], message });
    if (r.kind === 'company') {
      if (!r.invoiceTitle) at('invoiceTitle', 'Invoice title is required for a company invoice');
      if (!r.unifiedBusinessNumber)
        at('unifiedBusinessNumber', 'Unified business number is required for a company invoice');
      return failures.length ? failures : true;
    }
    const carrier = r.carrierType ?? 'ezpay';
    if (carrier === 'none') at('carrierType', 'A personal invoice goes to a carrier or is donated');
    if (carrier === 'mobile' && !MOBILE_BARCODE.test(r.carrierNumber ?? ''))
      at('carrierNumber', 'Not a valid mobile barcode (a slash and 7 characters)');
    if (carrier === 'certificate' && !CITIZEN_CERTIFICATE.test(r.carrierNumber ?? ''))
      at('carrierNumber', 'Not a valid citizen digital certificate number (2 letters and 14 digits)');
    if (carrier === 'donation' && !LOVE_CODE.test(r.loveCode ?? ''))
      at('loveCode', 'Not a valid love code (3 to 7 digits)');
    return failures.length ? failures : true;
  },
);

/**
 * A receipt as it is stored: empty strings as null, no business number on a personal (two-part)
 * invoice, no carrier on a company one (printed), and only what the chosen carrier uses. One rule
 * for the pay page and an entry's invoice block.
 */
export function receiptValues(receipt: Infer<typeof ReceiptDetails>) {
  const company = receipt.kind === 'company';
  const carrierType: CarrierType = company ? 'none' : (receipt.carrierType ?? 'ezpay');
  return {
    kind: receipt.kind,
    invoiceTitle: receipt.invoiceTitle || null,
    unifiedBusinessNumber: company ? receipt.unifiedBusinessNumber || null : null,
    carrierType,
    carrierNumber: carrierType === 'mobile' || carrierType === 'certificate' ? receipt.carrierNumber || null : null,
    loveCode: carrierType === 'donation' ? receipt.loveCode || null : null,
  };
}

/**
 * Why a card payment did not go through, in words the registrant can act on (the pay page's
 * processing step says it in their language). The gateway's own text (`Message`, Chinese or
 * English, sometimes about the shop's keys) is for the organiser: it stays on the payment record
 * and in the gateway's notifications, and the back office's order page shows it (decision 038).
 */
export const CARD_FAILURES = [
  'declined',
  'card_not_accepted',
  'timed_out',
  'too_many_attempts',
  'unavailable',
  'other',
] as const;
export type CardFailure = (typeof CARD_FAILURES)[number];

/** NewebPay MPG `Status` codes a registrant can meet (the integration manual's error table). */
const CARD_FAILURE_BY_STATUS: Record<string, CardFailure> = {
  // 交易失敗: the card's bank refused the authorisation (the code also covers a trade that failed
  // its checks, which the shop's keys would have caught before the card was asked for).
  MPG03009: 'declined',
  // 警示交易: the bank flagged the transaction.
  MPG05005: 'declined',
  // No card data, a card this shop does not accept, no one-time payment on this card, no
  // instalments from this bank: another card may work.
  MPG05001: 'card_not_accepted',
  MPG05002: 'card_not_accepted',
  MPG05003: 'card_not_accepted',
  MPG05004: 'card_not_accepted',
  // The payment page stayed open past the gateway's limit.
  MPG02004: 'timed_out',
  // Too many attempts from one address within a few minutes.
  MPG03003: 'too_many_attempts',
  // The card acquirer's system failed.
  MPG02006: 'unavailable',
};

/** The registrant's reason for a failed card payment, from the gateway's `Status` code. */
export function cardFailure(status: string | null | undefined): CardFailure {
  if (!status) return 'other';
  const known = CARD_FAILURE_BY_STATUS[status];
  if (known) return known;
  // The other MPG01–03 codes are about the request or the shop (parameters, keys, a suspended
  // shop, a repeated order number): nothing the registrant can fix but trying later.
  return /^MPG0[123]\d{3}$/.test(status) ? 'unavailable' : 'other';
}

/** A line of a receipt as an order page shows it; `value` null: asked for but not given. */
export type ReceiptLine = { field: 'kind' | 'invoiceTitle' | 'unifiedBusinessNumber'; value: string | null };

/**
 * The lines a receipt shows (summary, My badge): its kind, then what that kind of invoice carries.
 * A three-part (company) invoice asks for a title and a unified business number, so both are
 * shown; a two-part (personal) one has no number and shows a title only when one was given, never
 * an empty line.
 */
export function receiptLines(receipt: {
  kind: string;
  invoiceTitle: string | null;
  unifiedBusinessNumber: string | null;
}): ReceiptLine[] {
  const company = receipt.kind === 'company';
  const lines: ReceiptLine[] = [{ field: 'kind', value: receipt.kind }];
  if (company || receipt.invoiceTitle) lines.push({ field: 'invoiceTitle', value: receipt.invoiceTitle || null });
  if (company) lines.push({ field: 'unifiedBusinessNumber', value: receipt.unifiedBusinessNumber || null });
  return lines;
}

/** Body of PUT /orders/{id} and PUT /demonstration_order (and the pay page's submit). */
export const OrderPaymentUpdate = object({
  payment: optional(PaymentDetails),
  receipt: optional(ReceiptDetails),
  lang: optional(string()),
});
export type OrderPaymentUpdate = Infer<typeof OrderPaymentUpdate>;
