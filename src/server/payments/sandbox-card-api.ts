import type { Hono } from 'hono';
import { QUERY_VERSION, queryCheckValue, readCardApiForm, resultCheckCode } from './newebpay-api';
import type { MpgKeys } from './newebpay';

/*
 * DEVELOPMENT/TEST: the sandbox gateway's side of NewebPay's card APIs (issue 22, reference
 * ezpay-invoice.md §C): QueryTradeInfo, CreditCard/Cancel and CreditCard/Close, over the trades
 * the sandbox authorised (kept in memory while the process runs). A trade is unsettled
 * (CloseStatus 0) until the nightly close at 21:00 Taipei after its authorisation, then settled
 * (3); the sandbox's trades page can settle one at once. The rules the real gateway applies and
 * the tests need: cancel only before settlement and for the whole authorised amount, refund only
 * after, at most the balance, once a day per trade; and a switch that makes the next call refuse.
 */

export type SandboxTrade = {
  merchantOrderNo: string;
  tradeNo: string;
  /** Whole TWD authorised. */
  amount: number;
  authorisedAt: number;
  paymentType: 'CREDIT' | 'VACC';
  settled: boolean;
  canceled: boolean;
  /** Whole TWD refunded so far. */
  refunded: number;
  /** Taipei days (YYYY-MM-DD) a refund was made on. */
  refundDays: string[];
  /** An ATM virtual account (VACC): where to pay, until when, and where its payment is notified. */
  atm?: { bankCode: string; codeNo: string; expiresAt: number; notifyUrl?: string; version: string; paidAt?: number };
  lang?: 'en' | 'zh';
};

export type SandboxTrades = {
  trades: Map<string, SandboxTrade>;
  /** The code the next Cancel / Close call is refused with (then cleared), if any. */
  refuseNext: string | null;
};

export const sandboxTrades = (): SandboxTrades => ({ trades: new Map(), refuseNext: null });

const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000;
const taipeiDay = (ms: number) => new Date(ms + TAIPEI_OFFSET_MS).toISOString().slice(0, 10);

/** The first 21:00 Taipei after `ms`: the gateway's nightly close. */
export function nightlyCloseAfter(ms: number): number {
  const local = new Date(ms + TAIPEI_OFFSET_MS);
  const close = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), 21) - TAIPEI_OFFSET_MS;
  return close > ms ? close : close + 24 * 60 * 60 * 1000;
}

export const closeStatusOf = (trade: SandboxTrade, nowMs: number) =>
  trade.paymentType === 'CREDIT' && (trade.settled || nowMs >= nightlyCloseAfter(trade.authorisedAt)) ? 3 : 0;

/** What the sandbox says for the codes it answers (the real gateway's texts are Chinese). */
export const SANDBOX_REFUSALS: Record<string, string> = {
  TRA10021: '查無此筆交易 (sandbox: no such trade)',
  TRA10045: '同一交易一天僅能退款一次 (sandbox: one refund a day)',
  TRA10047: '此交易未授權或尚未請款 (sandbox: not authorised or not settled)',
  TRA10050: '金額不符 (sandbox: amount does not match)',
  TRA10095: '已超過關帳時間 (sandbox: past closing time)',
  TRA20011: '此交易已請款 (sandbox: already requested)',
};

/** Mounts the card APIs on the sandbox app (its basePath is /sandbox-gateway). */
export function mountSandboxCardApi(app: Hono, options: { keys: MpgKeys; now: () => number; state: SandboxTrades }) {
  const { keys, now, state } = options;

  const form = async (c: { req: { parseBody: () => Promise<Record<string, unknown>> } }) => {
    try {
      const body = await c.req.parseBody();
      return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
    } catch {
      return {} as Record<string, string>;
    }
  };
  const refusal = (code: string) => ({ Status: code, Message: SANDBOX_REFUSALS[code] ?? code, Result: [] });

  app.post('/API/QueryTradeInfo', async (c) => {
    const f = await form(c);
    const trade = state.trades.get(f.MerchantOrderNo ?? '');
    if (f.MerchantID !== keys.merchantId || f.Version !== QUERY_VERSION) return c.json(refusal('TRA10008'));
    if (f.CheckValue !== queryCheckValue(keys, Number(f.Amt), f.MerchantOrderNo ?? ''))
      return c.json({ Status: 'TRA10008', Message: 'CheckValue', Result: [] });
    if (!trade || trade.amount !== Number(f.Amt)) return c.json(refusal('TRA10021'));
    const closeStatus = trade.canceled ? 0 : closeStatusOf(trade, now());
    const result = {
      MerchantID: keys.merchantId,
      Amt: trade.amount,
      TradeNo: trade.tradeNo,
      MerchantOrderNo: trade.merchantOrderNo,
      TradeStatus: trade.canceled ? '3' : trade.refunded >= trade.amount ? '6' : '1',
      PaymentType: trade.paymentType,
      CloseStatus: String(closeStatus),
      BackStatus: trade.refunded > 0 ? '3' : '0',
      BackBalance: String(trade.amount - trade.refunded),
    };
    return c.json({
      Status: 'SUCCESS',
      Message: '查詢成功',
      Result: { ...result, CheckCode: resultCheckCode(keys, result) },
    });
  });

  const answer = (trade: SandboxTrade, amount: number, message: string, signed: boolean) => {
    const result = {
      MerchantID: keys.merchantId,
      Amt: amount,
      MerchantOrderNo: trade.merchantOrderNo,
      TradeNo: trade.tradeNo,
    };
    return {
      Status: 'SUCCESS',
      Message: message,
      Result: signed ? { ...result, CheckCode: resultCheckCode(keys, result) } : result,
    };
  };

  /**
   * A Cancel or Close call's form and the card trade it names, or the code it is refused with: a
   * form that does not decrypt, the refusal queued by a test (once), no such card trade.
   */
  const cardTradeCall = async (c: Parameters<typeof form>[0]) => {
    const p = readCardApiForm(await form(c), keys);
    if (!p) return { refused: 'TRA10008' };
    if (state.refuseNext) {
      const code = state.refuseNext;
      state.refuseNext = null;
      return { refused: code };
    }
    const trade = state.trades.get(p.get('MerchantOrderNo') ?? '');
    if (!trade || trade.paymentType !== 'CREDIT') return { refused: 'TRA10021' };
    return { p, trade };
  };

  app.post('/API/CreditCard/Cancel', async (c) => {
    const call = await cardTradeCall(c);
    if (call.refused !== undefined) return c.json(refusal(call.refused));
    const { p, trade } = call;
    if (trade.canceled) return c.json(refusal('TRA10047'));
    if (closeStatusOf(trade, now()) !== 0) return c.json(refusal('TRA20011'));
    if (Number(p.get('Amt')) !== trade.amount) return c.json(refusal('TRA10050'));
    trade.canceled = true;
    trade.refunded = trade.amount;
    return c.json(answer(trade, trade.amount, '放棄授權成功', true));
  });

  app.post('/API/CreditCard/Close', async (c) => {
    const call = await cardTradeCall(c);
    if (call.refused !== undefined) return c.json(refusal(call.refused));
    const { p, trade } = call;
    const amount = Number(p.get('Amt'));
    const settled = !trade.canceled && closeStatusOf(trade, now()) === 3;
    // CloseType 1 + Cancel 1 (cancel a payment request still waiting): the sandbox settles at the
    // nightly close at once, so a request is never waiting.
    if (p.get('CloseType') !== '2' || p.get('Cancel')) return c.json(refusal('TRA20011'));
    if (!settled) return c.json(refusal('TRA10047'));
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > trade.amount - trade.refunded)
      return c.json(refusal('TRA10050'));
    const day = taipeiDay(now());
    if (trade.refundDays.includes(day)) return c.json(refusal('TRA10045'));
    trade.refunded += amount;
    trade.refundDays.push(day);
    return c.json(answer(trade, amount, '退款成功', false));
  });
}
