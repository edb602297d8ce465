import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, editions, emails, orderPayments, orders, paymentNotifications } from '@server/db/schema';
import { seed } from '@server/db/seed';
import type { Db } from '@server/db/client';
import { expireOverdueOrders } from '@server/orders/order-state';
import { expireVirtualAccounts } from '@server/payments/vacc';
import {
  createTestApp,
  DATABASES,
  openTestDatabase,
  signIn,
  TEST_ORIGIN,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { applyBadge, getJson, hiddenFields, json, keysOf, postForm, signedCallback } from './fixtures';

/*
 * ATM transfers through NewebPay virtual accounts (issue 22): the sandbox gateway hands out an
 * account (form-posted to CustomerURL), the order shows it and it is mailed; the sandbox's
 * "simulate the ATM payment" notifies the portal (signed and encrypted as the real gateway does),
 * which pays the order; past the deadline the account expires and the order lapses.
 */
const ORGANISER = 'olivia@example.com';
const DAY = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('ATM virtual accounts (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let clock: Date;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    await db.update(editions).set({ atmEnabled: null });
    clock = new Date();
    app = await createTestApp(
      database,
      { ORGANISER_EMAILS: ORGANISER, ATM_VIRTUAL_ACCOUNTS: 'true' },
      { now: () => clock },
    );
  });

  /** Amy's badge order (TWD 1,000), and the account the sandbox hands out for it. */
  async function account() {
    const { token } = await signIn(app, 'amy@example.com', 'Amy');
    const order = await applyBadge(app, token);
    const before = await getJson(app, `/api/v1/orders/${order.order_id}`, token);
    expect(before.body.data.payment).toMatchObject({ atm_mode: 'virtual_account', virtual_account: null });
    const info = (await getJson(app, `/api/v1/payment/${order.order_id}/atm-tradeinfo?lang=en`, token)).body.data;
    const entry = await postForm(app, '/sandbox-gateway/MPG/mpg_gateway', {
      MerchantID: info.merchant_id,
      TradeInfo: info.trade_info_hex,
      TradeSha: info.trade_info_hash,
      Version: info.version,
    });
    const page = await entry.text();
    expect(page).toContain('Get an account number');
    const issued = await postForm(app, '/sandbox-gateway/MPG/vacc', { ...hiddenFields(page), Bank: 'HNCB' });
    const posting = await issued.text();
    const action = /<form method="post" action="([^"]+)">/.exec(posting)![1]!;
    expect(action).toBe(`${TEST_ORIGIN}/api/v1/payment/newebpay/customer?lang=en`);
    const back = await postForm(app, action.slice(TEST_ORIGIN.length), hiddenFields(posting));
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toContain('/en/');
    // Again (the browser repeats the post): nothing new.
    expect((await postForm(app, action.slice(TEST_ORIGIN.length), hiddenFields(posting))).status).toBe(303);
    return { token, order, merchantOrderNo: `${order.order_no}_1` };
  }

  it('hands out an account, shown on the order and mailed; the sandbox’s ATM payment pays the order', async () => {
    const { token, order, merchantOrderNo } = await account();
    const view = (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data;
    expect(view.payment_status).toBe('pending');
    expect(view.payment).toMatchObject({
      type: 'atm',
      last_five_digits: null,
      atm_mode: 'virtual_account',
      virtual_account: { bank_code: '008', amount_cents: 100_000, status: 'issued' },
    });
    expect(view.payment.virtual_account.account_no).toMatch(/^\d{14}$/);
    const mails = await db.select().from(emails).where(eq(emails.template, 'atm_account'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(view.payment.virtual_account.account_no);

    const paid = await postForm(app, '/sandbox-gateway/trades/pay-atm', { MerchantOrderNo: merchantOrderNo });
    expect(paid.status).toBe(303);
    const after = (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data;
    expect(after).toMatchObject({ payment_status: 'paid', payment: { type: 'atm', last_five_digits: null } });
    expect(after.payment.virtual_account.status).toBe('paid');
    const [record] = await db.select().from(orderPayments).where(eq(orderPayments.merchantOrderNo, merchantOrderNo));
    expect(record).toMatchObject({ method: 'atm', status: 'paid' });
    const notes = await db
      .select()
      .from(paymentNotifications)
      .where(and(eq(paymentNotifications.source, 'notify'), eq(paymentNotifications.verified, true)));
    expect(notes).toHaveLength(1);
    // A forged notify (wrong keys) changes nothing.
    const forged = signedCallback(
      { ...keysOf(app), hashKey: 'x'.repeat(32) },
      { MerchantOrderNo: merchantOrderNo, Amt: 1000 },
    );
    expect((await postForm(app, '/api/v1/payment/newebpay/notify', forged)).status).toBe(400);
  });

  it('an account past its deadline expires and its order lapses, freeing the seat; the sandbox takes no payment', async () => {
    const { token, order, merchantOrderNo } = await account();
    clock = new Date(clock.getTime() + 8 * DAY);
    expect(await expireOverdueOrders(db, clock)).toBe(1);
    expect(await expireVirtualAccounts(db, clock)).toBe(1);
    const view = (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data;
    expect(view.payment_status).toBe('overdue');
    expect(view.payment.virtual_account.status).toBe('expired');
    const late = await postForm(app, '/sandbox-gateway/trades/pay-atm', { MerchantOrderNo: merchantOrderNo });
    expect(late.status).toBe(400);
    const [row] = await db.select().from(orders).where(eq(orders.id, order.order_id));
    expect(row!.holdsSeat).toBe(false);
  });

  it('respects the channel’s limit, the edition’s setting, and the admin API’s toggle', async () => {
    const { token } = await signIn(app, 'amy@example.com', 'Amy');
    const order = await applyBadge(app, token);
    // Above TWD 49,999: remittance only.
    await db.update(orders).set({ totalTwdCents: 5_000_000 }).where(eq(orders.id, order.order_id));
    expect((await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data.payment.atm_mode).toBe(
      'unavailable',
    );
    const over = await getJson(app, `/api/v1/payment/${order.order_id}/atm-tradeinfo`, token);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('atm_over_limit');
    await db.update(orders).set({ totalTwdCents: 100_000 }).where(eq(orders.id, order.order_id));

    const { token: olivia } = await signIn(app, ORGANISER, 'Olivia');
    expect((await getJson(app, '/api/v1/admin/editions/current/payment-settings', olivia)).body.data).toMatchObject({
      atm_enabled: null,
      atm_virtual_accounts: true,
    });
    const off = await app.request(
      '/api/v1/admin/editions/current/payment-settings',
      json(olivia, 'PUT', { atm_enabled: false }),
    );
    expect(off.status).toBe(200);
    expect((await off.json()).data).toMatchObject({ atm_enabled: false, atm_virtual_accounts: false });
    // The change is in the audit trail with its actor.
    const trail = await db.select().from(auditLog).where(eq(auditLog.action, 'edition.payment_settings'));
    expect(trail.map((r) => [r.actor, r.detail])).toEqual([[ORGANISER, { atmEnabled: false }]]);
    expect((await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data.payment.atm_mode).toBe('declared');
    const disabled = await getJson(app, `/api/v1/payment/${order.order_id}/atm-tradeinfo`, token);
    expect(disabled.status).toBe(400);
    expect(disabled.body.code).toBe('currency_unavailable');
    const bad = await app.request(
      '/api/v1/admin/editions/current/payment-settings',
      json(olivia, 'PUT', { atm_enabled: 'yes' }),
    );
    expect(bad.status).toBe(400);
    expect((await getJson(app, '/api/v1/admin/editions/current/payment-settings', token)).status).toBe(403);
  });
});
