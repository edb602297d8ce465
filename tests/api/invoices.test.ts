import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { taipeiDay } from '@domain/reconciliation';
import type { Db } from '@server/db/client';
import { emails, invoiceActions, invoices, orderPayments, orders } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { invoicePass } from '@server/invoices/invoices';
import { mailSettings } from '@server/mail/outbox';
import { decideOrder, markPaid, markRefunded } from '@server/payments/payments';
import { applyBadge, getJson, json, keysOf, postForm, signedCallback } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const ORGANISER = 'olivia@example.com';
const DAY = 24 * 3600_000;
const HEADER = ['交易日期', '支出金額', '存入金額', '對方帳號', '摘要'];
const csv = (rows: string[][]) => [HEADER, ...rows].map((r) => r.join(',')).join('\r\n');

describe.each(DATABASES)('e-invoices (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let token: string;
  let organiser: string;
  let order: Awaited<ReturnType<typeof applyBadge>>;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, { ORGANISER_EMAILS: ORGANISER });
    ({ token } = await signIn(app, 'amy@example.com', 'Amy'));
    ({ token: organiser } = await signIn(app, ORGANISER, 'Olivia'));
    order = await applyBadge(app, token);
  });

  const pass = (at = new Date()) =>
    invoicePass({ db, client: app.invoices.client, now: at, mail: mailSettings(app.config) });
  const putReceipt = (receipt: Record<string, unknown>, payment: Record<string, unknown> = { type: 'credit_card' }) =>
    app.request('/api/v1/demonstration_order', json(token, 'PUT', { payment, receipt }));
  const notify = () =>
    postForm(
      app,
      '/api/v1/payment/newebpay/notify',
      signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000 }),
    );
  const invoiceRow = async () => (await db.select().from(invoices).where(eq(invoices.orderId, order.order_id)))[0];
  const shown = async () => (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data.invoice;
  const ctx = (now = new Date()) => ({ now, pickupSecret: app.config.PICKUP_CODE_SECRET, paymentDays: 3 });

  it('a card payment queues the invoice in its transaction; the pass issues it once, to the mobile barcode; order, badge and mail show it', async () => {
    expect((await putReceipt({ kind: 'personal', carrier_type: 'mobile', carrier_number: '/abc+123' })).status).toBe(
      200,
    );
    expect((await notify()).status).toBe(200);
    expect(await invoiceRow()).toMatchObject({
      status: 'pending',
      kind: 'b2c',
      carrierType: 'mobile',
      carrierNumber: '/ABC+123',
      amountTwd: 1000,
      tax: 48,
    });
    expect(await shown()).toBeNull();
    expect(await pass()).toEqual({ calls: 1 });
    expect(await pass()).toEqual({ calls: 0 });
    const invoice = await shown();
    expect(invoice).toMatchObject({
      status: 'issued',
      kind: 'b2c',
      carrier_type: 'mobile',
      amount_twd: 1000,
      actions: [],
    });
    expect(invoice.number).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(invoice.random_code).toMatch(/^\d{4}$/);
    expect(invoice.issued_at).toBeTruthy();
    const badge = (await getJson(app, '/api/v1/demonstration', token)).body.data;
    expect(badge.invoice).toMatchObject({ number: invoice.number });
    const [mail] = await db.select().from(emails).where(eq(emails.template, 'invoice_issued'));
    expect(mail!.text).toContain(invoice.number);
    expect(mail!.text).toContain('/ABC+123');
    // The sandbox's page lists it.
    expect(await (await app.request('/sandbox-invoice')).text()).toContain(invoice.number);
  });

  it('a confirmed transfer (mark paid) is invoiced, B2B with the tax apart', async () => {
    const receipt = { kind: 'company', invoice_title: 'Good Pictures Ltd.', unified_business_number: '04595257' };
    const res = await putReceipt(receipt, { type: 'TWD', last_five_digits: '12345' });
    expect(res.status).toBe(200);
    expect(await markPaid(db, order.order_no, ctx())).toBe('paid');
    await pass();
    expect(await invoiceRow()).toMatchObject({
      status: 'issued',
      kind: 'b2b',
      buyerUbn: '04595257',
      buyerName: 'Good Pictures Ltd.',
      carrierType: 'none',
    });
    const [mail] = await db.select().from(emails).where(eq(emails.template, 'invoice_issued'));
    expect(mail!.text).toContain('952'); // sales 952 + tax 48
  });

  it('a statement import that pays the order is invoiced', async () => {
    await putReceipt({ kind: 'personal' }, { type: 'TWD', last_five_digits: '12345' });
    const file = csv([[taipeiDay(new Date()), '', '1000', '0001234512345', '跨行轉入']]);
    const upload = (path: string, fields: Record<string, string> = {}) => {
      const form = new FormData();
      form.set('file', new File([file], 'statement.csv', { type: 'text/csv' }));
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      return app.request(path, { method: 'POST', ...bearer(organiser), body: form });
    };
    const { mapping } = (await (await upload('/api/v1/admin/bank-imports/preview')).json()).data;
    const imported = (await (await upload('/api/v1/admin/bank-imports', { mapping: JSON.stringify(mapping) })).json())
      .data;
    const confirmed = await app.request(
      `/api/v1/admin/bank-imports/${imported.id}/confirm`,
      json(organiser, 'POST', {}),
    );
    expect(confirmed.status).toBe(200);
    await pass();
    expect(await invoiceRow()).toMatchObject({ status: 'issued', carrierType: 'ezpay', buyerEmail: 'amy@example.com' });
  });

  it('a failed call is retried with backoff; the back office lists it failed and can retry at once', async () => {
    await notify();
    expect((await app.request('/sandbox-invoice/fail-next', { method: 'POST' })).status).toBe(303);
    const now = new Date();
    await pass(now);
    expect(await invoiceRow()).toMatchObject({ status: 'failed', attempts: 1, number: null });
    expect((await invoiceRow())!.lastError).toMatch(/KEY10014/);
    expect((await pass(now)).calls).toBe(0); // not due yet
    const listed = (await getJson(app, '/api/v1/admin/invoices?status=failed', organiser)).body.data;
    expect(listed).toEqual([expect.objectContaining({ order_no: order.order_no, status: 'failed', attempts: 1 })]);
    const retry = await app.request(`/api/v1/admin/invoices/${listed[0].id}/retry`, {
      method: 'POST',
      ...bearer(organiser),
    });
    expect(retry.status).toBe(200);
    await pass(new Date(now.getTime() + 1000));
    expect(await invoiceRow()).toMatchObject({ status: 'issued', attempts: 2, lastError: null });
    // A registrant may not see the list.
    expect((await getJson(app, '/api/v1/admin/invoices', token)).status).toBe(403);
  });

  it('concurrent notifies and concurrent passes issue one invoice', async () => {
    await Promise.all(Array.from({ length: 5 }, () => notify()));
    expect(await db.select().from(invoices)).toHaveLength(1);
    await Promise.all([pass(), pass(), pass()]);
    const [row] = await db.select().from(invoices);
    expect(row).toMatchObject({ status: 'issued' });
    const page = await (await app.request('/sandbox-invoice')).text();
    expect(page.match(/<tr><td>[A-Z]{2}\d{8}<\/td>/g)).toHaveLength(1);
    // An issue whose answer was lost (the lease ran out) finds the invoice again instead of a second one.
    await db.update(invoices).set({ status: 'pending', number: null, nextAttemptAt: new Date(0) });
    await pass();
    expect(await invoiceRow()).toMatchObject({ status: 'issued', number: row!.number });
  });

  it('cancelling a paid order voids its invoice with the reason, shown to the registrant', async () => {
    await notify();
    await pass();
    await decideOrder(db, order.order_no, { type: 'cancel', reason: 'Duplicate registration' }, ctx());
    await pass();
    const invoice = await shown();
    expect(invoice).toMatchObject({
      status: 'void',
      actions: [expect.objectContaining({ kind: 'void', status: 'done', reason: 'Duplicate registration' })],
    });
    expect(await db.select().from(emails).where(eq(emails.template, 'invoice_voided'))).toHaveLength(1);
    // The refund of the canceled order adds nothing: the invoice is void.
    const [payment] = await db.select().from(orderPayments).where(eq(orderPayments.orderId, order.order_id));
    await markRefunded(db, payment!.id, ctx(), { kind: 'organiser' });
    expect(await db.select().from(invoiceActions)).toHaveLength(1);
  });

  it('a cancel before the invoice is issued closes it without issuing', async () => {
    await notify();
    await decideOrder(db, order.order_no, { type: 'cancel' }, ctx());
    await pass();
    expect(await invoiceRow()).toMatchObject({ status: 'void', number: null });
    expect(await shown()).toBeNull();
  });

  it('a refund past the void period is an allowance for the refunded amount', async () => {
    await notify();
    await pass();
    const [payment] = await db.select().from(orderPayments).where(eq(orderPayments.orderId, order.order_id));
    // The refund is owed (h-refund's gateway refund or a duplicate flagged by hand), paid back 90 days later.
    await db
      .update(orderPayments)
      .set({ status: 'refund_due', refundReason: 'refund' })
      .where(eq(orderPayments.id, payment!.id));
    const later = new Date(Date.now() + 90 * DAY);
    await markRefunded(db, payment!.id, ctx(later), { kind: 'organiser' });
    await pass(later);
    const invoice = await shown();
    expect(invoice).toMatchObject({
      status: 'allowance',
      remaining_twd: 0,
      actions: [expect.objectContaining({ kind: 'allowance', status: 'done', amount_twd: 1000, reason: 'refund' })],
    });
    expect(invoice.actions[0].allowance_no).toBeTruthy();
    const [mail] = await db.select().from(emails).where(eq(emails.template, 'invoice_allowance'));
    expect(mail!.text).toContain('Refund');
  });

  it('a duplicate charge refunded changes nothing on the invoice', async () => {
    await notify();
    await pass();
    const [dup] = await db
      .insert(orderPayments)
      .values({
        orderId: order.order_id,
        method: 'credit_card',
        currency: 'TWD',
        amountCents: 100_000,
        status: 'refund_due',
        refundReason: 'duplicate_charge',
      })
      .returning();
    await markRefunded(db, dup!.id, ctx(), { kind: 'organiser' });
    expect(await db.select().from(invoiceActions)).toHaveLength(0);
  });

  it.each([
    [{ kind: 'personal', carrier_type: 'mobile', carrier_number: 'ABC1234' }, 'receipt.carrier_number'],
    [{ kind: 'personal', carrier_type: 'mobile' }, 'receipt.carrier_number'],
    [{ kind: 'personal', carrier_type: 'certificate', carrier_number: 'A12345678901234' }, 'receipt.carrier_number'],
    [{ kind: 'personal', carrier_type: 'donation', love_code: '12' }, 'receipt.love_code'],
    [{ kind: 'personal', carrier_type: 'donation', love_code: '12345678' }, 'receipt.love_code'],
    [{ kind: 'personal', carrier_type: 'nope' }, 'receipt.carrier_type'],
    [{ kind: 'company', invoice_title: 'X', unified_business_number: '12345678' }, 'receipt.unified_business_number'],
  ])('refuses the receipt %j: 400 validation_failed naming %s, nothing written', async (receipt, path) => {
    const res = await putReceipt(receipt);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('takes well-formed carriers and a love code, stored as given', async () => {
    for (const [receipt, stored] of [
      [
        { kind: 'personal', carrier_type: 'certificate', carrier_number: 'ab12345678901234' },
        { carrierType: 'certificate', carrierNumber: 'AB12345678901234', loveCode: null },
      ],
      [
        { kind: 'personal', carrier_type: 'donation', love_code: '８８４' },
        { carrierType: 'donation', loveCode: '884', carrierNumber: null },
      ],
      [
        { kind: 'company', carrier_type: 'mobile', invoice_title: 'Good', unified_business_number: '04595257' },
        { carrierType: 'none' },
      ],
    ] as const) {
      expect((await putReceipt(receipt)).status).toBe(200);
      const data = (await getJson(app, `/api/v1/orders/${order.order_id}`, token)).body.data;
      expect(data.receipt).toMatchObject(
        Object.fromEntries(
          Object.entries(stored).map(([k, v]) => [k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`), v]),
        ),
      );
    }
  });

  it('a day export lists the invoices for the accountant; settings live with the edition', async () => {
    await notify();
    await pass();
    const day = taipeiDay(new Date());
    const res = await app.request(`/api/v1/admin/invoices/export?day=${day}`, bearer(organiser));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    const text = await res.text();
    expect(text).toContain((await invoiceRow())!.number!);
    const put = await app.request(
      '/api/v1/admin/invoice-settings',
      json(organiser, 'PUT', {
        enabled: false,
        item_names: [{ event_type: 'badge_professional', en: 'Badge', zh: '識別證' }],
      }),
    );
    expect(put.status).toBe(200);
    const settings = (await put.json()).data;
    expect(settings).toMatchObject({ enabled: false, sandbox: true });
    expect(settings.item_names).toContainEqual({ event_type: 'badge_professional', en: 'Badge', zh: '識別證' });
    // Off: the next paid order gets no invoice.
    await db.delete(invoices);
    await db.update(orders).set({ paymentStatus: 'pending', paidAt: null }).where(eq(orders.id, order.order_id));
    await markPaid(db, order.order_no, ctx());
    expect(await db.select().from(invoices)).toHaveLength(0);
  });
});
