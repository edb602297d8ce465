import { createHash, timingSafeEqual } from 'node:crypto';
import { decryptTradeInfo, encryptText } from '../payments/newebpay';

/*
 * ezPay e-invoice protocol (issue 22, decision 051; facts: reference ezpay-invoice.md §A). Every
 * call is a form POST of `MerchantID_` and `PostData_`:
 *
 *   PostData_ = lowercase hex( AES-256-CBC( URL-encoded query string, key = HashKey, iv = HashIV ), PKCS7 )
 *   answer    = JSON { Status: "SUCCESS" | error code, Message, Result: JSON string }
 *   CheckCode = uppercase hex SHA-256( "HashIV={iv}&InvoiceTransNo=…&MerchantID=…&MerchantOrderNo=…&RandomNum=…&TotalAmt=…&HashKey={key}" )
 *
 * The carrier checks (`/Api_inv_application/checkBarCode`, `checkLoveCode`) send a plain Version,
 * RespondType and CheckValue = uppercase SHA-256("HashKey=…&{PostData_}&HashIV=…"), and answer an
 * AES-hex Result holding `IsExist=Y|N`. The keys are the invoice merchant's own (not the payment
 * gateway's). Pure functions and one small HTTP client; no database.
 */

export type EzpayKeys = { merchantId: string; hashKey: string; hashIv: string };

/** The calls and the Version each is sent with. */
export const EZPAY_CALLS = {
  invoice_issue: { path: '/Api/invoice_issue', version: '1.5' },
  invoice_invalid: { path: '/Api/invoice_invalid', version: '1.0' },
  allowance_issue: { path: '/Api/allowance_issue', version: '1.3' },
  invoice_search: { path: '/Api/invoice_search', version: '1.3' },
  checkBarCode: { path: '/Api_inv_application/checkBarCode', version: '1.0' },
  checkLoveCode: { path: '/Api_inv_application/checkLoveCode', version: '1.0' },
} as const;
export type EzpayCall = keyof typeof EZPAY_CALLS;

const mpgKeys = (keys: EzpayKeys) => ({ merchantId: keys.merchantId, hashKey: keys.hashKey, hashIv: keys.hashIv });

/** The URL-encoded query string of the parameters, encrypted: `PostData_`. */
export function encryptPostData(params: Record<string, string | number>, keys: EzpayKeys): string {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return encryptText(query.toString(), mpgKeys(keys));
}

/** The parameters of a `PostData_` (PKCS7 or 32-byte-block padding). Throws on a wrong key or bad hex. */
export function decryptPostData(hex: string, keys: EzpayKeys): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(decryptTradeInfo(hex, mpgKeys(keys))));
}

const sha256Upper = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();

/** The CheckCode of an issued invoice's result (the five fields in A–Z order, IV first and Key last). */
export function checkCode(
  fields: {
    InvoiceTransNo: string;
    MerchantID: string;
    MerchantOrderNo: string;
    RandomNum: string;
    TotalAmt: string | number;
  },
  keys: Pick<EzpayKeys, 'hashKey' | 'hashIv'>,
): string {
  const query = `InvoiceTransNo=${fields.InvoiceTransNo}&MerchantID=${fields.MerchantID}&MerchantOrderNo=${fields.MerchantOrderNo}&RandomNum=${fields.RandomNum}&TotalAmt=${fields.TotalAmt}`;
  return sha256Upper(`HashIV=${keys.hashIv}&${query}&HashKey=${keys.hashKey}`);
}

/** Constant-time comparison of a received CheckCode. */
export function checkCodeMatches(received: unknown, expected: string): boolean {
  const a = Buffer.from(String(received ?? '').toUpperCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The CheckValue of a carrier check: over the encrypted PostData_, bracketed by the secrets. */
export const checkValue = (postData: string, keys: Pick<EzpayKeys, 'hashKey' | 'hashIv'>) =>
  sha256Upper(`HashKey=${keys.hashKey}&${postData}&HashIV=${keys.hashIv}`);

/** ItemName / BuyerName text: no `|` (the item separator), whitespace collapsed, at most `max` code points. */
export function ezpayText(text: string, max: number): string {
  return [
    ...String(text)
      .replace(/[|\r\n\t]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  ]
    .slice(0, max)
    .join('');
}

/** What an invoice is issued with. */
export type IssueInput = {
  merchantOrderNo: string;
  kind: 'b2c' | 'b2b';
  buyerName: string;
  buyerUbn: string | null;
  buyerEmail: string;
  carrierType: 'ezpay' | 'mobile' | 'certificate' | 'donation' | 'none';
  carrierNumber: string | null;
  loveCode: string | null;
  itemName: string;
  /** Whole TWD, tax included. */
  totalTwd: number;
  /** Tax of it (5 %). */
  tax: number;
};

const CARRIER_CODE = { mobile: '0', certificate: '1', ezpay: '2' } as const;
/** The item's unit (≤ 2 CJK characters). */
const ITEM_UNIT = '式';

/** Unix seconds. */
export const timeStamp = (now: Date) => String(Math.floor(now.getTime() / 1000));

/**
 * The `invoice_issue` parameters (Version 1.5, Status 1 = issue now, taxable at 5 %). B2B prices
 * are tax-excluded with the tax apart; B2C prices are tax-included, the split declared in
 * Amt/TaxAmt. Paper (PrintFlag Y) for B2B only: every B2C invoice goes to a carrier or is donated.
 */
export function issueParams(input: IssueInput, now: Date): Record<string, string> {
  const b2b = input.kind === 'b2b';
  const amt = input.totalTwd - input.tax;
  const price = b2b ? amt : input.totalTwd;
  const carrier =
    !b2b && input.carrierType in CARRIER_CODE ? CARRIER_CODE[input.carrierType as keyof typeof CARRIER_CODE] : '';
  const carrierNum = carrier === '2' ? input.buyerEmail : carrier ? (input.carrierNumber ?? '') : '';
  const loveCode = !b2b && input.carrierType === 'donation' ? (input.loveCode ?? '') : '';
  return {
    RespondType: 'JSON',
    Version: EZPAY_CALLS.invoice_issue.version,
    TimeStamp: timeStamp(now),
    MerchantOrderNo: input.merchantOrderNo,
    Status: '1',
    Category: b2b ? 'B2B' : 'B2C',
    BuyerName: ezpayText(input.buyerName, b2b ? 60 : 30),
    BuyerUBN: b2b ? (input.buyerUbn ?? '') : '',
    BuyerEmail: input.buyerEmail,
    CarrierType: carrier,
    CarrierNum: carrierNum,
    LoveCode: loveCode,
    PrintFlag: b2b || (!carrier && !loveCode) ? 'Y' : 'N',
    KioskPrintFlag: carrier === '2' ? '1' : '',
    TaxType: '1',
    TaxRate: '5',
    Amt: String(amt),
    TaxAmt: String(input.tax),
    TotalAmt: String(input.totalTwd),
    ItemName: ezpayText(input.itemName, 30),
    ItemCount: '1',
    ItemUnit: ITEM_UNIT,
    ItemPrice: String(price),
    ItemAmt: String(price),
  };
}

/** The `invoice_invalid` parameters (the reason at most 20 characters). */
export function voidParams(input: { invoiceNumber: string; reason: string }, now: Date): Record<string, string> {
  return {
    RespondType: 'JSON',
    Version: EZPAY_CALLS.invoice_invalid.version,
    TimeStamp: timeStamp(now),
    InvoiceNumber: input.invoiceNumber,
    InvalidReason: ezpayText(input.reason, 20),
  };
}

/**
 * The `allowance_issue` parameters (Status 1 = confirmed now): one item of `amountTwd` (tax
 * included). B2B: the price tax-excluded with ItemTaxAmt apart; B2C: the price tax-included and
 * ItemTaxAmt 0. TotalAmt = ItemAmt + ItemTaxAmt.
 */
export function allowanceParams(
  input: {
    invoiceNumber: string;
    merchantOrderNo: string;
    kind: 'b2c' | 'b2b';
    itemName: string;
    amountTwd: number;
    buyerEmail: string;
    tax: number;
  },
  now: Date,
): Record<string, string> {
  const price = input.kind === 'b2b' ? input.amountTwd - input.tax : input.amountTwd;
  const itemTax = input.kind === 'b2b' ? input.tax : 0;
  return {
    RespondType: 'JSON',
    Version: EZPAY_CALLS.allowance_issue.version,
    TimeStamp: timeStamp(now),
    InvoiceNo: input.invoiceNumber,
    MerchantOrderNo: input.merchantOrderNo,
    ItemName: ezpayText(input.itemName, 30),
    ItemCount: '1',
    ItemUnit: ITEM_UNIT,
    ItemPrice: String(price),
    ItemAmt: String(price),
    ItemTaxAmt: String(itemTax),
    TotalAmt: String(price + itemTax),
    BuyerEmail: input.buyerEmail,
    Status: '1',
  };
}

/** The `invoice_search` parameters by merchant order number and total (SearchType 1). */
export function searchParams(input: { merchantOrderNo: string; totalTwd: number }, now: Date): Record<string, string> {
  return {
    RespondType: 'JSON',
    Version: EZPAY_CALLS.invoice_search.version,
    TimeStamp: timeStamp(now),
    SearchType: '1',
    MerchantOrderNo: input.merchantOrderNo,
    TotalAmt: String(input.totalTwd),
  };
}

/** An answer: success with its Result fields, or ezPay's error code and message. */
export type EzpayAnswer = { ok: true; result: Record<string, string> } | { ok: false; status: string; message: string };

/** Reads an answer body (`{Status, Message, Result}`, Result a JSON string or object). */
export function readAnswer(body: unknown): EzpayAnswer {
  const b = (body ?? {}) as { Status?: unknown; Message?: unknown; Result?: unknown };
  const status = String(b.Status ?? '');
  const message = String(b.Message ?? '');
  if (status !== 'SUCCESS') return { ok: false, status: status || 'NO_STATUS', message };
  let result: unknown = b.Result;
  if (typeof result === 'string') {
    try {
      result = JSON.parse(result);
    } catch {
      return { ok: false, status: 'BAD_RESULT', message: 'Result is not JSON' };
    }
  }
  const fields = Object.fromEntries(
    Object.entries((result ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v ?? '')]),
  );
  return { ok: true, result: fields };
}

export type EzpayClient = {
  /** Posts one call's parameters; answers ezPay's answer. Throws when ezPay cannot be reached (network, timeout, not JSON). */
  call(
    call: Exclude<EzpayCall, 'checkBarCode' | 'checkLoveCode'>,
    params: Record<string, string>,
  ): Promise<EzpayAnswer>;
  /** Whether a mobile barcode / love code exists; undefined when ezPay could not say (never blocks a payment). */
  exists(call: 'checkBarCode' | 'checkLoveCode', value: string, now: Date): Promise<boolean | undefined>;
  keys: EzpayKeys;
};

/** The HTTP client of ezPay (or of the embedded sandbox, reached in-process). */
export function createEzpayClient(options: {
  keys: EzpayKeys;
  baseUrl: string;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  timeoutMs?: number;
}): EzpayClient {
  const doFetch = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const base = options.baseUrl.replace(/\/$/, '');
  const post = async (path: string, form: Record<string, string>) => {
    const res = await doFetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!res.ok) throw new Error(`ezPay answered HTTP ${res.status}`);
    return res.json() as Promise<unknown>;
  };
  return {
    keys: options.keys,
    async call(call, params) {
      const body = await post(EZPAY_CALLS[call].path, {
        MerchantID_: options.keys.merchantId,
        PostData_: encryptPostData(params, options.keys),
      });
      return readAnswer(body);
    },
    async exists(call, value, now) {
      try {
        const field = call === 'checkBarCode' ? 'CellphoneBarcode' : 'LoveCode';
        const postData = encryptPostData({ TimeStamp: timeStamp(now), [field]: value }, options.keys);
        const body = (await post(EZPAY_CALLS[call].path, {
          MerchantID_: options.keys.merchantId,
          Version: EZPAY_CALLS[call].version,
          RespondType: 'JSON',
          CheckValue: checkValue(postData, options.keys),
          PostData_: postData,
        })) as { Status?: string; Result?: string };
        if (body.Status !== 'SUCCESS' || typeof body.Result !== 'string') return undefined;
        const answer = decryptPostData(body.Result, options.keys);
        return answer.IsExist === 'Y' ? true : answer.IsExist === 'N' ? false : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
