import { createHash, randomInt } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { html, raw } from 'hono/html';
import {
  decryptTradeInfo,
  encryptText,
  MPG_ORDER_NO_PATTERN,
  MPG_TRADE_LIMIT,
  tradeSha,
  verifyTradeSha,
  type MpgKeys,
} from './newebpay';
import { closeStatusOf, mountSandboxCardApi, sandboxTrades, type SandboxTrades } from './sandbox-card-api';

/*
 * DEVELOPMENT/TEST card gateway. Stands in for NewebPay's MPG endpoint (`/MPG/mpg_gateway`) when
 * no real gateway URL is configured, implementing the gateway's side of the same protocol (D10,
 * reference newebpay-mpg.md): it verifies TradeSha, decrypts TradeInfo, shows a card form, then
 * posts an encrypted result to NotifyURL (server to server, retried unless HTTP 200) and sends the
 * browser to ReturnURL with the same five fields. No money moves; only test cards are accepted.
 * It is stateless: the payment step re-posts and re-verifies the original four fields, so paying
 * twice with the same form yields two notifies, which the merchant side must handle idempotently
 * (as it must with the real gateway's retries).
 */

export const SANDBOX_TEST_CARDS = { success: '4000-2211-1111-1111', declined: '4000-0000-0000-0002' } as const;

export type SandboxGatewayOptions = {
  keys: MpgKeys;
  /** Used for the server-to-server notify; injectable so tests and in-process setups can route it. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  log?: (msg: string, data?: object) => void;
  /** The trades it authorised (the card APIs cancel and refund them); default: its own. */
  state?: SandboxTrades;
};

/** The gateway allows TimeStamp within ±120 s of its clock. */
const CLOCK_SKEW_SECONDS = 120;
/** MPG offers ATM (VACC) up to this amount (reference ezpay-invoice.md §B). */
export const ATM_LIMIT = 49_999;
/** Retries after a first notify attempt that did not get HTTP 200. */
const NOTIFY_RETRIES = 3;
/** A hung notify endpoint must not hold the paying browser forever. */
const NOTIFY_TIMEOUT_MS = 10_000;
/** Taipei is UTC+8 all year (no daylight saving), so a fixed offset is exact. */
const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000;

// The return page auto-submits with this exact script; the CSP allows it by hash only.
const AUTO_SUBMIT_SCRIPT = 'document.forms[0].submit()';
const AUTO_SUBMIT_HASH = `'sha256-${createHash('sha256').update(AUTO_SUBMIT_SCRIPT, 'utf8').digest('base64')}'`;

type Lang = 'en' | 'zh';

const copy = {
  en: {
    banner: 'NewebPay sandbox — test payments only, no money moves',
    title: 'Test payment page',
    orderNo: 'Merchant order number',
    item: 'Item',
    amount: 'Amount',
    cardNo: 'Card number',
    exp: 'Expiry date',
    expHint: 'MM/YY',
    cvc: 'CVC',
    cvcHint: '3 or 4 digits',
    pay: 'Pay',
    cancel: 'Cancel and go back',
    fixErrors: 'Please correct the fields marked below.',
    errCardNo: 'Enter the card number: 12 to 19 digits.',
    errExp: 'Enter an expiry date that has not passed, as MM/YY.',
    errCvc: 'Enter the 3- or 4-digit security code.',
    testCards: 'Test cards',
    sep: ': ',
    succeeds: 'payment succeeds',
    isDeclined: 'the card is declined',
    anyExpiry: 'Use any future expiry date and any 3-digit CVC.',
    returning: 'Returning to the merchant',
    continue: 'Continue',
    result: 'Payment result',
    paid: 'Payment successful.',
    declined: 'Payment failed: the card was declined.',
    unknownCard: 'Payment failed: unknown card. Use one of the test cards.',
  },
  zh: {
    banner: '藍新金流測試環境：僅供測試，不會實際扣款',
    title: '測試用付款頁面',
    orderNo: '商店訂單編號',
    item: '商品名稱',
    amount: '金額',
    cardNo: '卡號',
    exp: '有效期限',
    expHint: '月／年（MM/YY）',
    cvc: '安全碼',
    cvcHint: '卡片背面 3 或 4 位數字',
    pay: '付款',
    cancel: '取消並返回',
    fixErrors: '請修正下列標示的欄位。',
    errCardNo: '請輸入 12 至 19 位數字的卡號。',
    errExp: '請以 MM/YY 格式輸入尚未到期的有效期限。',
    errCvc: '請輸入 3 或 4 位數字的安全碼。',
    testCards: '測試卡號',
    sep: '：',
    succeeds: '付款成功',
    isDeclined: '交易遭拒',
    anyExpiry: '有效期限請填任一未來日期，安全碼可填任意 3 位數字。',
    returning: '正在返回商店',
    continue: '繼續',
    result: '付款結果',
    paid: '付款成功。',
    declined: '付款失敗：卡片遭拒絕。',
    unknownCard: '付款失敗：無法辨識的卡號，請使用測試卡號。',
  },
} satisfies Record<Lang, Record<string, string>>;

/** The banks MPG offers for ATM (BankType), with their bank codes. */
const ATM_BANKS = {
  BOT: { code: '004', name: { en: 'Bank of Taiwan', zh: '臺灣銀行' } },
  HNCB: { code: '008', name: { en: 'Hua Nan Bank', zh: '華南銀行' } },
  FirstBank: { code: '007', name: { en: 'First Bank', zh: '第一銀行' } },
} as const;

const atmCopy = {
  en: {
    title: 'ATM transfer',
    bank: 'Bank of the account',
    getAccount: 'Get an account number',
    accountTitle: 'Your ATM transfer account',
    bankCode: 'Bank code',
    accountNo: 'Account number',
    deadline: 'Pay by',
    simulateHint: 'Sandbox: simulate the ATM payment on the trades page',
    tradesTitle: 'Sandbox trades',
    none: 'No trade yet.',
    method: 'Method',
    card: 'Card',
    account: 'Account or trade',
    status: 'Status',
    action: 'Action',
    paid: 'Paid',
    expired: 'Expired',
    waiting: 'Waiting for the transfer',
    canceled: 'Authorisation cancelled',
    settled: 'Settled',
    unsettled: 'Authorised, not settled',
    refunded: 'refunded',
    simulate: 'Simulate the ATM payment',
    settle: 'Settle now',
    refuseTitle: 'Refusals',
    refuseCode: 'Error code the next cancel or refund call answers',
    refuse: 'Refuse the next call',
    done: 'Done.',
  },
  zh: {
    title: 'ATM 轉帳',
    bank: '轉帳帳號銀行',
    getAccount: '取得轉帳帳號',
    accountTitle: '您的 ATM 轉帳帳號',
    bankCode: '銀行代碼',
    accountNo: '轉帳帳號',
    deadline: '繳費期限',
    simulateHint: '測試環境：請至交易列表模擬 ATM 付款',
    tradesTitle: '測試環境交易列表',
    none: '尚無交易。',
    method: '付款方式',
    card: '信用卡',
    account: '帳號或交易序號',
    status: '狀態',
    action: '操作',
    paid: '已付款',
    expired: '已逾期',
    waiting: '等待轉帳',
    canceled: '已取消授權',
    settled: '已請款',
    unsettled: '已授權，尚未請款',
    refunded: '已退款',
    simulate: '模擬 ATM 付款',
    settle: '立即請款',
    refuseTitle: '拒絕測試',
    refuseCode: '下一次取消授權或退款要回覆的錯誤代碼',
    refuse: '拒絕下一次呼叫',
    done: '已完成。',
  },
} satisfies Record<Lang, Record<string, string>>;

type RejectReason = 'missing_fields' | 'bad_trade_sha' | 'wrong_merchant' | 'decrypt_failed' | 'bad_params' | 'expired';

/** Bilingual explanations for a rejected request: we may not know its LangType. */
const rejectCopy: Record<RejectReason, { en: string; zh: string }> = {
  missing_fields: {
    en: 'The request is missing MerchantID, TradeInfo, TradeSha or Version.',
    zh: '請求缺少 MerchantID、TradeInfo、TradeSha 或 Version。',
  },
  bad_trade_sha: {
    en: 'TradeSha does not match TradeInfo: the request was altered, or HashKey / HashIV differ.',
    zh: 'TradeSha 與 TradeInfo 不符：請求可能遭竄改，或 HashKey／HashIV 設定不一致。',
  },
  wrong_merchant: { en: 'Unknown MerchantID.', zh: '商店代號（MerchantID）不符。' },
  decrypt_failed: { en: 'TradeInfo could not be decrypted.', zh: '無法解密 TradeInfo。' },
  bad_params: { en: 'A TradeInfo parameter is missing or invalid:', zh: 'TradeInfo 參數缺漏或格式錯誤：' },
  expired: {
    en: 'The request has expired: TimeStamp is more than 120 seconds from the gateway clock, or the payment time limit has passed.',
    zh: '請求已逾時：TimeStamp 與金流主機時間相差超過 120 秒，或已超過交易限制時間。',
  },
};

/** The original four fields, carried as hidden inputs so the payment step stays stateless. */
type GatewayFields = { MerchantID: string; TradeInfo: string; TradeSha: string; Version: string };

type Trade = {
  fields: GatewayFields;
  orderNo: string;
  amount: number;
  itemDesc: string;
  lang: Lang;
  returnUrl?: string;
  notifyUrl?: string;
  clientBackUrl?: string;
  /** An ATM virtual account asked for (VACC=1, issue 22) instead of a card. */
  vacc?: { customerUrl?: string; expireDate?: string; bankType?: string };
};

type Verified = { ok: true; trade: Trade } | { ok: false; reason: RejectReason; detail?: string };

const isHttpUrl = (value: string) => {
  try {
    return /^https?:$/.test(new URL(value).protocol) && value.length <= 200;
  } catch {
    return false;
  }
};

/**
 * Verifies the gateway form post (or its hidden re-post on the payment step). The payment step
 * allows the TradeLimit on top of the entry skew: the page may legitimately stay open that long.
 */
function verifyRequest(
  body: Record<string, unknown>,
  keys: MpgKeys,
  nowSeconds: number,
  step: 'entry' | 'pay',
): Verified {
  const { MerchantID, TradeInfo, TradeSha, Version } = body;
  if (![MerchantID, TradeInfo, TradeSha, Version].every((v) => typeof v === 'string' && v !== '')) {
    return { ok: false, reason: 'missing_fields' };
  }
  const fields = { MerchantID, TradeInfo, TradeSha, Version } as GatewayFields;
  if (!verifyTradeSha(fields.TradeInfo, fields.TradeSha, keys)) return { ok: false, reason: 'bad_trade_sha' };
  if (fields.MerchantID !== keys.merchantId) return { ok: false, reason: 'wrong_merchant' };

  let params: URLSearchParams;
  try {
    params = new URLSearchParams(decryptTradeInfo(fields.TradeInfo, keys));
  } catch {
    return { ok: false, reason: 'decrypt_failed' };
  }
  const p = (name: string) => params.get(name) ?? '';
  const bad = (detail: string): Verified => ({ ok: false, reason: 'bad_params', detail });

  if (p('MerchantID') !== keys.merchantId) return { ok: false, reason: 'wrong_merchant' };
  if (p('Version') !== fields.Version) return bad('Version');
  if (p('RespondType') !== 'JSON') return bad('RespondType (only JSON is supported)');
  if (!/^\d{1,12}$/.test(p('TimeStamp'))) return bad('TimeStamp');
  if (!MPG_ORDER_NO_PATTERN.test(p('MerchantOrderNo'))) return bad('MerchantOrderNo');
  if (!/^[1-9]\d{0,9}$/.test(p('Amt'))) return bad('Amt');
  const itemDesc = p('ItemDesc');
  if (!itemDesc || Array.from(itemDesc).length > 50 || /[\r\n"']/.test(itemDesc)) return bad('ItemDesc');
  if (p('CREDIT') !== '1' && p('VACC') !== '1') return bad('CREDIT or VACC (this sandbox takes cards and ATM)');
  if (p('CREDIT') !== '1' && Number(p('Amt')) > ATM_LIMIT) return bad('Amt (ATM transfers take at most 49,999)');
  if (params.has('CustomerURL') && !isHttpUrl(p('CustomerURL'))) return bad('CustomerURL');
  if (params.has('ExpireDate') && !/^\d{8}$/.test(p('ExpireDate'))) return bad('ExpireDate');
  for (const name of ['ReturnURL', 'NotifyURL', 'ClientBackURL']) {
    if (params.has(name) && !isHttpUrl(p(name))) return bad(name);
  }
  if (params.has('TradeLimit') && !/^\d{1,6}$/.test(p('TradeLimit'))) return bad('TradeLimit');

  const age = nowSeconds - Number(p('TimeStamp'));
  const tradeLimit = Number(p('TradeLimit')) || MPG_TRADE_LIMIT.max;
  const maxAge =
    CLOCK_SKEW_SECONDS +
    (step === 'pay' ? Math.min(Math.max(tradeLimit, MPG_TRADE_LIMIT.min), MPG_TRADE_LIMIT.max) : 0);
  if (age < -CLOCK_SKEW_SECONDS || age > maxAge) return { ok: false, reason: 'expired' };

  return {
    ok: true,
    trade: {
      fields,
      orderNo: p('MerchantOrderNo'),
      amount: Number(p('Amt')),
      itemDesc,
      lang: p('LangType') === 'en' ? 'en' : 'zh', // the gateway shows Traditional Chinese for anything but en
      returnUrl: p('ReturnURL') || undefined,
      notifyUrl: p('NotifyURL') || undefined,
      clientBackUrl: p('ClientBackURL') || undefined,
      ...(p('CREDIT') !== '1'
        ? {
            vacc: {
              customerUrl: p('CustomerURL') || undefined,
              expireDate: p('ExpireDate') || undefined,
              bankType: p('BankType') || undefined,
            },
          }
        : {}),
    },
  };
}

/** Taipei wall-clock parts of an instant. */
function taipei(ms: number) {
  const d = new Date(ms + TAIPEI_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}
const pad2 = (n: number) => String(n).padStart(2, '0');

type CardInput = { cardNo: string; exp: string; cvc: string };
type CardErrors = Partial<Record<keyof CardInput, string>>;

/** Validates the card form; returns the card digits or per-field errors. */
function readCard(
  input: CardInput,
  nowMs: number,
  t: (typeof copy)[Lang],
): { digits: string } | { errors: CardErrors } {
  const errors: CardErrors = {};
  const digits = input.cardNo.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) errors.cardNo = t.errCardNo;

  const exp = input.exp.trim();
  const m = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(exp) ?? /^(\d{2})(\d{2})$/.exec(exp);
  const month = Number(m?.[1]);
  const year = 2000 + Number(m?.[2]);
  const today = taipei(nowMs);
  // A card is valid through the last day of its expiry month.
  if (!m || month < 1 || month > 12 || year * 12 + month < today.year * 12 + today.month) errors.exp = t.errExp;

  if (!/^\d{3,4}$/.test(input.cvc.trim())) errors.cvc = t.errCvc;
  return Object.keys(errors).length ? { errors } : { digits };
}

const formatTwd = (amount: number) => `TWD ${new Intl.NumberFormat('en-US').format(amount)}`;

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;background:#f5f5f5;color:#171717;line-height:1.5}
main{max-width:28rem;margin:2rem auto;background:#fff;padding:2rem;border-radius:.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.5rem;margin:1rem 0}h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
.banner{background:#fff4ed;border:1px solid #b23c00;color:#742b0a;padding:.5rem .75rem;border-radius:.25rem;font-size:.875rem;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dt{color:#404040}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
label{display:block;margin-top:1rem;font-weight:600}
input{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;border:1px solid #737373;border-radius:.25rem;font:inherit}
input[aria-invalid=true]{border-color:#a8161f;border-width:2px}
.hint{margin:.125rem 0 0;color:#525252;font-size:.875rem}
button{margin-top:1.5rem;width:100%;padding:.6rem;background:#b23c00;color:#fff;border:0;border-radius:.25rem;font:inherit;font-weight:600;cursor:pointer}
.error{color:#a8161f;margin:.25rem 0 0}a{color:#1d4ed8}code{font-size:1rem}
input[type=radio]{display:inline;width:auto;margin:0 .5rem 0 0}fieldset{border:0;padding:0;margin:1rem 0 0}legend{font-weight:600}
main:has(table){max-width:64rem}table{border-collapse:collapse;width:100%;margin-top:1rem}th,td{border-bottom:1px solid #d4d4d4;padding:.375rem;text-align:left;vertical-align:top}td button{margin:0;width:auto;padding:.375rem .75rem}
.cards{margin-top:1.5rem;padding:.75rem 1rem;background:#f5f5f5;border-radius:.25rem}.cards ul{padding-left:1.25rem;margin:.25rem 0}
`;

const page = (lang: Lang, title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="${lang === 'en' ? 'en' : 'zh-TW'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${title}</title><style>${raw(STYLE)}</style></head><body><main>${body}</main></body></html>`;

/** A page about a trade: the sandbox's banner, the title as its heading, then the body. */
const tradePage = (lang: Lang, title: string, body: ReturnType<typeof html>) =>
  page(
    lang,
    title,
    html`
      <p class="banner" role="note">${copy[lang].banner}</p>
      <h1>${title}</h1>${body}`,
  );

/** Pages carry their own CSP: they are served by Hono, outside Astro's headers. */
const BASE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

const hiddenInputs = (fields: Record<string, string>) =>
  Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);

/** The test gateway as a Hono app mounted at /sandbox-gateway. */
export function createSandboxGateway(options: SandboxGatewayOptions) {
  const { keys } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((msg: string, data?: object) => console.info(msg, data ?? ''));
  const app = new Hono().basePath('/sandbox-gateway');
  const state = options.state ?? sandboxTrades();
  mountSandboxCardApi(app, { keys, now, state });

  /**
   * What the gateway posts to the merchant about a trade (notify, return, customer URL): the
   * result encrypted (with RespondType=JSON the plain text is the JSON itself) and its hash.
   */
  const postedResult = (status: string, version: string, result: object) => {
    const tradeInfo = encryptText(JSON.stringify(result), keys);
    return {
      Status: status,
      MerchantID: keys.merchantId,
      Version: version,
      TradeInfo: tradeInfo,
      TradeSha: tradeSha(tradeInfo, keys),
    };
  };

  const send = (c: Context, body: ReturnType<typeof html>, status: 200 | 400, csp: string) => {
    c.header('content-security-policy', csp);
    c.header('cache-control', 'no-store');
    return c.html(body, status);
  };

  const readForm = async (c: Context): Promise<Record<string, string>> => {
    try {
      const body = await c.req.parseBody();
      return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
    } catch {
      return {};
    }
  };

  const rejectPage = (c: Context, v: Extract<Verified, { ok: false }>) => {
    log('sandbox-gateway: request rejected', { reason: v.reason, detail: v.detail });
    const r = rejectCopy[v.reason];
    return send(
      c,
      page(
        'en',
        'Payment request rejected',
        html`
      <p class="banner" role="note">${copy.en.banner}<br><span lang="zh-TW">${copy.zh.banner}</span></p>
      <h1>This payment request cannot be processed <span lang="zh-TW">無法處理此付款請求</span></h1>
      <p>${r.en}${v.detail ? html` <code>${v.detail}</code>` : ''}</p>
      <p lang="zh-TW">${r.zh}${v.detail ? html` <code>${v.detail}</code>` : ''}</p>
      <p class="hint">Reason code / 錯誤代碼：<code>${v.reason}</code></p>`,
      ),
      400,
      BASE_CSP,
    );
  };

  const paymentPage = (trade: Trade, values?: Partial<CardInput>, errors: CardErrors = {}) => {
    const t = copy[trade.lang];
    const field = (
      key: keyof CardInput,
      label: string,
      attrs: { name: string; autocomplete: string; maxlength: number; hint?: string },
    ) => {
      const id = key;
      const hintId = attrs.hint ? `${id}-hint` : undefined;
      const by = [hintId, errors[key] ? `${id}-error` : undefined].filter(Boolean).join(' ');
      return html`
        <label for="${id}">${label}</label>
        ${attrs.hint ? html`<p id="${hintId}" class="hint">${attrs.hint}</p>` : ''}
        <input id="${id}" name="${attrs.name}" type="text" inputmode="numeric" autocomplete="${attrs.autocomplete}"
          maxlength="${attrs.maxlength}" required value="${key === 'cvc' ? '' : (values?.[key] ?? '')}"
          ${errors[key] ? html`aria-invalid="true"` : ''} ${by ? html`aria-describedby="${by}"` : ''}>
        ${errors[key] ? html`<p id="${id}-error" class="error">${errors[key]}</p>` : ''}`;
    };
    return tradePage(
      trade.lang,
      t.title,
      html`
      <dl>
        <dt>${t.orderNo}</dt><dd>${trade.orderNo}</dd>
        <dt>${t.item}</dt><dd>${trade.itemDesc}</dd>
        <dt>${t.amount}</dt><dd>${formatTwd(trade.amount)}</dd>
      </dl>
      ${Object.keys(errors).length ? html`<p class="error" role="alert">${t.fixErrors}</p>` : ''}
      <form method="post" action="pay" novalidate>
        ${hiddenInputs(trade.fields)}
        ${field('cardNo', t.cardNo, { name: 'CardNo', autocomplete: 'cc-number', maxlength: 23 })}
        ${field('exp', t.exp, { name: 'CardExp', autocomplete: 'cc-exp', maxlength: 7, hint: t.expHint })}
        ${field('cvc', t.cvc, { name: 'CardCVC', autocomplete: 'cc-csc', maxlength: 4, hint: t.cvcHint })}
        <button type="submit">${t.pay}</button>
      </form>
      ${trade.clientBackUrl ? html`<p><a href="${trade.clientBackUrl}">${t.cancel}</a></p>` : ''}
      <section class="cards" aria-labelledby="test-cards">
        <h2 id="test-cards">${t.testCards}</h2>
        <ul>
          <li><code>${SANDBOX_TEST_CARDS.success}</code>${t.sep}${t.succeeds}</li>
          <li><code>${SANDBOX_TEST_CARDS.declined}</code>${t.sep}${t.isDeclined}</li>
        </ul>
        <p>${t.anyExpiry}</p>
      </section>`,
    );
  };

  /** Posts the result to NotifyURL; only HTTP 200 counts as delivered, as with the real gateway. */
  const notify = async (url: string, fields: Record<string, string>, orderNo: string) => {
    for (let attempt = 1; attempt <= 1 + NOTIFY_RETRIES; attempt++) {
      try {
        const res = await options.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields),
          signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
        });
        await res.body?.cancel().catch(() => undefined); // free the connection; the body is not used
        if (res.status === 200) {
          log('sandbox-gateway: notify delivered', { url, orderNo, status: fields.Status, attempt });
          return;
        }
        log('sandbox-gateway: notify not accepted', { url, orderNo, attempt, httpStatus: res.status });
      } catch (error) {
        log('sandbox-gateway: notify failed', { url, orderNo, attempt, error: String(error) });
      }
    }
    log('sandbox-gateway: notify given up', { url, orderNo, attempts: 1 + NOTIFY_RETRIES });
  };

  app.post('/MPG/mpg_gateway', async (c) => {
    const v = verifyRequest(await readForm(c), keys, Math.floor(now() / 1000), 'entry');
    if (!v.ok) return rejectPage(c, v);
    if (v.trade.vacc) return send(c, atmPage(v.trade), 200, `${BASE_CSP}; form-action 'self'`);
    return send(c, paymentPage(v.trade), 200, `${BASE_CSP}; form-action 'self'`);
  });

  // ---- ATM virtual accounts (VACC, issue 22) ----------------------------------------------------
  /** The payer picks a bank; the gateway hands out an account for this trade. */
  const atmPage = (trade: Trade) => {
    const t = atmCopy[trade.lang];
    const offered = (trade.vacc?.bankType || Object.keys(ATM_BANKS).join(','))
      .split(',')
      .filter((b): b is keyof typeof ATM_BANKS => b in ATM_BANKS);
    return tradePage(
      trade.lang,
      t.title,
      html`
      <dl>
        <dt>${copy[trade.lang].orderNo}</dt><dd>${trade.orderNo}</dd>
        <dt>${copy[trade.lang].item}</dt><dd>${trade.itemDesc}</dd>
        <dt>${copy[trade.lang].amount}</dt><dd>${formatTwd(trade.amount)}</dd>
      </dl>
      <form method="post" action="vacc">
        ${hiddenInputs(trade.fields)}
        <fieldset><legend>${t.bank}</legend>
        ${offered.map(
          (b, i) =>
            html`<label><input type="radio" name="Bank" value="${b}" ${i === 0 ? 'checked' : ''}> ${ATM_BANKS[b].name[trade.lang]} (${ATM_BANKS[b].code})</label>`,
        )}
        </fieldset>
        <button type="submit">${t.getAccount}</button>
      </form>
      ${trade.clientBackUrl ? html`<p><a href="${trade.clientBackUrl}">${copy[trade.lang].cancel}</a></p>` : ''}`,
    );
  };

  app.post('/MPG/vacc', async (c) => {
    const body = await readForm(c);
    const v = verifyRequest(body, keys, Math.floor(now() / 1000), 'pay');
    if (!v.ok) return rejectPage(c, v);
    const { trade } = v;
    if (!trade.vacc) return rejectPage(c, { ok: false, reason: 'bad_params', detail: 'VACC' });
    const t = atmCopy[trade.lang];
    const bank = ATM_BANKS[(body.Bank ?? '') as keyof typeof ATM_BANKS] ?? ATM_BANKS.BOT;
    const seen = state.trades.get(trade.orderNo);
    const at = taipei(now());
    // The account is due at 23:59:59 Taipei of ExpireDate, else of the 7th day counting today.
    const due = trade.vacc.expireDate
      ? Date.UTC(
          +trade.vacc.expireDate.slice(0, 4),
          +trade.vacc.expireDate.slice(4, 6) - 1,
          +trade.vacc.expireDate.slice(6, 8),
        )
      : Date.UTC(at.year, at.month - 1, at.day + 6);
    const expiresAt = due + (24 * 60 * 60 - 1) * 1000 - TAIPEI_OFFSET_MS;
    const tradeNo =
      seen?.tradeNo ??
      `${pad2(at.year % 100)}${pad2(at.month)}${pad2(at.day)}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    const atm = seen?.atm ?? {
      bankCode: bank.code,
      codeNo: `${randomInt(10_000_000, 100_000_000)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`,
      expiresAt,
      ...(trade.notifyUrl ? { notifyUrl: trade.notifyUrl } : {}),
      version: trade.fields.Version,
    };
    state.trades.set(trade.orderNo, {
      merchantOrderNo: trade.orderNo,
      tradeNo,
      amount: trade.amount,
      authorisedAt: now(),
      paymentType: 'VACC',
      settled: false,
      canceled: false,
      refunded: 0,
      refundDays: [],
      atm,
      lang: trade.lang,
    });
    const due8 = taipei(atm.expiresAt);
    const result = {
      Status: 'SUCCESS',
      Message: '取號成功',
      Result: {
        MerchantID: keys.merchantId,
        Amt: trade.amount,
        TradeNo: tradeNo,
        MerchantOrderNo: trade.orderNo,
        PaymentType: 'VACC',
        ExpireDate: `${due8.year}-${pad2(due8.month)}-${pad2(due8.day)}`,
        ExpireTime: '23:59:59',
        BankCode: atm.bankCode,
        CodeNo: atm.codeNo,
      },
    };
    const fields = postedResult('SUCCESS', trade.fields.Version, result);
    log('sandbox-gateway: virtual account', { orderNo: trade.orderNo, amount: trade.amount });
    const account = html`
      <dl>
        <dt>${t.bankCode}</dt><dd>${atm.bankCode}</dd>
        <dt>${t.accountNo}</dt><dd>${atm.codeNo}</dd>
        <dt>${copy[trade.lang].amount}</dt><dd>${formatTwd(trade.amount)}</dd>
        <dt>${t.deadline}</dt><dd>${result.Result.ExpireDate} 23:59:59</dd>
      </dl>
      <p><a href="../trades?lang=${trade.lang}">${t.simulateHint}</a></p>`;
    if (!trade.vacc.customerUrl) return send(c, tradePage(trade.lang, t.accountTitle, account), 200, BASE_CSP);
    // With CustomerURL the account goes to the merchant through the browser (a form post).
    const csp = `${BASE_CSP}; script-src ${AUTO_SUBMIT_HASH}; form-action ${new URL(trade.vacc.customerUrl).origin}`;
    return send(
      c,
      tradePage(
        trade.lang,
        copy[trade.lang].returning,
        html`
      ${account}
      <form method="post" action="${trade.vacc.customerUrl}">
        ${hiddenInputs(fields)}
        <button type="submit">${copy[trade.lang].continue}</button>
      </form>
      <script>${raw(AUTO_SUBMIT_SCRIPT)}</script>`,
      ),
      200,
      csp,
    );
  });

  /** The trades the sandbox knows: settle a card trade, pay an ATM account, make the next refund refuse. */
  app.get('/trades', (c) => {
    const lang: Lang = c.req.query('lang') === 'zh' || c.req.query('lang') === 'zh-TW' ? 'zh' : 'en';
    const t = atmCopy[lang];
    const nowMs = now();
    const trades = [...state.trades.values()].reverse();
    const rows = trades.map((tr) => {
      const day = taipei(tr.atm?.expiresAt ?? tr.authorisedAt);
      const atmState = tr.atm
        ? tr.atm.paidAt
          ? t.paid
          : nowMs > tr.atm.expiresAt
            ? t.expired
            : t.waiting
        : tr.canceled
          ? t.canceled
          : closeStatusOf(tr, nowMs) === 3
            ? t.settled
            : t.unsettled;
      return html`<tr>
        <td>${tr.merchantOrderNo}</td><td>${tr.paymentType === 'VACC' ? 'ATM' : t.card}</td>
        <td>${formatTwd(tr.amount)}${tr.refunded ? html`<br>${t.refunded} ${formatTwd(tr.refunded)}` : ''}</td>
        <td>${tr.atm ? html`${tr.atm.bankCode} ${tr.atm.codeNo}<br>${day.year}-${pad2(day.month)}-${pad2(day.day)}` : tr.tradeNo}</td>
        <td>${atmState}</td>
        <td>${
          tr.atm && !tr.atm.paidAt && nowMs <= tr.atm.expiresAt
            ? html`<form method="post" action="trades/pay-atm"><input type="hidden" name="MerchantOrderNo" value="${tr.merchantOrderNo}"><input type="hidden" name="lang" value="${lang}"><button type="submit">${t.simulate}</button></form>`
            : !tr.atm && !tr.canceled && closeStatusOf(tr, nowMs) === 0
              ? html`<form method="post" action="trades/settle"><input type="hidden" name="MerchantOrderNo" value="${tr.merchantOrderNo}"><input type="hidden" name="lang" value="${lang}"><button type="submit">${t.settle}</button></form>`
              : ''
        }</td></tr>`;
    });
    return send(
      c,
      tradePage(
        lang,
        t.tradesTitle,
        html`
      ${c.req.query('done') ? html`<p role="status">${t.done}</p>` : ''}
      ${
        trades.length
          ? html`<table><caption>${t.tradesTitle}</caption><thead><tr><th scope="col">${copy[lang].orderNo}</th><th scope="col">${t.method}</th><th scope="col">${copy[lang].amount}</th><th scope="col">${t.account}</th><th scope="col">${t.status}</th><th scope="col">${t.action}</th></tr></thead><tbody>${rows}</tbody></table>`
          : html`<p>${t.none}</p>`
      }
      <h2>${t.refuseTitle}</h2>
      <form method="post" action="API/sandbox/refuse-next">
        <label for="code">${t.refuseCode}</label>
        <input id="code" name="code" value="${state.refuseNext ?? 'TRA10095'}" maxlength="12">
        <input type="hidden" name="lang" value="${lang}">
        <button type="submit">${t.refuse}</button>
      </form>`,
      ),
      200,
      `${BASE_CSP}; form-action 'self'`,
    );
  });

  const backToTrades = (c: Context, lang: string | undefined) =>
    c.redirect(`/sandbox-gateway/trades?lang=${lang === 'zh' ? 'zh' : 'en'}&done=1`, 303);

  app.post('/trades/settle', async (c) => {
    const body = await readForm(c);
    const tr = state.trades.get(body.MerchantOrderNo ?? '');
    if (tr) tr.settled = true;
    return backToTrades(c, body.lang);
  });

  app.post('/API/sandbox/refuse-next', async (c) => {
    const body = await readForm(c);
    state.refuseNext = /^[A-Z0-9]{1,12}$/.test(body.code ?? '') ? body.code! : 'TRA10095';
    return backToTrades(c, body.lang);
  });

  /** The payer transfers to the account: the gateway notifies the merchant (no browser return). */
  app.post('/trades/pay-atm', async (c) => {
    const body = await readForm(c);
    const tr = state.trades.get(body.MerchantOrderNo ?? '');
    if (!tr?.atm || tr.atm.paidAt || now() > tr.atm.expiresAt)
      return rejectPage(c, { ok: false, reason: 'expired', detail: body.MerchantOrderNo ?? '' });
    tr.atm.paidAt = now();
    const at = taipei(now());
    const result = {
      Status: 'SUCCESS',
      Message: '付款成功',
      Result: {
        MerchantID: keys.merchantId,
        Amt: tr.amount,
        TradeNo: tr.tradeNo,
        MerchantOrderNo: tr.merchantOrderNo,
        PaymentType: 'VACC',
        RespondType: 'JSON',
        PayTime: `${at.year}-${pad2(at.month)}-${pad2(at.day)} ${pad2(at.hour)}:${pad2(at.minute)}:${pad2(at.second)}`,
        IP: '127.0.0.1',
        EscrowBank: 'HNCB',
        PayBankCode: '812',
        PayerAccount5Code: '12345',
      },
    };
    const fields = postedResult('SUCCESS', tr.atm.version, result);
    log('sandbox-gateway: ATM payment', { orderNo: tr.merchantOrderNo, amount: tr.amount });
    if (tr.atm.notifyUrl) await notify(tr.atm.notifyUrl, fields, tr.merchantOrderNo).catch(() => undefined);
    return backToTrades(c, body.lang);
  });

  app.post('/MPG/pay', async (c) => {
    const body = await readForm(c);
    // The hidden fields come back from the browser: verify them exactly like a new request.
    const v = verifyRequest(body, keys, Math.floor(now() / 1000), 'pay');
    if (!v.ok) return rejectPage(c, v);
    const { trade } = v;
    const t = copy[trade.lang];

    const input: CardInput = { cardNo: body.CardNo ?? '', exp: body.CardExp ?? '', cvc: body.CardCVC ?? '' };
    const card = readCard(input, now(), t);
    if ('errors' in card)
      return send(c, paymentPage(trade, input, card.errors), 400, `${BASE_CSP}; form-action 'self'`);

    // NewebPay's codes: MPG03009 for an authorisation the bank declined, MPG05002 for a card the
    // shop does not accept (the registrant reads them translated, @domain/payments cardFailure).
    const outcome =
      card.digits === SANDBOX_TEST_CARDS.success.replace(/-/g, '')
        ? { Status: 'SUCCESS', Message: 'Payment authorised (sandbox)', text: t.paid }
        : card.digits === SANDBOX_TEST_CARDS.declined.replace(/-/g, '')
          ? { Status: 'MPG03009', Message: 'Card declined (sandbox)', text: t.declined }
          : { Status: 'MPG05002', Message: 'Unknown card (sandbox): use a test card', text: t.unknownCard };
    const success = outcome.Status === 'SUCCESS';

    const at = taipei(now());
    // Gateway trade numbers look like YYMMDD + 8 digits (Taipei date).
    const tradeNo = `${pad2(at.year % 100)}${pad2(at.month)}${pad2(at.day)}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    if (success)
      state.trades.set(trade.orderNo, {
        merchantOrderNo: trade.orderNo,
        tradeNo,
        amount: trade.amount,
        authorisedAt: now(),
        paymentType: 'CREDIT',
        settled: false,
        canceled: false,
        refunded: 0,
        refundDays: [],
      });
    const result = {
      Status: outcome.Status,
      Message: outcome.Message,
      Result: {
        MerchantID: keys.merchantId,
        Amt: trade.amount,
        TradeNo: tradeNo,
        MerchantOrderNo: trade.orderNo,
        PaymentType: 'CREDIT',
        RespondType: 'JSON',
        PayTime: `${at.year}-${pad2(at.month)}-${pad2(at.day)} ${pad2(at.hour)}:${pad2(at.minute)}:${pad2(at.second)}`,
        IP: '127.0.0.1',
        EscrowBank: 'HNCB',
        AuthBank: 'KGI',
        RespondCode: success ? '00' : '05',
        Auth: success ? '123456' : '',
        Card6No: card.digits.slice(0, 6),
        Card4No: card.digits.slice(-4),
      },
    };
    const fields = postedResult(outcome.Status, trade.fields.Version, result);

    log('sandbox-gateway: payment', { orderNo: trade.orderNo, amount: trade.amount, status: outcome.Status });
    // Awaited so the merchant usually knows the outcome before the browser returns; failures are
    // logged inside and never reach the browser response.
    if (trade.notifyUrl) await notify(trade.notifyUrl, fields, trade.orderNo).catch(() => undefined);

    // The outcome's page: what happened, then the way on.
    const outcomePage = (title: string, next: ReturnType<typeof html> | '', csp: string) =>
      send(
        c,
        tradePage(
          trade.lang,
          title,
          html`
      <p>${outcome.text}</p>
      ${next}`,
        ),
        200,
        csp,
      );
    // Without a ReturnURL the real gateway shows its own result page.
    if (!trade.returnUrl)
      return outcomePage(
        t.result,
        trade.clientBackUrl ? html`<p><a href="${trade.clientBackUrl}">${t.cancel}</a></p>` : '',
        BASE_CSP,
      );
    return outcomePage(
      t.returning,
      html`<form method="post" action="${trade.returnUrl}">
        ${hiddenInputs(fields)}
        <button type="submit">${t.continue}</button>
      </form>
      <script>${raw(AUTO_SUBMIT_SCRIPT)}</script>`,
      `${BASE_CSP}; script-src ${AUTO_SUBMIT_HASH}; form-action ${new URL(trade.returnUrl).origin}`,
    );
  });

  return app;
}
