import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { badges, events, orders, paymentNotifications } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { decryptTradeInfo } from '@server/payments/newebpay';
import { SANDBOX_TEST_CARDS } from '@server/payments/sandbox-gateway';
import { markPaid } from '@server/payments/payments';
import { verifyPickupCode } from '@server/badges/pickup';
import {
  bearer,
  createTestApp,
  DATABASES,
  openTestDatabase,
  signIn,
  TEST_ORIGIN,
  type TestApp,
  type TestDatabase,
} from './helpers';
import {
  applyBadge,
  counts,
  getJson,
  hiddenFields,
  json,
  keysOf,
  orderState,
  postForm,
  signedCallback,
} from './fixtures';

const DAY = 24 * 60 * 60 * 1000;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.each(DATABASES)('payments API (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  let order: Awaited<ReturnType<typeof applyBadge>>;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database);
    ({ token } = await signIn(app, 'amy@example.com', 'Amy'));
    order = await applyBadge(app, token);
  });

  const put = (body: unknown, path = `/api/v1/orders/${order.order_id}`, t = token) =>
    app.request(path, json(t, 'PUT', body));
  const state = () => orderState(database.db, order.order_id);
  const paidCtx = () => ({ now: new Date(), pickupSecret: app.config.PICKUP_CODE_SECRET });

  /** A refused update: status and code, and the order, payment, receipt and badge rows unchanged. */
  async function expectUnchanged(request: () => Response | Promise<Response>, status: number, code: string) {
    const before = await state();
    const beforeCounts = await counts(database.db);
    const res = await request();
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ code });
    expect(body.error).toBe(body.message);
    expect(await state()).toEqual(before);
    expect(await counts(database.db)).toEqual(beforeCounts);
    return body;
  }

  describe('transfer and invoice details (PUT /orders/{id}, PUT /demonstration_order)', () => {
    it('a TWD transfer with the last five digits moves the order to checking and issues the badge without QR', async () => {
      const res = await put({ payment: { type: 'TWD', last_five_digits: '12345' }, lang: 'en' });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({
        order_id: order.order_id,
        payment_status: 'checking',
        payment: { type: 'TWD', status: 'checking', last_five_digits: '12345', amount_twd: 100_000 },
      });
      const { order: row, badge } = await state();
      expect(row!.paymentStatus).toBe('checking');
      expect(badge).not.toBeNull();
      const shown = await getJson(app, '/api/v1/demonstration', token);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toMatchObject({
        payment_status: 'checking',
        qr_code_image: null,
        identity: 'PROFESSIONAL',
      });
      // The badge order, and the order itself, show the same.
      expect((await getJson(app, '/api/v1/demonstration_order', token)).body.data.payment_status).toBe('checking');
    });

    it.each(['1234', '123456', 'abcde', '12 345', ''])(
      'refuses last five digits %j with 400 and changes nothing',
      async (digits) => {
        const body = await expectUnchanged(
          () => put({ payment: { type: 'TWD', last_five_digits: digits } }),
          400,
          'validation_failed',
        );
        expect(body.issues).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: 'payment.last_five_digits' })]),
        );
      },
    );

    it('refuses a transfer without the last five digits', async () => {
      const body = await expectUnchanged(() => put({ payment: { type: 'atm' } }), 400, 'validation_failed');
      expect(body.issues).toEqual([expect.objectContaining({ path: 'payment.last_five_digits' })]);
    });

    it('refuses a USD transfer without remitter and sending bank; takes it with them, in USD', async () => {
      const body = await expectUnchanged(
        () => put({ payment: { type: 'USD', last_five_digits: '12345' } }),
        400,
        'validation_failed',
      );
      expect(body.issues.map((i: { path: string }) => i.path).sort()).toEqual([
        'payment.remitter',
        'payment.sender_bank',
      ]);
      await expectUnchanged(
        () => put({ payment: { type: 'USD', last_five_digits: '12345', remitter: 'Amy Chen', sender_bank: '' } }),
        400,
        'validation_failed',
      );

      const ok = await put({
        payment: { type: 'USD', last_five_digits: '12345', remitter: 'Amy Chen', sender_bank: 'First Bank' },
      });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({
        payment_status: 'checking',
        currency: 'USD',
        amount_cents: 3_500,
        payment: { amount_usd: 3_500, amount_twd: null, remitter: 'Amy Chen', sender_bank: 'First Bank' },
      });
    });

    it('refuses an unknown payment type', async () => {
      await expectUnchanged(
        () => put({ payment: { type: 'bitcoin', last_five_digits: '12345' } }),
        400,
        'validation_failed',
      );
    });

    it('lets the digits be corrected while checking, but not a switch to card (409 payment_type_locked)', async () => {
      expect((await put({ payment: { type: 'TWD', last_five_digits: '12345' } })).status).toBe(200);
      const fixed = await put({ payment: { type: 'TWD', last_five_digits: '54321' } });
      expect(fixed.status).toBe(200);
      expect((await fixed.json()).payment.last_five_digits).toBe('54321');
      expect(await counts(database.db)).toMatchObject({ badges: 1 });
      await expectUnchanged(() => put({ payment: { type: 'credit_card' } }), 409, 'payment_type_locked');
      // Nor can a card payment be started.
      await expectUnchanged(
        () => app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, bearer(token)),
        409,
        'order_not_payable',
      );
    });

    it('the badge order route does the same: PUT /demonstration_order', async () => {
      const res = await put(
        { payment: { type: 'TWD', last_five_digits: '12345' }, receipt: { kind: 'personal' } },
        '/api/v1/demonstration_order',
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        order_id: order.order_id,
        payment_status: 'checking',
        receipt: { kind: 'personal', invoice_title: null },
      });
      await expectUnchanged(
        () => put({ payment: { type: 'TWD', last_five_digits: '1234' } }, '/api/v1/demonstration_order'),
        400,
        'validation_failed',
      );
      const { token: bob } = await signIn(app, 'bob@example.com');
      await expectUnchanged(
        () => put({ receipt: { kind: 'personal' } }, '/api/v1/demonstration_order', bob),
        404,
        'not_found',
      );
    });

    it('a company receipt needs a title and a unified business number that passes the checksum', async () => {
      const bad = await expectUnchanged(
        () =>
          put({
            receipt: { kind: 'company', invoice_title: 'Good Pictures Ltd.', unified_business_number: '12345678' },
          }),
        400,
        'validation_failed',
      );
      expect(bad.issues).toEqual([expect.objectContaining({ path: 'receipt.unified_business_number' })]);
      const missing = await expectUnchanged(() => put({ receipt: { kind: 'company' } }), 400, 'validation_failed');
      expect(missing.issues.map((i: { path: string }) => i.path).sort()).toEqual([
        'receipt.invoice_title',
        'receipt.unified_business_number',
      ]);
      await expectUnchanged(
        () => put({ receipt: { kind: 'company', invoice_title: 'X', unified_business_number: '0459525' } }),
        400,
        'validation_failed',
      );

      const ok = await put({
        receipt: { kind: 'company', invoice_title: 'Good Pictures Ltd.', unified_business_number: '04595257' },
      });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({
        receipt: { kind: 'company', invoice_title: 'Good Pictures Ltd.', unified_business_number: '04595257' },
        payment_status: 'pending',
      });
      expect((await state()).receipt).toMatchObject({ kind: 'company', unifiedBusinessNumber: '04595257' });
      // Back to a personal invoice drops the number.
      const personal = await put({ receipt: { kind: 'personal', unified_business_number: '04595257' } });
      expect((await personal.json()).receipt).toMatchObject({ kind: 'personal', unified_business_number: null });
    });

    it('a paid order refuses any change with 409 order_paid', async () => {
      expect((await put({ payment: { type: 'TWD', last_five_digits: '12345' } })).status).toBe(200);
      expect(await markPaid(database.db, order.order_no, paidCtx())).toBe('paid');
      const paid = await state();
      expect(paid.order!.paymentStatus).toBe('paid');
      await expectUnchanged(() => put({ payment: { type: 'TWD', last_five_digits: '54321' } }), 409, 'order_paid');
      await expectUnchanged(
        () => put({ receipt: { kind: 'company', invoice_title: 'X', unified_business_number: '04595257' } }),
        409,
        'order_paid',
      );
      await expectUnchanged(
        () => put({ receipt: { kind: 'personal' } }, '/api/v1/demonstration_order'),
        409,
        'order_paid',
      );
      // And the QR code is there now.
      const badge = (await getJson(app, '/api/v1/demonstration', token)).body.data;
      expect([...Buffer.from(badge.qr_code_image, 'base64').subarray(0, 8)]).toEqual(PNG_MAGIC);
    });

    it("after the event's form_modify_expires_at: declared details are locked (409, nothing written), paying is not", async () => {
      const declared = await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(token, 'PUT', { payment: { type: 'TWD', last_five_digits: '12345' } }),
      );
      expect(declared.status).toBe(200);
      await database.db
        .update(events)
        .set({ formModifyExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(events.slug, 'badge-professional'));
      await expectUnchanged(
        () => put({ payment: { type: 'TWD', last_five_digits: '54321' } }),
        409,
        'form_modify_expired',
      );
      await expectUnchanged(
        () => put({ receipt: { kind: 'personal' } }, '/api/v1/demonstration_order'),
        409,
        'form_modify_expired',
      );
    });

    it('an unpaid order can still be paid after form_modify_expires_at (until its payment deadline)', async () => {
      await database.db
        .update(events)
        .set({ formModifyExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(events.slug, 'badge-professional'));
      const res = await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(token, 'PUT', { payment: { type: 'credit_card' } }),
      );
      expect(res.status).toBe(200);
      const transfer = await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(token, 'PUT', { payment: { type: 'TWD', last_five_digits: '12345' } }),
      );
      expect(transfer.status).toBe(200);
      expect((await transfer.json()).payment_status).toBe('checking');
    });

    it('an order past its payment deadline is closed (409), even before the expiry run', async () => {
      await database.db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, order.order_id));
      const res = await app.request(
        `/api/v1/orders/${order.order_id}`,
        json(token, 'PUT', { payment: { type: 'TWD', last_five_digits: '12345' } }),
      );
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'order_closed' });
      const { order: row, badge } = await state();
      expect(row!.paymentStatus).not.toBe('checking');
      expect(badge).toBeNull();
    });

    it("another user's order is a 404, and nothing changes", async () => {
      const { token: bob } = await signIn(app, 'bob@example.com');
      await expectUnchanged(
        () => put({ payment: { type: 'TWD', last_five_digits: '12345' } }, undefined, bob),
        404,
        'not_found',
      );
      expect((await app.request(`/api/v1/orders/${order.order_id}`, bearer(bob))).status).toBe(404);
      await expectUnchanged(
        () => app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, bearer(bob)),
        404,
        'not_found',
      );
      expect((await put({ receipt: { kind: 'personal' } }, '/api/v1/orders/not-a-uuid')).status).toBe(404);
    });
  });

  describe('card payment through the embedded sandbox gateway', () => {
    const tradeInfo = async (lang = 'en') => {
      const res = await app.request(`/api/v1/payment/${order.order_id}/tradeinfo?lang=${lang}`, bearer(token));
      expect(res.status).toBe(200);
      return (await res.json()).data as {
        gateway_url: string;
        merchant_id: string;
        version: string;
        trade_info_hex: string;
        trade_info_hash: string;
        order_no: string;
      };
    };
    const gatewayForm = (info: Awaited<ReturnType<typeof tradeInfo>>) => ({
      MerchantID: info.merchant_id,
      TradeInfo: info.trade_info_hex,
      TradeSha: info.trade_info_hash,
      Version: info.version,
    });
    /** The browser's part: the hidden form to the gateway, the card form, then the return post. */
    async function payByCard(card: string, lang = 'en') {
      const info = await tradeInfo(lang);
      const entry = await postForm(app, '/sandbox-gateway/MPG/mpg_gateway', gatewayForm(info));
      expect(entry.status).toBe(200);
      const page = await entry.text();
      expect(page).toContain(order.order_no);
      const paid = await postForm(app, '/sandbox-gateway/MPG/pay', {
        ...hiddenFields(page),
        CardNo: card,
        CardExp: '12/39',
        CardCVC: '123',
      });
      expect(paid.status).toBe(200);
      const returning = await paid.text();
      const action = /<form method="post" action="([^"]+)">/.exec(returning)![1]!;
      expect(action).toBe(`${TEST_ORIGIN}/api/v1/payment/newebpay/return?lang=${lang === 'zh-TW' ? 'zh-TW' : 'en'}`);
      const back = await postForm(app, action.slice(TEST_ORIGIN.length), hiddenFields(returning));
      return { info, back };
    }

    it('trade info: the gateway form fields, and TradeInfo decrypts to this order on this origin', async () => {
      const info = await tradeInfo();
      expect(info).toMatchObject({
        gateway_url: `${TEST_ORIGIN}/sandbox-gateway/MPG/mpg_gateway`,
        merchant_id: 'MS_SANDBOX',
        version: '2.0',
        trade_info_hex: expect.stringMatching(/^[0-9a-f]+$/),
        trade_info_hash: expect.stringMatching(/^[0-9A-F]{64}$/),
        order_no: order.order_no,
      });
      const params = new URLSearchParams(decryptTradeInfo(info.trade_info_hex, keysOf(app)));
      expect(Object.fromEntries(params)).toMatchObject({
        MerchantID: 'MS_SANDBOX',
        RespondType: 'JSON',
        Version: '2.0',
        MerchantOrderNo: `${order.order_no}_1`,
        Amt: '1000',
        ItemDesc: 'Professional badge',
        LangType: 'en',
        CREDIT: '1',
        Email: 'amy@example.com',
        ReturnURL: `${TEST_ORIGIN}/api/v1/payment/newebpay/return?lang=en`,
        NotifyURL: `${TEST_ORIGIN}/api/v1/payment/newebpay/notify`,
        ClientBackURL: `${TEST_ORIGIN}/en/badges/${order.order_id}/pay`,
      });
      expect(Math.abs(Number(params.get('TimeStamp')) - Date.now() / 1000)).toBeLessThan(60);
      // Every attempt gets its own MerchantOrderNo; Chinese when asked.
      const again = await tradeInfo('zh-TW');
      const second = new URLSearchParams(decryptTradeInfo(again.trade_info_hex, keysOf(app)));
      expect(second.get('MerchantOrderNo')).toBe(`${order.order_no}_2`);
      expect(second.get('LangType')).toBe('zh-tw');
      expect(second.get('ItemDesc')).toBe('專業人士識別證');
      expect(second.get('ClientBackURL')).toBe(`${TEST_ORIGIN}/zh-tw/badges/${order.order_id}/pay`);
      const after = await state();
      expect(after.order).toMatchObject({ paymentType: 'credit_card', cardAttempts: 2 });
      expect(after.payments.map((p) => [p.merchantOrderNo, p.status, p.amountCents])).toEqual([
        [`${order.order_no}_1`, 'started', 100_000],
        [`${order.order_no}_2`, 'started', 100_000],
      ]);
    });

    it('the success card pays the order (notify in-process), the return goes 303 to processing, the badge gets its QR', async () => {
      const { back } = await payByCard(SANDBOX_TEST_CARDS.success);
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(`/en/badges/${order.order_id}/processing`);

      const { order: row, payments, badge } = await state();
      expect(row).toMatchObject({ paymentStatus: 'paid', paidAt: expect.any(Date), paymentType: 'credit_card' });
      expect(payments.at(-1)).toMatchObject({
        status: 'paid',
        method: 'credit_card',
        gatewayStatus: 'SUCCESS',
        gatewayTradeNo: expect.stringMatching(/^\d{14}$/),
      });
      expect(verifyPickupCode(badge!.pickupCode, app.config.PICKUP_CODE_SECRET)).toBe(badge!.id);

      const shown = (await getJson(app, '/api/v1/demonstration', token)).body.data;
      expect(shown).toMatchObject({ payment_status: 'paid', payment: { type: 'credit_card', status: 'paid' } });
      expect([...Buffer.from(shown.qr_code_image, 'base64').subarray(0, 8)]).toEqual(PNG_MAGIC);

      // Notify then return: both recorded and accepted, one badge.
      const log = await database.db.select().from(paymentNotifications);
      expect(log.map((n) => [n.source, n.accepted, n.reason]).sort()).toEqual([
        ['notify', true, 'paid'],
        ['return', true, 'already_paid'],
      ]);
      expect(await counts(database.db)).toMatchObject({ badges: 1 });
      // A paid order starts no new card payment.
      expect((await app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, bearer(token))).status).toBe(409);
    });

    it('in Chinese the return goes to the zh-tw processing page', async () => {
      const { back } = await payByCard(SANDBOX_TEST_CARDS.success, 'zh-TW');
      expect(back.headers.get('location')).toBe(`/zh-tw/badges/${order.order_id}/processing`);
    });

    it('the declined card leaves the order pending with the gateway status recorded, and it can pay again', async () => {
      const { back } = await payByCard(SANDBOX_TEST_CARDS.declined);
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(`/en/badges/${order.order_id}/processing`);
      const { order: row, payments, badge } = await state();
      expect(row!.paymentStatus).toBe('pending');
      expect(payments.at(-1)!.status).toBe('declined');
      expect(payments.at(-1)!.gatewayStatus).toBeTruthy();
      expect(payments.at(-1)!.gatewayStatus).not.toBe('SUCCESS');
      expect(badge).toBeNull();
      const view = (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data;
      expect(view.payment).toMatchObject({
        gateway_status: payments.at(-1)!.gatewayStatus,
        gateway_message: expect.any(String),
      });
      expect((await app.request('/api/v1/demonstration', bearer(token))).status).toBe(404);

      const retry = await payByCard(SANDBOX_TEST_CARDS.success);
      expect(retry.back.status).toBe(303);
      expect((await state()).order!.paymentStatus).toBe('paid');
    });

    it('an order whose TWD price is not whole dollars starts no card payment (and records no attempt)', async () => {
      // The gateway's Amt is whole TWD: such a price (an organiser's typo) is refused, not rounded.
      await database.db.update(orders).set({ totalTwdCents: 100_050 }).where(eq(orders.id, order.order_id));
      await expectUnchanged(
        () => app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, bearer(token)),
        400,
        'currency_unavailable',
      );
    });

    it('an order past its payment deadline starts no card payment', async () => {
      await database.db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, order.order_id));
      const res = await app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, bearer(token));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'order_closed' });
    });
  });

  describe('gateway notifications', () => {
    const notify = (fields: Record<string, string>) => postForm(app, '/api/v1/payment/newebpay/notify', fields);
    const good = () => signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000 });
    const lastNotification = async () =>
      (await database.db.select().from(paymentNotifications).orderBy(paymentNotifications.id)).at(-1);

    async function expectRejected(fields: Record<string, string>, reason: string) {
      const before = await state();
      const res = await notify(fields);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'notification_rejected' });
      expect(await state()).toEqual(before);
      const logged = await lastNotification();
      expect(logged).toMatchObject({ source: 'notify', accepted: false, reason });
      return logged!;
    }

    it('a verified SUCCESS pays the order; a duplicate answers 200 and changes nothing', async () => {
      const first = await notify(good());
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ data: { result: 'paid' } });
      const paid = await state();
      expect(paid.order!.paymentStatus).toBe('paid');
      expect(paid.badge).not.toBeNull();

      const again = await notify(good());
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ data: { result: 'already_paid' } });
      expect(await state()).toEqual(paid);
      expect(await database.db.select().from(badges)).toHaveLength(1);
      expect(await lastNotification()).toMatchObject({
        accepted: true,
        reason: 'already_paid',
        orderId: order.order_id,
      });
    });

    it('concurrent duplicate notifies pay once', async () => {
      const fields = good();
      const results = await Promise.all(Array.from({ length: 5 }, () => notify(fields)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await database.db.select().from(badges)).toHaveLength(1);
      const outcomes = (await database.db.select().from(paymentNotifications)).map((n) => n.reason).sort();
      expect(outcomes).toEqual(['already_paid', 'already_paid', 'already_paid', 'already_paid', 'paid']);
    });

    it('a forged TradeSha is rejected (400), logged with accepted=false, the order unchanged', async () => {
      const fields = { ...good(), TradeSha: 'A'.repeat(64) };
      const logged = await expectRejected(fields, 'bad_trade_sha');
      expect(logged.orderId).toBeNull();
      expect(logged.payload).toMatchObject({ TradeSha: 'A'.repeat(64), MerchantID: 'MS_SANDBOX' });
    });

    it('TradeInfo signed with other keys is rejected', async () => {
      const foreign = signedCallback(
        { merchantId: 'MS_SANDBOX', hashKey: 'x'.repeat(32), hashIv: 'y'.repeat(16) },
        { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000 },
      );
      await expectRejected(foreign, 'bad_trade_sha');
    });

    it('a tampered TradeInfo (signature of the original) is rejected', async () => {
      const fields = good();
      const tampered = {
        ...fields,
        TradeInfo:
          fields.TradeInfo.slice(0, -32) +
          signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1 }).TradeInfo.slice(-32),
      };
      await expectRejected(tampered, 'bad_trade_sha');
    });

    it('a correctly signed notify for a wrong amount is rejected, the order unchanged', async () => {
      const logged = await expectRejected(
        signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1 }),
        'amount_mismatch',
      );
      expect(logged.orderId).toBe(order.order_id);
      await expectRejected(
        signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 100_000 }),
        'amount_mismatch',
      );
    });

    it('a correctly signed notify for an unknown order is rejected', async () => {
      await expectRejected(
        signedCallback(keysOf(app), { MerchantOrderNo: 'TC261121ZZZZZZ_1', Amt: 1000 }),
        'unknown_order',
      );
    });

    it('a wrong MerchantID, outside or inside the signed result, is rejected', async () => {
      await expectRejected(
        signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000 }, 'SUCCESS', 'MS_OTHER'),
        'wrong_merchant',
      );
      await expectRejected(
        signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000, MerchantID: 'MS_OTHER' }),
        'wrong_result_merchant',
      );
    });

    it('missing fields and garbage are rejected without an error page', async () => {
      await expectRejected({}, 'missing_fields');
      await expectRejected(
        { Status: 'SUCCESS', MerchantID: 'MS_SANDBOX', Version: '2.0', TradeInfo: 'zz', TradeSha: 'zz' },
        'bad_trade_sha',
      );
      const json = await app.request('/api/v1/payment/newebpay/notify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"Status":"SUCCESS"}',
      });
      expect(json.status).toBe(400);
    });

    it('the outer Status is not trusted: a signed failure with Status=SUCCESS outside stays unpaid', async () => {
      // The decline is of the current card attempt (a stale attempt's result is ignored).
      expect(
        (
          await app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(200);
      const failed = signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000 }, 'MPG03009');
      const res = await notify({ ...failed, Status: 'SUCCESS' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { result: 'declined' } });
      const { order: row, payments } = await state();
      expect(row!.paymentStatus).toBe('pending');
      expect(payments.at(-1)).toMatchObject({ status: 'declined', gatewayStatus: 'MPG03009' });
    });

    it('a late failure after the payment changes nothing', async () => {
      await notify(good());
      const paid = await state();
      const res = await notify(
        signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_2`, Amt: 1000 }, 'MPG03009'),
      );
      expect(res.status).toBe(200);
      expect(await state()).toEqual(paid);
    });

    it('a forged browser return is recorded, changes nothing, and goes to the orders page', async () => {
      const before = await state();
      const res = await postForm(app, '/api/v1/payment/newebpay/return?lang=zh-TW', {
        ...good(),
        TradeSha: 'B'.repeat(64),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/zh-tw/account/orders');
      expect(await state()).toEqual(before);
      expect(await lastNotification()).toMatchObject({ source: 'return', accepted: false, reason: 'bad_trade_sha' });
    });

    it('a card payment that completes after the user switched to a USD transfer still counts', async () => {
      // The card attempt starts (TWD 1,000); in another tab the user declares a USD transfer.
      const info = await app.request(`/api/v1/payment/${order.order_id}/tradeinfo`, bearer(token));
      expect(info.status).toBe(200);
      const usd = await put({
        payment: { type: 'USD', last_five_digits: '12345', remitter: 'Amy', sender_bank: 'Bank' },
      });
      expect(usd.status).toBe(200);
      const res = await notify(good());
      expect(res.status).toBe(200);
      const { order: row, payments } = await state();
      expect(row).toMatchObject({
        paymentStatus: 'paid',
        paymentType: 'credit_card',
        currency: 'TWD',
        amountCents: 100_000,
      });
      expect(payments.at(-1)).toMatchObject({
        status: 'paid',
        method: 'credit_card',
        currency: 'TWD',
        amountCents: 100_000,
      });
    });

    it('a charge for an overdue order whose owner has since applied again is received (200) and logged for a refund', async () => {
      await database.db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, order.order_id));
      const second = await applyBadge(app, token);
      const res = await notify(good());
      // Money moved: the gateway must not retry for days; the operator refunds from the log.
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { result: 'order_superseded' } });
      expect(await lastNotification()).toMatchObject({
        accepted: false,
        reason: 'order_superseded',
        orderId: order.order_id,
      });
      const [old] = await database.db.select().from(orders).where(eq(orders.id, order.order_id));
      expect(old!.paymentStatus).toBe('overdue');
      const [current] = await database.db.select().from(orders).where(eq(orders.id, second.order_id));
      expect(current!.paymentStatus).toBe('pending');
    });
  });

  it('mark-paid of an unknown order is a not-found error; of an overdue one it pays', async () => {
    await expect(markPaid(database.db, 'TC000000XXXXXX', paidCtx())).rejects.toMatchObject({ code: 'not_found' });
    await database.db.update(orders).set({ paymentStatus: 'overdue' }).where(eq(orders.id, order.order_id));
    expect(await markPaid(database.db, order.order_no, paidCtx())).toBe('paid');
    expect(await counts(database.db)).toMatchObject({ badges: 1 });
  });

  it('an unpaid order lapses after its deadline (default 3 days)', async () => {
    const { order: row } = await state();
    expect(row!.paymentExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3 * DAY - 60_000);
  });
});
