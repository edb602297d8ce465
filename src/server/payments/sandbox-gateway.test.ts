import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { buildMpgForm, encryptTradeInfo, tradeSha, verifyCallback, type MpgFormInput, type MpgKeys } from './newebpay';
import { createSandboxGateway, SANDBOX_TEST_CARDS } from './sandbox-gateway';
import { APPROVED_CARD } from './card-fixtures';

const keys: MpgKeys = {
  merchantId: 'MS123456789',
  hashKey: '12345678901234567890123456789012',
  hashIv: 'abcdefghijklmnop',
};
const NOW = Date.UTC(2026, 10, 21, 2, 0, 0); // 2026-11-21 10:00:00 in Taipei
const input: MpgFormInput = {
  orderNo: 'ORD_20261121_0001',
  amount: 1000,
  itemDesc: 'Professional badge',
  langType: 'en',
  returnUrl: 'https://portal.example.com/api/v1/payments/newebpay/return',
  notifyUrl: 'https://api.example.com/api/v1/payments/newebpay/notify',
  clientBackUrl: 'https://portal.example.com/en/orders/1',
  timestamp: NOW / 1000,
};
const goodCard = { CardNo: SANDBOX_TEST_CARDS.success, CardExp: '12/30', CardCVC: '123' };

type FetchCall = [string, RequestInit];

function setup(respond: () => Promise<Response> = async () => new Response('1|OK', { status: 200 })) {
  let now = NOW;
  const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(respond);
  const log = vi.fn();
  const app = createSandboxGateway({ keys, fetch, now: () => now, log });
  const post = (path: 'mpg_gateway' | 'pay', fields: Record<string, string>) =>
    app.request(`/sandbox-gateway/MPG/${path}`, { method: 'POST', body: new URLSearchParams(fields) });
  return { app, fetch, log, post, setNow: (ms: number) => (now = ms) };
}

const form = (over: Partial<MpgFormInput> = {}) => buildMpgForm({ ...input, ...over }, keys);

/** The fields the sandbox posted to NotifyURL in one fetch call. */
const notifyBody = (call: FetchCall | undefined) => Object.fromEntries(new URLSearchParams(String(call?.[1].body)));

/** Hidden input name → value in a page. */
const hiddenFields = (page: string) =>
  Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );

describe('sandbox gateway: payment page', () => {
  it('accepts a form from buildMpgForm and shows order, item and amount in English', async () => {
    const { post } = setup();
    const res = await post('mpg_gateway', form());
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('NewebPay sandbox — test payments only, no money moves');
    expect(page).toContain('ORD_20261121_0001');
    expect(page).toContain('Professional badge');
    expect(page).toContain('TWD 1,000');
    expect(page).toContain('Card number');
    expect(page).toContain(SANDBOX_TEST_CARDS.success);
    expect(page).toContain(SANDBOX_TEST_CARDS.declined);
    expect(page).toContain(`<a href="${input.clientBackUrl}">Cancel and go back</a>`);
    expect(hiddenFields(page)).toEqual(form());
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('speaks Traditional Chinese for LangType zh-tw', async () => {
    const { post } = setup();
    const page = await (await post('mpg_gateway', form({ langType: 'zh-tw' }))).text();
    expect(page).toContain('<html lang="zh-TW">');
    for (const text of [
      '測試用付款頁面',
      '藍新金流測試環境：僅供測試，不會實際扣款',
      '卡號',
      '有效期限',
      '安全碼',
      '付款',
      '取消並返回',
      'TWD 1,000',
      'ORD_20261121_0001',
    ]) {
      expect(page).toContain(text);
    }
  });

  it('ties every visible input to a label, with card autocomplete and numeric input mode', async () => {
    const { post } = setup();
    const page = await (await post('mpg_gateway', form())).text();
    const inputs = [...page.matchAll(/<input id="([^"]+)"([^>]*)>/g)];
    expect(inputs.map((m) => m[1])).toEqual(['cardNo', 'exp', 'cvc']);
    for (const [, id, attrs] of inputs) {
      expect(page).toContain(`<label for="${id}">`);
      expect(attrs).toContain('inputmode="numeric"');
    }
    expect(page).toMatch(/autocomplete="cc-number"/);
    expect(page).toMatch(/autocomplete="cc-exp"/);
    expect(page).toMatch(/autocomplete="cc-csc"/);
  });

  it('escapes merchant-supplied text', async () => {
    const { post } = setup();
    const page = await (await post('mpg_gateway', form({ itemDesc: '<img src=x onerror=alert(1)>' }))).text();
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('rejects a tampered TradeSha, another merchant, missing fields and a stale or future TimeStamp with 400', async () => {
    const { post, setNow } = setup();
    const good = form();
    const tampered = await post('mpg_gateway', {
      ...good,
      TradeSha: good.TradeSha.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    });
    expect(tampered.status).toBe(400);
    const page = await tampered.text();
    expect(page).toContain('TradeSha does not match');
    expect(page).toContain('TradeSha 與 TradeInfo 不符');

    const otherMerchant = buildMpgForm(input, { ...keys, merchantId: 'MS999' });
    expect((await post('mpg_gateway', otherMerchant)).status).toBe(400);
    expect((await post('mpg_gateway', { ...good, MerchantID: 'MS999' })).status).toBe(400);
    expect((await post('mpg_gateway', { MerchantID: keys.merchantId })).status).toBe(400);
    expect((await post('mpg_gateway', { ...good, TradeInfo: 'zz', TradeSha: 'zz' })).status).toBe(400);

    setNow(NOW + 121_000);
    const stale = await post('mpg_gateway', good);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain('expired');
    setNow(NOW - 121_000);
    expect((await post('mpg_gateway', good)).status).toBe(400);
    setNow(NOW + 119_000);
    expect((await post('mpg_gateway', good)).status).toBe(200);
  });
});

describe('sandbox gateway: paying', () => {
  it('pays with the success card: one notify that verifyCallback accepts, then a form post to ReturnURL', async () => {
    const { post, fetch } = setup();
    const res = await post('pay', { ...form(), ...goodCard, CardNo: '4000 2211 1111 1111' });
    expect(res.status).toBe(200);

    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(input.notifyUrl);
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded' });
    const notified = notifyBody(fetch.mock.calls[0]);
    const v = verifyCallback(notified, keys);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.status).toBe('SUCCESS');
    expect(v.result).toMatchObject({
      MerchantID: keys.merchantId,
      MerchantOrderNo: input.orderNo,
      Amt: 1000,
      ...APPROVED_CARD,
    });
    expect(v.result.TradeNo).toMatch(/^261121\d{8}$/);

    const page = await res.text();
    expect(page).toContain(`<form method="post" action="${input.returnUrl}">`);
    expect(hiddenFields(page)).toEqual(notified);
    expect(page).toContain('Continue');
    // The CSP allows exactly the inline script on the page, by hash, and posting to ReturnURL's origin.
    const script = /<script>([^<]*)<\/script>/.exec(page)?.[1] ?? '';
    expect(script).toBe('document.forms[0].submit()');
    const hash = createHash('sha256').update(script).digest('base64');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).toContain('form-action https://portal.example.com');
  });

  it('declines the declined card (MPG03009) and unknown cards (MPG05002), still notifying and returning', async () => {
    const { post, fetch } = setup();
    const declined = await post('pay', {
      ...form({ langType: 'zh-tw' }),
      ...goodCard,
      CardNo: SANDBOX_TEST_CARDS.declined,
    });
    expect(declined.status).toBe(200);
    const page = await declined.text();
    expect(page).toContain('繼續');
    expect(page).toContain('卡片遭拒絕');
    const v = verifyCallback(notifyBody(fetch.mock.calls[0]), keys);
    expect(v.ok && v.status).toBe('MPG03009');
    expect(v.ok && v.result.Message).toBe('Card declined (sandbox)');
    expect(v.ok && v.result.RespondCode).toBe('05');
    expect(v.ok && v.result.Auth).toBe('');

    await post('pay', { ...form(), ...goodCard, CardNo: '5555555555554444' });
    const unknown = verifyCallback(notifyBody(fetch.mock.calls[1]), keys);
    expect(unknown.ok && unknown.status).toBe('MPG05002');
  });

  it('re-renders the form with field errors (400) and sends no notify for bad card details', async () => {
    const { post, fetch } = setup();
    const bad = await post('pay', { ...form(), CardNo: SANDBOX_TEST_CARDS.success, CardExp: '13/30', CardCVC: '12' });
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toContain('Enter an expiry date that has not passed');
    expect(page).toContain('Enter the 3- or 4-digit security code');
    expect(page).toContain('aria-invalid="true" aria-describedby="exp-hint exp-error"');
    expect(page).toContain(`value="${SANDBOX_TEST_CARDS.success}"`); // kept, so only the bad fields need retyping
    expect(hiddenFields(page)).toEqual(form());

    // Last month has passed (Taipei time); this month is still valid; MMYY without a slash is fine.
    expect((await post('pay', { ...form(), ...goodCard, CardExp: '10/26' })).status).toBe(400);
    expect((await post('pay', { ...form(), ...goodCard, CardNo: '4000-abc' })).status).toBe(400);
    expect((await post('pay', { ...form(), ...goodCard, CardNo: '' })).status).toBe(400);
    expect(fetch).not.toHaveBeenCalled();
    expect((await post('pay', { ...form(), ...goodCard, CardExp: '1126' })).status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never trusts the hidden fields: tampering or expiry on the pay step is a 400 without notify', async () => {
    const { post, fetch, setNow } = setup();
    const good = form();
    expect((await post('pay', { ...good, ...goodCard, TradeSha: '0'.repeat(64) })).status).toBe(400);
    expect((await post('pay', { ...good, ...goodCard, MerchantID: 'MS999' })).status).toBe(400);
    // The page may stay open for TradeLimit (600 s by default) after the entry window.
    setNow(NOW + (120 + 600 + 1) * 1000);
    expect((await post('pay', { ...good, ...goodCard })).status).toBe(400);
    expect(fetch).not.toHaveBeenCalled();
    setNow(NOW + 300_000);
    expect((await post('pay', { ...good, ...goodCard })).status).toBe(200);
  });

  it('retries a notify that does not answer 200 three times, and still sends the browser back', async () => {
    const { post, fetch, log } = setup(async () => new Response('error', { status: 500 }));
    const res = await post('pay', { ...form(), ...goodCard });
    expect(fetch).toHaveBeenCalledTimes(4); // the first attempt + 3 retries
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`action="${input.returnUrl}"`);
    expect(log).toHaveBeenCalledWith('sandbox-gateway: notify given up', expect.objectContaining({ attempts: 4 }));
  });

  it('survives a notify endpoint that cannot be reached, and stops retrying once it answers 200', async () => {
    let calls = 0;
    const { post, fetch } = setup(async () => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response('', { status: calls === 2 ? 502 : 200 });
    });
    const res = await post('pay', { ...form(), ...goodCard });
    expect(res.status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('shows its own result page when there is no ReturnURL', async () => {
    const { post } = setup();
    // buildMpgForm always sets ReturnURL; a merchant that does not is simulated by hand.
    const params = {
      MerchantID: keys.merchantId,
      RespondType: 'JSON',
      TimeStamp: NOW / 1000,
      Version: '2.0',
      MerchantOrderNo: 'ORD_2',
      Amt: 500,
      ItemDesc: 'Badge',
      LangType: 'en',
      CREDIT: 1,
    };
    const info = encryptTradeInfo(params, keys);
    const res = await post('pay', {
      MerchantID: keys.merchantId,
      Version: '2.0',
      TradeInfo: info,
      TradeSha: tradeSha(info, keys),
      ...goodCard,
    });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Payment successful.');
    expect(page).not.toContain('<script>');
  });
});
