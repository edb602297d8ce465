import { createHash } from 'node:crypto';
import { decryptTradeInfo, encryptTradeInfo, type MpgKeys } from './newebpay';

/*
 * NewebPay's server-to-server card APIs (issue 22, reference ezpay-invoice.md §B–C): the trade's
 * state (`/API/QueryTradeInfo`), cancel-authorisation (`/API/CreditCard/Cancel`, 取消授權) and
 * request / refund (`/API/CreditCard/Close`, 請退款). The requests are a form of `MerchantID_`
 * and `PostData_` (TradeInfo's AES hex, payment keys, no TradeSha); QueryTradeInfo is plain fields
 * with a CheckValue. Hosts: the MPG gateway's (test `ccore`, production `core`).
 */

export const QUERY_VERSION = '1.3';
export const CANCEL_VERSION = '1.0';
export const CLOSE_VERSION = '1.1';

/** QueryTradeInfo CloseStatus: 0 unsettled, 1 waiting, 2 working, 3 settled (請款). */
export type CloseStatus = 0 | 1 | 2 | 3;

/** The refund call a trade takes, by its CloseStatus (reference §C). */
export type RefundCall =
  { api: 'cancel' } | { api: 'close'; closeType: 1; cancel: true } | { api: 'close'; closeType: 2; cancel: false };

export function refundCallFor(closeStatus: CloseStatus): RefundCall {
  if (closeStatus === 0) return { api: 'cancel' };
  if (closeStatus === 1) return { api: 'close', closeType: 1, cancel: true };
  return { api: 'close', closeType: 2, cancel: false };
}

const sha256Upper = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();

/** QueryTradeInfo's CheckValue: `IV=…&Amt=…&MerchantID=…&MerchantOrderNo=…&Key=…`. */
export function queryCheckValue(keys: MpgKeys, amount: number, merchantOrderNo: string): string {
  return sha256Upper(
    `IV=${keys.hashIv}&Amt=${amount}&MerchantID=${keys.merchantId}&MerchantOrderNo=${merchantOrderNo}&Key=${keys.hashKey}`,
  );
}

/** The CheckCode of a Cancel answer (and of a trade's result): HashIV first, HashKey last. */
export function resultCheckCode(
  keys: MpgKeys,
  r: { Amt: number | string; MerchantID: string; MerchantOrderNo: string; TradeNo: string },
): string {
  return sha256Upper(
    `HashIV=${keys.hashIv}&Amt=${r.Amt}&MerchantID=${r.MerchantID}&MerchantOrderNo=${r.MerchantOrderNo}&TradeNo=${r.TradeNo}&HashKey=${keys.hashKey}`,
  );
}

/** The form of a Cancel / Close call. */
export function cardApiForm(
  keys: MpgKeys,
  call: RefundCall,
  input: { merchantOrderNo: string; amount: number; timestamp: number },
): Record<string, string> {
  const params: Record<string, string | number> = {
    RespondType: 'JSON',
    Version: call.api === 'cancel' ? CANCEL_VERSION : CLOSE_VERSION,
    Amt: input.amount,
    MerchantOrderNo: input.merchantOrderNo,
    IndexType: 1,
    TimeStamp: input.timestamp,
  };
  if (call.api === 'close') {
    params.CloseType = call.closeType;
    if (call.cancel) params.Cancel = 1;
  }
  return { MerchantID_: keys.merchantId, PostData_: encryptTradeInfo(params, keys) };
}

/** Reads the PostData_ of a Cancel / Close call (the sandbox gateway's side). */
export function readCardApiForm(form: Record<string, string>, keys: MpgKeys): URLSearchParams | null {
  if (form.MerchantID_ !== keys.merchantId || !form.PostData_) return null;
  try {
    return new URLSearchParams(decryptTradeInfo(form.PostData_, keys));
  } catch {
    return null;
  }
}

export type GatewayAnswer = {
  ok: boolean;
  /** `SUCCESS` or the gateway's error code (`http_502`, `unreachable`, `bad_answer` for ours). */
  status: string;
  message: string;
  tradeNo: string | null;
};

export type TradeState =
  { ok: true; closeStatus: CloseStatus; tradeNo: string | null } | { ok: false; answer: GatewayAnswer };

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** A client of the card APIs at `base` (the gateway host, or the sandbox's mount). */
export function cardApi(options: { base: string; keys: MpgKeys; fetch: Fetch; timeoutMs?: number }) {
  const { keys } = options;
  const post = async (path: string, form: Record<string, string>): Promise<Record<string, unknown> | GatewayAnswer> => {
    let res: Response;
    try {
      res = await options.fetch(`${options.base.replace(/\/$/, '')}${path}`, {
        method: 'POST',
        // The gateway's edge refuses some default user agents (reference §C).
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'tccf-portal/1.0' },
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
      });
    } catch (error) {
      return { ok: false, status: 'unreachable', message: String((error as Error)?.message ?? error), tradeNo: null };
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, status: `http_${res.status}`, message: `HTTP ${res.status}`, tradeNo: null };
    }
    try {
      const json: unknown = await res.json();
      if (isRecord(json) && typeof json.Status === 'string') return json;
    } catch {
      // falls through
    }
    return { ok: false, status: 'bad_answer', message: 'The gateway answered something unreadable', tradeNo: null };
  };
  const failed = (v: Record<string, unknown> | GatewayAnswer): v is GatewayAnswer => typeof v.ok === 'boolean';
  const resultOf = (json: Record<string, unknown>) =>
    isRecord(json.Result)
      ? json.Result
      : typeof json.Result === 'string'
        ? (() => {
            try {
              const parsed: unknown = JSON.parse(json.Result);
              return isRecord(parsed) ? parsed : {};
            } catch {
              return {};
            }
          })()
        : {};

  return {
    /** The trade's settlement state (CloseStatus). */
    async query(input: { merchantOrderNo: string; amount: number; timestamp: number }): Promise<TradeState> {
      const json = await post('/API/QueryTradeInfo', {
        MerchantID: keys.merchantId,
        Version: QUERY_VERSION,
        RespondType: 'JSON',
        CheckValue: queryCheckValue(keys, input.amount, input.merchantOrderNo),
        TimeStamp: String(input.timestamp),
        MerchantOrderNo: input.merchantOrderNo,
        Amt: String(input.amount),
      });
      if (failed(json)) return { ok: false, answer: json };
      const r = resultOf(json);
      const close = Number(str(r.CloseStatus));
      if (json.Status !== 'SUCCESS' || ![0, 1, 2, 3].includes(close))
        return {
          ok: false,
          answer: { ok: false, status: str(json.Status) || 'bad_answer', message: str(json.Message), tradeNo: null },
        };
      return { ok: true, closeStatus: close as CloseStatus, tradeNo: str(r.TradeNo) || null };
    },

    /** Cancels the authorisation, or asks for the refund, as `call` says. */
    async refund(
      call: RefundCall,
      input: { merchantOrderNo: string; amount: number; timestamp: number },
    ): Promise<GatewayAnswer> {
      const json = await post(
        call.api === 'cancel' ? '/API/CreditCard/Cancel' : '/API/CreditCard/Close',
        cardApiForm(keys, call, input),
      );
      if (failed(json)) return json;
      const r = resultOf(json);
      const answer = {
        status: str(json.Status),
        message: str(json.Message),
        tradeNo: str(r.TradeNo) || null,
      };
      if (answer.status !== 'SUCCESS') return { ok: false, ...answer };
      // The answer must be about this trade; Cancel's is signed (CheckCode), Close's is not.
      if (str(r.MerchantOrderNo) !== input.merchantOrderNo || Number(str(r.Amt)) !== input.amount)
        return { ok: false, status: 'bad_answer', message: 'The answer names another trade or amount', tradeNo: null };
      if (call.api === 'cancel') {
        const expected = resultCheckCode(keys, {
          Amt: str(r.Amt),
          MerchantID: str(r.MerchantID),
          MerchantOrderNo: str(r.MerchantOrderNo),
          TradeNo: str(r.TradeNo),
        });
        if (str(r.CheckCode).toUpperCase() !== expected)
          return { ok: false, status: 'bad_answer', message: 'CheckCode does not match', tradeNo: null };
      }
      return { ok: true, ...answer };
    },
  };
}
export type CardApi = ReturnType<typeof cardApi>;
