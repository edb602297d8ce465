import { createCipheriv, createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';

/*
 * NewebPay MPG (multi-payment gateway) protocol: building the browser form that goes to the
 * gateway and verifying what comes back (NotifyURL / ReturnURL). Pure functions, no I/O.
 * Facts: docs/shared reference `newebpay-mpg.md`; design decision D10.
 *
 *   TradeInfo = lowercase hex( AES-256-CBC( query string | JSON, key = HashKey, iv = HashIV ), PKCS7 )
 *   (what comes back may also be padded to 32-byte blocks, as NewebPay's sample code does)
 *   TradeSha  = uppercase hex( SHA-256( "HashKey=" + key + "&" + TradeInfo + "&HashIV=" + iv ) )
 */

export type MpgKeys = {
  merchantId: string;
  /** 32 characters (UTF-8 bytes): the AES-256 key. */
  hashKey: string;
  /** 16 characters (UTF-8 bytes): the CBC initialisation vector. */
  hashIv: string;
};

export type MpgErrorCode =
  | 'invalid_keys'
  | 'invalid_hex'
  | 'decrypt_failed'
  | 'invalid_order_no'
  | 'invalid_amount'
  | 'invalid_item_desc'
  | 'invalid_url'
  | 'invalid_timestamp';

/** Thrown for programming/configuration errors and undecryptable input; never by verifyCallback. */
export class MpgError extends Error {
  readonly code: MpgErrorCode;
  constructor(code: MpgErrorCode, message: string) {
    super(message);
    this.name = 'MpgError';
    this.code = code;
  }
}

/** Letters, digits and `_`, at most 30 characters (a hyphen-less UUID, 32, is too long). */
export const MPG_ORDER_NO_PATTERN = /^[A-Za-z0-9_]{1,30}$/;
export const MPG_DEFAULT_VERSION = '2.0';
export const MPG_TRADE_LIMIT = { default: 600, min: 60, max: 900 } as const;
const ITEM_DESC_MAX = 50;
const EMAIL_MAX = 50;
const URL_MAX = 200;
/** A genuine result is well under 2 KB of hex; anything far larger is not worth decrypting. */
const TRADE_INFO_MAX_CHARS = 32_768;

function keyBytes(keys: MpgKeys): { key: Buffer; iv: Buffer } {
  const key = Buffer.from(keys.hashKey ?? '', 'utf8');
  const iv = Buffer.from(keys.hashIv ?? '', 'utf8');
  if (key.length !== 32 || iv.length !== 16) {
    throw new MpgError('invalid_keys', 'NewebPay HashKey must be 32 bytes and HashIV 16 bytes');
  }
  return { key, iv };
}

/** AES-256-CBC with PKCS7 padding (Node's default) of any UTF-8 text, as lowercase hex. */
export function encryptText(plainText: string, keys: MpgKeys): string {
  const { key, iv } = keyBytes(keys);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]).toString('hex');
}

/** Encrypts the TradeInfo parameters (URL-encoded as a query string). */
export function encryptTradeInfo(params: Record<string, string | number>, keys: MpgKeys): string {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return encryptText(query.toString(), keys);
}

// `fatal` makes a wrong key that happens to produce valid padding fail loudly instead of
// yielding replacement characters.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The largest pad the gateway's side may use. Standard PKCS7 over AES pads 1–16 bytes; NewebPay's
 * own sample code (and SDKs copied from it) pads to 32-byte blocks the same way (`n` bytes of
 * value `n`, 1–32), which Node's PKCS7 check refuses whenever the pad is longer than 16.
 */
const MAX_PAD = 32;

/**
 * The plain bytes without their padding: the last byte `n` (1–32) must be preceded by n − 1 more
 * bytes of value n. Both paddings pass (a PKCS7 pad is such a run of 1–16); anything else is
 * corrupted (or decrypted with the wrong key) and refused.
 */
export function stripPadding(raw: Uint8Array): Uint8Array | null {
  const n = raw[raw.length - 1];
  if (n === undefined || n < 1 || n > MAX_PAD || n > raw.length) return null;
  for (let i = raw.length - n; i < raw.length; i++) if (raw[i] !== n) return null;
  return raw.subarray(0, raw.length - n);
}

/**
 * Inverse of encryptText: the plain text (a query string or JSON). Accepts PKCS7 and the
 * 32-byte-block padding of NewebPay's sample code (stripPadding). Throws MpgError.
 */
export function decryptTradeInfo(hex: string, keys: MpgKeys): string {
  const { key, iv } = keyBytes(keys);
  // Whole AES blocks (16 bytes = 32 hex digits), at least one. Upper case is tolerated.
  if (typeof hex !== 'string' || hex.length === 0 || hex.length % 32 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) {
    throw new MpgError('invalid_hex', 'TradeInfo is not hex-encoded whole AES blocks');
  }
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, iv);
    // The padding is checked by hand: Node's check knows only 16-byte PKCS7.
    decipher.setAutoPadding(false);
    const raw = Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]);
    const plain = stripPadding(raw);
    if (!plain) throw new Error('bad padding');
    return utf8.decode(plain);
  } catch {
    throw new MpgError('decrypt_failed', 'TradeInfo could not be decrypted (bad padding or key)');
  }
}

/** Uppercase hex SHA-256 over the encrypted TradeInfo, bracketed by the secrets. */
export function tradeSha(tradeInfoHex: string, keys: MpgKeys): string {
  return createHash('sha256')
    .update(`HashKey=${keys.hashKey}&${tradeInfoHex}&HashIV=${keys.hashIv}`, 'utf8')
    .digest('hex')
    .toUpperCase();
}

/** Constant-time check of a received TradeSha (case-insensitive hex) against TradeInfo. */
export function verifyTradeSha(tradeInfoHex: string, receivedSha: string, keys: MpgKeys): boolean {
  const expected = Buffer.from(tradeSha(tradeInfoHex, keys), 'utf8');
  const received = Buffer.from(String(receivedSha).toUpperCase(), 'utf8');
  // timingSafeEqual needs equal lengths; the length itself (64) is no secret.
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/**
 * ItemDesc as the gateway accepts it: no line breaks or quotes (they break the gateway's page),
 * whitespace collapsed, at most 50 characters (counted in code points so no emoji is split).
 */
export function sanitizeItemDesc(text: string): string {
  const cleaned = String(text)
    .replace(/["'`\u201C\u201D\u2018\u2019]/g, '')
    .replace(/[\s\u0000-\u001F\u007F\u2028\u2029]+/g, ' ')
    .trim();
  return Array.from(cleaned).slice(0, ITEM_DESC_MAX).join('').trim();
}

function checkUrl(name: string, url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || url.length > URL_MAX) {
    throw new MpgError('invalid_url', `${name} must be an absolute http(s) URL of at most ${URL_MAX} characters`);
  }
  return url;
}

export type MpgFormInput = {
  orderNo: string;
  /** Whole TWD. */
  amount: number;
  itemDesc: string;
  email?: string;
  langType: 'en' | 'zh-tw';
  returnUrl: string;
  notifyUrl: string;
  clientBackUrl?: string;
  /** Unix seconds; the gateway accepts it within ±120 s of its own clock. */
  timestamp: number;
  /** Seconds the payment page stays valid; clamped to 60–900, default 600. */
  tradeLimitSeconds?: number;
  /**
   * An ATM virtual account (VACC=1) instead of a card (issue 22): where the gateway form-posts
   * the account through the browser, and its last day (`Ymd`, Taipei).
   */
  vacc?: { customerUrl: string; expireDate: string };
};

export type MpgForm = { MerchantID: string; TradeInfo: string; TradeSha: string; Version: string };

/** The four fields the browser form-POSTs to the gateway. Throws MpgError on invalid input. */
export function buildMpgForm(input: MpgFormInput, keys: MpgKeys, version: string = MPG_DEFAULT_VERSION): MpgForm {
  if (typeof input.orderNo !== 'string' || !MPG_ORDER_NO_PATTERN.test(input.orderNo)) {
    throw new MpgError('invalid_order_no', 'MerchantOrderNo must be 1–30 letters, digits or _');
  }
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new MpgError('invalid_amount', 'Amt must be a positive whole number of TWD');
  }
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp <= 0) {
    throw new MpgError('invalid_timestamp', 'TimeStamp must be Unix seconds');
  }
  const itemDesc = sanitizeItemDesc(input.itemDesc);
  if (!itemDesc) throw new MpgError('invalid_item_desc', 'ItemDesc is required');

  const requested = input.tradeLimitSeconds ?? MPG_TRADE_LIMIT.default;
  const tradeLimit = Number.isFinite(requested)
    ? Math.min(MPG_TRADE_LIMIT.max, Math.max(MPG_TRADE_LIMIT.min, Math.round(requested)))
    : MPG_TRADE_LIMIT.default;

  const params: Record<string, string | number> = {
    MerchantID: keys.merchantId,
    RespondType: 'JSON',
    TimeStamp: input.timestamp,
    Version: version,
    MerchantOrderNo: input.orderNo,
    Amt: input.amount,
    ItemDesc: itemDesc,
    LangType: input.langType,
    TradeLimit: tradeLimit,
    ReturnURL: checkUrl('ReturnURL', input.returnUrl),
    NotifyURL: checkUrl('NotifyURL', input.notifyUrl),
  };
  if (input.clientBackUrl) params.ClientBackURL = checkUrl('ClientBackURL', input.clientBackUrl);
  // The gateway rejects longer e-mails; it is only a pre-fill, so a long one is simply left out.
  const email = input.email?.trim();
  if (email && email.length <= EMAIL_MAX) params.Email = email;
  if (input.vacc) {
    params.VACC = 1;
    params.CustomerURL = checkUrl('CustomerURL', input.vacc.customerUrl);
    params.ExpireDate = input.vacc.expireDate;
  } else params.CREDIT = 1;

  const tradeInfo = encryptTradeInfo(params, keys);
  return { MerchantID: keys.merchantId, TradeInfo: tradeInfo, TradeSha: tradeSha(tradeInfo, keys), Version: version };
}

/** The decrypted Result of a notify / return, with the outer Status and Message. */
export type MpgResult = {
  MerchantID: string;
  Amt: number;
  TradeNo: string;
  MerchantOrderNo: string;
  PaymentType: string;
  PayTime?: string;
  RespondCode?: string;
  Auth?: string;
  Card6No?: string;
  Card4No?: string;
  /** VACC (issue 22): the account handed out (CustomerURL) and, paid, the payer's bank. */
  BankCode?: string;
  CodeNo?: string;
  ExpireDate?: string;
  ExpireTime?: string;
  PayBankCode?: string;
  PayerAccount5Code?: string;
  /** From the decrypted JSON's top level. */
  Message: string;
  /** From the decrypted JSON's top level: `SUCCESS` or an error code. */
  Status: string;
};

export type MpgVerifyFailure =
  | 'missing_fields'
  | 'too_large'
  | 'bad_trade_sha'
  | 'wrong_merchant'
  | 'decrypt_failed'
  | 'bad_json'
  | 'bad_result'
  | 'wrong_result_merchant';

export type MpgVerifyResult = { ok: true; status: string; result: MpgResult } | { ok: false; reason: MpgVerifyFailure };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Strings as-is, numbers as text (some gateway versions send codes as numbers), else undefined. */
const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

/**
 * Verifies a NotifyURL / ReturnURL form post (Status, MerchantID, Version, TradeInfo, TradeSha).
 * Hostile input never throws: it yields `{ ok: false, reason }`. Only misconfigured keys throw.
 *
 * The returned `status` comes from the decrypted (TradeSha-protected) JSON, never from the
 * unprotected outer `Status` field. Callers must still check order number and amount against
 * their order, and process idempotently (the gateway retries, and ReturnURL repeats it).
 */
export function verifyCallback(body: Record<string, unknown>, keys: MpgKeys): MpgVerifyResult {
  keyBytes(keys); // configuration errors are loud, not "bad request"
  const fields = ['Status', 'MerchantID', 'Version', 'TradeInfo', 'TradeSha'] as const;
  if (!isRecord(body) || fields.some((f) => typeof body[f] !== 'string' || body[f] === '')) {
    return { ok: false, reason: 'missing_fields' };
  }
  const tradeInfo = body.TradeInfo as string;
  if (tradeInfo.length > TRADE_INFO_MAX_CHARS) return { ok: false, reason: 'too_large' };
  if (!verifyTradeSha(tradeInfo, body.TradeSha as string, keys)) return { ok: false, reason: 'bad_trade_sha' };
  if (body.MerchantID !== keys.merchantId) return { ok: false, reason: 'wrong_merchant' };

  let plain: string;
  try {
    plain = decryptTradeInfo(tradeInfo, keys);
  } catch {
    return { ok: false, reason: 'decrypt_failed' };
  }
  let json: unknown;
  try {
    json = JSON.parse(plain);
  } catch {
    return { ok: false, reason: 'bad_json' };
  }
  if (!isRecord(json) || typeof json.Status !== 'string' || !json.Status || !isRecord(json.Result)) {
    return { ok: false, reason: 'bad_json' };
  }

  const r = json.Result;
  const amt = typeof r.Amt === 'string' && /^\d+$/.test(r.Amt) ? Number(r.Amt) : r.Amt;
  const merchantId = text(r.MerchantID);
  const orderNo = text(r.MerchantOrderNo);
  if (!merchantId || !orderNo || typeof amt !== 'number' || !Number.isSafeInteger(amt) || amt < 0) {
    return { ok: false, reason: 'bad_result' };
  }
  if (merchantId !== keys.merchantId) return { ok: false, reason: 'wrong_result_merchant' };

  const result: MpgResult = {
    MerchantID: merchantId,
    Amt: amt,
    // A failed payment may come back without a gateway trade number.
    TradeNo: text(r.TradeNo) ?? '',
    MerchantOrderNo: orderNo,
    PaymentType: text(r.PaymentType) ?? '',
    Message: text(json.Message) ?? '',
    Status: json.Status,
  };
  for (const k of [
    'PayTime',
    'RespondCode',
    'Auth',
    'Card6No',
    'Card4No',
    'BankCode',
    'CodeNo',
    'ExpireDate',
    'ExpireTime',
    'PayBankCode',
    'PayerAccount5Code',
  ] as const) {
    const v = text(r[k]);
    if (v !== undefined) result[k] = v;
  }
  return { ok: true, status: json.Status, result };
}
