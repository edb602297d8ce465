import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { emails, orderEvents, orders, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import {
  deliverEmails,
  mailSettings,
  queueEventMails,
  queuePaymentReminders,
  SEND_LEASE_MS,
  type MailSettings,
} from '@server/mail/outbox';
import type { MailTransport, OutgoingMail } from '@server/mail/transport';
import { addOrganiser } from '@server/identity/organisers';
import { mailPass, requestLoad, startMailWorker, type LoadGauge } from '@server/jobs/worker';
import { pendingOrderEvents, processOrderEvents, retryDelayMs } from '@server/orders/order-events';
import { expireOverdueOrders } from '@server/orders/order-state';
import { application, giveBadges, json, keysOf, postForm, signedCallback, uploadPhoto } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const OPERATOR = 'mail-test-operator-token-0001';
const HOUR = 3600_000;

/** A transport that records what it sends, and fails the next `failures` sends. */
function recorder() {
  const sent: OutgoingMail[] = [];
  let failures = 0;
  const transport: MailTransport & { sent: OutgoingMail[]; fail: (n: number) => void } = {
    kind: 'smtp',
    sent,
    fail: (n) => {
      failures = n;
    },
    async send(mail) {
      if (failures > 0) {
        failures--;
        throw new Error('421 4.3.2 Service not available, try again later');
      }
      sent.push(mail);
    },
    close: () => {},
  };
  return transport;
}

/** The outbox of the mail worker: e-mails from order events, reminders and links; sent once, never lost. */
describe.each(DATABASES)('mail outbox (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let clock: Date;
  let transport: ReturnType<typeof recorder>;
  let settings: MailSettings;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    clock = new Date();
    app = await createTestApp(database, {}, { now: () => clock, operatorToken: OPERATOR });
    transport = recorder();
    settings = mailSettings(app.config);
  });

  const pass = (at: Date = clock) => mailPass({ db, transport, settings, log: () => {}, now: () => at });
  const allMails = () => db.select().from(emails).orderBy(asc(emails.createdAt), asc(emails.template));
  const mailsOf = async (template: string) => (await allMails()).filter((m) => m.template === template);
  const operator = (path: string, body?: unknown) =>
    app.request(`/api/v1/operator${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** Applies for a Professional badge; `lang` as the portal's API client sends it (none: unknown). */
  async function applyBadge(token: string, lang?: string) {
    const photo = await uploadPhoto(app, token);
    const init = json(token, 'POST', application(photo));
    if (lang) (init.headers as Record<string, string>)['accept-language'] = lang;
    const res = await app.request('/api/v1/demonstration_order', init);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { order_id: string; order_no: string };
  }
  const payByCard = (orderNo: string) =>
    postForm(
      app,
      '/api/v1/payment/newebpay/notify',
      signedCallback(keysOf(app), { MerchantOrderNo: `${orderNo}_1`, Amt: 1000 }),
    );

  it('a badge paid by card: the order placed, then the receipt and the badge mail, in the language of the order, each once', async () => {
    const { token } = await signIn(app, 'amy@example.com');
    const order = await applyBadge(token, 'zh-TW');
    const [row] = await db.select().from(orders).where(eq(orders.id, order.order_id));
    expect(row).toMatchObject({ locale: 'zh-TW', siteOrigin: 'http://portal.test' });

    expect(await pass()).toMatchObject({ events: 1, sent: 1, failed: 0 });
    const [placed] = transport.sent;
    expect(placed).toMatchObject({ recipient: 'amy@example.com', locale: 'zh-TW' });
    expect(placed!.subject).toMatch(new RegExp(`^已收到訂單 ${order.order_no}，請於 .+ 前付款$`));
    expect(placed!.text).toContain(`前往付款：http://portal.test/zh-tw/badges/${order.order_id}/pay`);
    expect(placed!.text).toContain('金額：新臺幣 1,000 元');
    expect(placed!.html).toContain('<html lang="zh-TW">');

    expect((await payByCard(order.order_no)).status).toBe(200);
    await pass();
    expect(transport.sent.map((m) => m.subject)).toEqual([
      placed!.subject,
      `訂單 ${order.order_no} 付款收據`,
      '您的 TCCF 識別證已開通',
    ]);
    const [, receipt, badge] = transport.sent;
    expect(receipt!.text).toContain(`訂單編號：${order.order_no}`);
    expect(receipt!.text).toContain('項目：專業人士識別證');
    expect(receipt!.text).toContain('付款方式：信用卡');
    expect(badge!.text).toContain('開啟我的識別證：http://portal.test/zh-tw/account/badge');

    // Nothing more to do: every mail sent once, every event handled.
    expect(await pass()).toMatchObject({ events: 0, sent: 0 });
    expect(transport.sent).toHaveLength(3);
    const stored = await allMails();
    expect(stored.every((m) => m.status === 'sent' && m.transport === 'smtp' && m.attempts === 1)).toBe(true);
    expect(new Set(stored.map((m) => m.messageId)).size).toBe(3);
    expect(stored[0]!.messageId).toMatch(/^<[0-9a-f-]{36}@tccf\.invalid>$/);
  });

  it('in both languages when the order was placed without a language; in the requested one otherwise', async () => {
    const { token } = await signIn(app, 'ben@example.com');
    const order = await applyBadge(token);
    const [row] = await db.select().from(orders).where(eq(orders.id, order.order_id));
    expect(row!.locale).toBeNull();
    await pass();
    const [mail] = transport.sent;
    expect(mail!.locale).toBeNull();
    expect(mail!.subject).toMatch(/^Order \S+ received: please pay by .+ \/ 已收到訂單 \S+，請於 .+ 前付款$/);
    expect(mail!.text).toContain(`Pay now: http://portal.test/en/badges/${order.order_id}/pay`);
    expect(mail!.text).toContain(`前往付款：http://portal.test/zh-tw/badges/${order.order_id}/pay`);

    // An event registration in English (?lang= wins over Accept-Language).
    const bo = await signIn(app, 'bo@example.com');
    const [boUser] = await db.select().from(users).where(eq(users.email, 'bo@example.com'));
    await giveBadges(db, [{ id: boUser!.id, email: boUser!.email }]);
    const res = await app.request('/api/v1/orders?event=opening-forum&lang=en', {
      method: 'POST',
      headers: { ...bearer(bo.token).headers, 'content-type': 'application/json', 'accept-language': 'zh-TW' },
      body: JSON.stringify({ agree_terms: true }),
    });
    expect(res.status).toBe(201);
    await pass();
    const registered = transport.sent.at(-1)!;
    expect(registered.locale).toBe('en');
    expect(registered.subject).toBe('You are registered: Opening forum: The future of Asian series');
    expect(registered.text).toMatch(/When: \d{4}\/\d+\/\d+ 14:00–16:00 \(GMT\+8\)/);
  });

  it('the same order event handled twice queues its mails once (idempotent per event row and template)', async () => {
    const { token } = await signIn(app, 'cai@example.com');
    const order = await applyBadge(token, 'en');
    await payByCard(order.order_no);
    await pass();
    expect(transport.sent).toHaveLength(3);
    // The events come round again (a worker whose "processed" mark was lost, at-least-once delivery).
    await db.update(orderEvents).set({ processedAt: null });
    expect(await pendingOrderEvents(db)).toBe(2);
    const again = await pass();
    expect(again.events).toBe(2);
    expect(again.sent).toBe(0);
    expect(await allMails()).toHaveLength(3);
    // And the handler itself, twice over the same row inside one claim.
    const [event] = await db.select().from(orderEvents).orderBy(asc(orderEvents.id)).limit(1);
    const handle = queueEventMails(settings, () => clock);
    await db.transaction(async (tx) => {
      await handle(event!, tx);
      await handle(event!, tx);
    });
    expect(await allMails()).toHaveLength(3);
  });

  it('a transfer: "being checked", then the receipt with the method, invoice title and UBN', async () => {
    const { token } = await signIn(app, 'dan@example.com');
    const order = await applyBadge(token, 'en');
    const res = await app.request(
      '/api/v1/demonstration_order',
      json(token, 'PUT', {
        payment: { type: 'atm', last_five_digits: '54321' },
        receipt: { kind: 'company', invoice_title: 'Good <Pictures> Ltd.', unified_business_number: '04595257' },
      }),
    );
    expect(res.status).toBe(200);
    await pass();
    const checking = transport.sent.at(-1)!;
    expect(checking.subject).toBe(`We are checking your transfer for order ${order.order_no}`);
    expect(checking.text).toContain('Payment method: ATM transfer');
    expect(checking.text).toContain('Last five digits of the account: 54321');

    expect((await operator(`/orders/${order.order_no}/mark-paid`)).status).toBe(200);
    await pass();
    const [receipt, badge] = transport.sent.slice(-2);
    expect(receipt!.subject).toBe(`Receipt for order ${order.order_no}`);
    expect(receipt!.text).toContain('Amount: TWD 1,000');
    expect(receipt!.text).toContain('Payment method: ATM transfer');
    expect(receipt!.text).toContain('Invoice title: Good <Pictures> Ltd.');
    expect(receipt!.text).toContain('Unified business number: 04595257');
    expect(receipt!.html).toContain('Good &lt;Pictures&gt; Ltd.');
    expect(receipt!.html).not.toContain('<Pictures>');
    expect(badge!.subject).toBe('Your TCCF badge is ready');
  });

  it('approval: waiting for approval, approved, and rejected with the reason', async () => {
    const a = await signIn(app, 'eve@example.com');
    const b = await signIn(app, 'fay@example.com');
    const people = await db.select({ id: users.id, email: users.email }).from(users);
    await giveBadges(db, people);
    await pass(); // the badges given directly have no events: nothing to send
    expect(transport.sent).toHaveLength(0);

    const register = async (token: string) => {
      const res = await app.request('/api/v1/orders?event=pitching-session-audit&lang=en', {
        ...json(token, 'POST', { agree_terms: true }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { order_no: string };
    };
    const first = await register(a.token);
    const second = await register(b.token);
    await pass();
    expect(transport.sent.map((m) => m.subject)).toEqual([
      `Registration ${first.order_no} received: waiting for approval`,
      `Registration ${second.order_no} received: waiting for approval`,
    ]);
    expect(transport.sent[0]!.text).toContain(
      'The organiser reviews every registration for Pitching sessions (audit).',
    );

    expect((await operator(`/orders/${first.order_no}/approve`)).status).toBe(200);
    const reason = 'All <b>seats</b> are taken & the list is closed';
    expect((await operator(`/orders/${second.order_no}/reject`, { reason })).status).toBe(200);
    await pass();
    const [approved, rejected] = transport.sent.slice(-2);
    expect(approved).toMatchObject({ recipient: 'eve@example.com', subject: 'Approved: Pitching sessions (audit)' });
    expect(approved!.text).toContain('has been approved. See you there!');
    expect(rejected).toMatchObject({
      recipient: 'fay@example.com',
      subject: `Your registration ${second.order_no} was not approved`,
    });
    expect(rejected!.text).toContain(`Reason: ${reason}`);
    expect(rejected!.html).toContain('All &lt;b&gt;seats&lt;/b&gt; are taken &amp; the list is closed');
  });

  it('a canceled order is e-mailed in its language, with the reason and what happens to the money (command and back office)', async () => {
    // A paid badge, canceled by the operator (`npm run orders -- cancel` goes through this API or
    // the same service).
    const { token } = await signIn(app, 'hal@example.com');
    const paid = await applyBadge(token, 'zh-TW');
    expect((await payByCard(paid.order_no)).status).toBe(200);
    expect((await operator(`/orders/${paid.order_no}/cancel`, { reason: '重複報名' })).status).toBe(200);
    await pass();
    const [refund] = await mailsOf('order_canceled');
    expect(refund).toMatchObject({
      recipient: 'hal@example.com',
      locale: 'zh-TW',
      subject: `訂單 ${paid.order_no} 已取消`,
    });
    expect(refund!.text).toContain('主辦單位已取消您「專業人士識別證」的報名。');
    expect(refund!.text).toContain('原因：重複報名');
    expect(refund!.text).toContain('您以信用卡支付的 新臺幣 1,000 元 將退回原信用卡。');
    expect(transport.sent.at(-1)!.subject).toBe(`訂單 ${paid.order_no} 已取消`);

    // An unpaid one, canceled in the back office by an organiser, without a reason.
    const ivy = await signIn(app, 'ivy@example.com');
    const unpaid = await applyBadge(ivy.token, 'en');
    const olivia = await signIn(app, 'olivia@example.com');
    await addOrganiser(db, 'olivia@example.com', 'mail test');
    const res = await app.request(`/api/v1/admin/orders/${unpaid.order_no}/cancel`, json(olivia.token, 'POST', {}));
    expect(res.status, await res.clone().text()).toBe(200);
    await pass();
    const mails = await mailsOf('order_canceled');
    const nothingDue = mails.find((m) => m.recipient === 'ivy@example.com');
    expect(nothingDue).toMatchObject({ locale: 'en', subject: `Order ${unpaid.order_no} has been canceled` });
    expect(nothingDue!.text).toContain('Nothing was charged and nothing is due: please do not pay for this order.');
    expect(nothingDue!.text).not.toContain('Reason:');
    // One mail per cancellation: the refund it makes owed (a refund_due event) sends nothing more.
    expect(mails).toHaveLength(2);
  });

  it('an SMTP failure is retried with backoff, not before, and then sent once', async () => {
    const { token } = await signIn(app, 'gus@example.com');
    await applyBadge(token, 'en');
    transport.fail(1);
    expect(await pass()).toMatchObject({ events: 1, sent: 0, failed: 1 });
    const [pending] = await allMails();
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(pending!.lastError).toMatch(/421/);
    expect(pending!.availableAt.getTime()).toBe(clock.getTime() + retryDelayMs(1));

    expect(await pass(new Date(clock.getTime() + 1000))).toMatchObject({ sent: 0, failed: 0 });
    expect(await pass(new Date(clock.getTime() + retryDelayMs(1)))).toMatchObject({ sent: 1, failed: 0 });
    expect(transport.sent).toHaveLength(1);
    const [sent] = await allMails();
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(await pass(new Date(clock.getTime() + 10 * retryDelayMs(1)))).toMatchObject({ sent: 0 });
  });

  it('a worker that dies mid-send loses nothing: the mail is sent again once its lease ends', async () => {
    const { token } = await signIn(app, 'hal@example.com');
    await applyBadge(token, 'en');
    // Stage 1 dies after queueing part of its mails: the claim rolls back, nothing half-done stays.
    const handle = queueEventMails(settings, () => clock);
    const dying = await processOrderEvents(
      db,
      async (event, tx) => {
        await handle(event, tx);
        throw new Error('killed');
      },
      { now: clock },
    );
    expect(dying).toEqual({ processed: 0, failed: 1 });
    expect(await allMails()).toHaveLength(0);
    expect(await pendingOrderEvents(db)).toBe(1);
    await db.update(orderEvents).set({ availableAt: clock });

    // Stage 2 dies in the middle of the SMTP conversation: the send never completes.
    const hung: MailTransport = { kind: 'smtp', send: () => new Promise<void>(() => {}), close: () => {} };
    await processOrderEvents(db, handle, { now: clock });
    void deliverEmails(db, hung, { now: clock });
    await expect.poll(async () => (await allMails())[0]?.attempts).toBe(1);
    expect((await allMails())[0]!.status).toBe('pending');

    // Another worker leaves it alone during the lease, then sends it.
    expect(await deliverEmails(db, transport, { now: new Date(clock.getTime() + 1000) })).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(await deliverEmails(db, transport, { now: new Date(clock.getTime() + SEND_LEASE_MS) })).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(transport.sent).toHaveLength(1);
    expect((await allMails())[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('two workers at once never send the same mail', async () => {
    for (const name of ['m1', 'm2', 'm3', 'm4'])
      await applyBadge((await signIn(app, `${name}@example.com`)).token, 'en');
    await processOrderEvents(
      db,
      queueEventMails(settings, () => clock),
      { now: clock, limit: 10 },
    );
    const slow: MailTransport & { sent: string[] } = {
      kind: 'smtp',
      sent: [],
      async send(mail) {
        this.sent.push(mail.messageId);
        await new Promise((r) => setTimeout(r, 30));
      },
      close: () => {},
    };
    const runs = await Promise.all([deliverEmails(db, slow, { now: clock }), deliverEmails(db, slow, { now: clock })]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(4);
    expect(new Set(slow.sent).size).toBe(4);
    expect(slow.sent).toHaveLength(4);
  });

  it('the payment reminder comes one day before the deadline, once per order and deadline; then the expired mail', async () => {
    const placedAt = clock;
    const { token } = await signIn(app, 'ivy@example.com');
    const order = await applyBadge(token, 'en');
    const paidOne = await applyBadge((await signIn(app, 'jon@example.com')).token, 'en');
    await payByCard(paidOne.order_no);
    await pass();
    const [row] = await db.select().from(orders).where(eq(orders.id, order.order_id));
    const deadline = row!.paymentExpiresAt!;
    expect(deadline.getTime()).toBeGreaterThan(placedAt.getTime() + 2 * 24 * HOUR);
    const at = (msBeforeDeadline: number) => new Date(deadline.getTime() - msBeforeDeadline);

    expect(await queuePaymentReminders(db, settings, new Date(placedAt.getTime() + HOUR))).toBe(0);
    expect(await queuePaymentReminders(db, settings, at(25 * HOUR))).toBe(0);
    await pass(at(23 * HOUR));
    expect(await mailsOf('payment_reminder')).toHaveLength(1);
    const reminder = transport.sent.at(-1)!;
    expect(reminder.subject).toMatch(new RegExp(`^Reminder: please pay for order ${order.order_no} by `));
    expect(reminder.recipient).toBe('ivy@example.com');
    expect(reminder.text).toContain(`Pay now: http://portal.test/en/badges/${order.order_id}/pay`);
    for (const before of [22 * HOUR, HOUR, 1000]) {
      expect(await queuePaymentReminders(db, settings, at(before))).toBe(0);
      await pass(at(before));
    }
    expect(await mailsOf('payment_reminder')).toHaveLength(1);

    // Past the deadline: overdue, and the mail says so with the way to register again.
    expect(await expireOverdueOrders(db, new Date(deadline.getTime() + 1000))).toBe(1);
    await pass(new Date(deadline.getTime() + 2000));
    const expired = transport.sent.at(-1)!;
    expect(expired.subject).toBe(`Order ${order.order_no} has lapsed`);
    expect(expired.text).toContain('Register again: http://portal.test/en/badges/new');
    expect(await queuePaymentReminders(db, settings, new Date(deadline.getTime() + 2000))).toBe(0);
  });

  it('a free-badge link issued to an e-mail is e-mailed to it in both languages; without one, nothing is sent', async () => {
    const res = await operator('/badge-links', { type: 'vip', email: 'vip@example.com' });
    expect(res.status).toBe(201);
    const link = (await res.json()).data as { code: string; url_en: string; url_zh: string; emailed: boolean };
    expect(link.emailed).toBe(true);
    const plain = await operator('/badge-links', { type: 'vip' });
    expect((await plain.json()).data.emailed).toBe(false);
    expect((await operator('/badge-links', { type: 'vip', email: 'not-an-address' })).status).toBe(400);

    await pass();
    expect(transport.sent).toHaveLength(1);
    const [mail] = transport.sent;
    expect(mail).toMatchObject({ recipient: 'vip@example.com', locale: null });
    expect(mail!.subject).toBe('Your free TCCF badge: VIP / 您的 TCCF 免費識別證：貴賓');
    expect(mail!.text).toContain(`Get your badge: ${link.url_en}`);
    expect(mail!.text).toContain(`領取識別證：${link.url_zh}`);
    expect((await mailsOf('badge_link'))[0]!.key).toBe(`badge-link:${link.code}`);
  });

  it('the worker runs passes on its own, survives errors, and stops cleanly', async () => {
    const logs: string[] = [];
    const worker = startMailWorker({
      db,
      transport,
      settings,
      log: (level, message) => void logs.push(`${level}: ${message}`),
      now: () => new Date(),
      intervalMs: 25,
    });
    const { token } = await signIn(app, 'kim@example.com');
    await applyBadge(token, 'en');
    await expect.poll(() => transport.sent.length, { timeout: 10_000 }).toBe(1);
    await worker.stop();

    // A database that fails: logged, never thrown; the next pass tries again.
    const broken = {
      transaction: () => Promise.reject(new Error('connection refused')),
      select: () => {
        throw new Error('connection refused');
      },
    } as unknown as Db;
    const failing = startMailWorker({
      db: broken,
      transport,
      settings,
      log: (level, message) => void logs.push(`${level}: ${message}`),
      intervalMs: 10,
      expireEveryMs: 60_000,
    });
    await expect.poll(() => logs.filter((l) => l.startsWith('error:')).length).toBeGreaterThan(1);
    await failing.stop();
    expect(logs.filter((l) => l.startsWith('error:'))[0]).toBe('error: mail worker pass failed; trying again');
  });

  it('the worker gives way while the process is busy answering requests, never longer than its limit', async () => {
    /** A worker ticking every 20 ms under the given load gauge. */
    const underLoad = (load: LoadGauge) =>
      startMailWorker({ db, transport, settings, log: () => {}, intervalMs: 20, load });
    let busy = true;
    const worker = underLoad({ busy: () => busy, maxDeferMs: 60_000 });
    const { token } = await signIn(app, 'rush@example.com');
    await applyBadge(token, 'en');
    // Busy: the mail waits (a dozen ticks go by without a pass)…
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(transport.sent).toHaveLength(0);
    // …and goes once the rush is over.
    busy = false;
    await expect.poll(() => transport.sent.length, { timeout: 10_000 }).toBe(1);
    await worker.stop();

    // Busy for good: a pass still runs once the limit is reached.
    const capped = underLoad({ busy: () => true, maxDeferMs: 200 });
    await applyBadge((await signIn(app, 'rush2@example.com')).token, 'en');
    await expect.poll(() => transport.sent.length, { timeout: 10_000 }).toBe(2);
    await capped.stop();
  });

  it('is busy at 100 requests a second and more (at least 20 of them)', () => {
    let answered = 0;
    let now = 0;
    const load = requestLoad(
      10_000,
      () => answered,
      () => now,
    );
    /** Whether it is busy after `ms` more in which `requests` more were answered. */
    const after = (ms: number, requests: number) => {
      now += ms;
      answered += requests;
      return load.busy();
    };
    expect(after(1000, 99)).toBe(false);
    expect(after(1000, 100)).toBe(true);
    expect(after(100, 19)).toBe(false);
    expect(after(100, 20)).toBe(true);
    expect(after(2000, 0)).toBe(false);
  });

  it('the dev mailbox lists the mails, shows one with its HTML sandboxed and escaped, in both languages', async () => {
    const { token } = await signIn(app, 'lea@example.com');
    await applyBadge(token, 'en');
    await pass();
    await db.update(emails).set({ subject: 'Hi <script>alert(1)</script>' });

    const list = await app.request('/dev-mailbox?to=LEA@example.com');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await list.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Dev mailbox');
    expect(html).toContain('lea@example.com');
    expect(html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    const id = /href="\/dev-mailbox\/([0-9a-f-]{36})\?lang=en"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(await (await app.request('/dev-mailbox?to=nobody@example.com')).text()).toContain('No e-mails yet.');

    const zh = await (await app.request(`/dev-mailbox/${id}?lang=zh-TW`)).text();
    expect(zh).toContain('<html lang="zh-TW">');
    expect(zh).toContain('純文字版本');
    expect(zh).toMatch(/<iframe title="郵件的 HTML 版本：[^"]*" sandbox="allow-popups allow-popups-to-escape-sandbox"/);
    expect(zh).toContain('srcdoc="&lt;!doctype html&gt;');
    expect(zh).not.toContain('<script');

    expect((await app.request('/dev-mailbox/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await app.request('/dev-mailbox/not-a-uuid')).status).toBe(404);
    const withSmtp = await createTestApp(database, { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'a@example.org' });
    expect((await withSmtp.request('/dev-mailbox')).status).toBe(404);
  });
});
