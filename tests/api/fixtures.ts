import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { devSubject, loadSigner } from '@server/identity/dev-identity';
import type { Db } from '@server/db/client';
import * as schema from '@server/db/schema';
import type { MpgKeys } from '@server/payments/newebpay';
import { encryptText, tradeSha } from '@server/payments/newebpay';
import { newOrderNo } from '@server/orders/order-no';
import { SANDBOX_TEST_CARDS } from '@server/payments/sandbox-gateway';
import { bearer, signIn, TEST_ORIGIN, type TestApp } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

/** An event_general open for registration now (closes in 10 days, held in 20), with its own capacity and price. */
export async function insertOpenEvent(db: Db, slug: string, over: { capacity: number; priceCentsTwd?: number }) {
  const now = Date.now();
  await db.insert(schema.events).values({
    slug,
    type: 'event_general',
    nameEn: slug,
    nameZh: slug,
    registerStartAt: new Date(now - DAY),
    registerEndAt: new Date(now + 10 * DAY),
    startTime: new Date(now + 20 * DAY),
    endAt: new Date(now + 20 * DAY + 2 * 3600_000),
    ...over,
  });
}

/** A real 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** The start of a JFIF JPEG (SOI + APP0): what the content check looks at. */
export const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xd9,
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');

/** Posts one multipart upload. */
export function upload(
  app: TestApp,
  token: string | null,
  file: { bytes: Uint8Array; name: string; type?: string } | null,
  purpose: string | null = 'personal_photo',
) {
  const form = new FormData();
  if (file) form.set('file', new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? '' }));
  if (purpose !== null) form.set('purpose', purpose);
  return app.request('/api/v1/files/upload', {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** Uploads a PNG photo and returns its id. */
export async function uploadPhoto(app: TestApp, token: string): Promise<string> {
  const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()).uid;
}

/** A valid badge application (snake_case, as the form sends it). */
export function application(
  photoId: string,
  over: { applicant?: Record<string, unknown>; badge?: Record<string, unknown> } = {},
) {
  return {
    applicant: {
      name_zh: '王小明',
      name_en: 'Hsiao-ming Wang',
      company_name_zh: '好影像股份有限公司',
      company_name_en: 'Good Pictures Ltd.',
      contact_phone: '886-912-345-678',
      contact_email: 'ignored@example.com',
      ...over.applicant,
    },
    badge: {
      name_zh: '王小明',
      name_en: 'Ming Wang',
      company_name_zh: '好影像',
      company_name_en: 'Good Pictures',
      ...over.badge,
    },
    same_as_applicant: false,
    personal_photo_file_id: photoId,
  };
}

export const json = (token: string, method: string, body: unknown): RequestInit => ({
  method,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Uploads a photo and applies for a Professional badge; returns the 201 body. */
export async function applyBadge(app: TestApp, token: string) {
  const photo = await uploadPhoto(app, token);
  const res = await app.request('/api/v1/demonstration_order', json(token, 'POST', application(photo)));
  if (res.status !== 201) throw new Error(`apply failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as {
    order_id: string;
    id: string;
    order_no: string;
    event_slug: string;
    payment_status: string;
  };
}

export const getJson = async (app: TestApp, path: string, token: string) => {
  const res = await app.request(path, bearer(token));
  return { status: res.status, body: await res.json() };
};

/** Row counts of the tables a refused request must not touch. */
export async function counts(db: Db) {
  const n = async (table: Parameters<ReturnType<Db['select']>['from']>[0]) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    orders: await n(schema.orders),
    payments: await n(schema.orderPayments),
    orderEvents: await n(schema.orderEvents),
    registrations: await n(schema.registrations),
    badges: await n(schema.badges),
    receipts: await n(schema.receipts),
    files: await n(schema.files),
    badgeLinks: await n(schema.badgeLinks),
  };
}

/** The order, payment, receipt and badge rows of an order, for before/after comparisons. */
export async function orderState(db: Db, orderId: string) {
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
  const payments = await db
    .select()
    .from(schema.orderPayments)
    .where(eq(schema.orderPayments.orderId, orderId))
    .orderBy(schema.orderPayments.createdAt);
  const [receipt] = await db.select().from(schema.receipts).where(eq(schema.receipts.orderId, orderId));
  const [badge] = await db.select().from(schema.badges).where(eq(schema.badges.orderId, orderId));
  return { order, payments, receipt: receipt ?? null, badge: badge ?? null };
}

/**
 * Tokens for any subject, signed with the dev identity's key: a second identity with the same
 * e-mail (the sign-in flow derives the subject from the e-mail, so it cannot make one). They are
 * the agency's access tokens: the app must run in agency mode (`AGENCY`) to take them.
 */
/** The test app's configuration for agency mode (decision 019), whose API credential is the agency's access token. */
export const AGENCY = { IDENTITY_MODE: 'agency' } as const;

export function tokenMinter() {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'idp-')), 'key.json');
  return {
    keyFile,
    async token(subject: string, email: string) {
      const signer = await loadSigner(keyFile);
      return new SignJWT({ sub: subject, email })
        .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' })
        .setIssuer('dev-identity')
        .setExpirationTime('1h')
        .sign(signer.privateKey);
    },
  };
}

/** The merchant keys of the test app (parseConfig defaults). */
export const keysOf = (app: TestApp): MpgKeys => ({
  merchantId: app.config.NEWEBPAY_MERCHANT_ID,
  hashKey: app.config.NEWEBPAY_HASH_KEY,
  hashIv: app.config.NEWEBPAY_HASH_IV,
});

/** A gateway callback (notify / return) signed with `keys`, as the gateway sends it. */
export function signedCallback(
  keys: MpgKeys,
  result: { MerchantOrderNo: string; Amt: number; MerchantID?: string; TradeNo?: string },
  status = 'SUCCESS',
  outerMerchantId = keys.merchantId,
) {
  const plain = JSON.stringify({
    Status: status,
    Message: status === 'SUCCESS' ? 'Payment authorised' : 'Card declined',
    Result: {
      MerchantID: keys.merchantId,
      TradeNo: '26112112345678',
      PaymentType: 'CREDIT',
      RespondType: 'JSON',
      PayTime: '2026-11-21 10:00:00',
      ...result,
    },
  });
  const tradeInfo = encryptText(plain, keys);
  return {
    Status: status,
    MerchantID: outerMerchantId,
    Version: '2.0',
    TradeInfo: tradeInfo,
    TradeSha: tradeSha(tradeInfo, keys),
  };
}

export const postForm = (app: TestApp, path: string, fields: Record<string, string>) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

/** Hidden input name → value in an HTML page (the sandbox gateway's forms). */
export const hiddenFields = (page: string) =>
  Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );

/**
 * A Professional badge (TWD 1,000) applied for by `email` and paid by card through the sandbox
 * gateway, as a browser would: the gateway's entry form, the card, the return post.
 */
export async function paidBadgeByCard(app: TestApp, db: Db, email: string) {
  const { token } = await signIn(app, email, email.split('@')[0]);
  const order = await applyBadge(app, token);
  const info = (await getJson(app, `/api/v1/payment/${order.order_id}/tradeinfo?lang=en`, token)).body.data;
  const entry = await postForm(app, '/sandbox-gateway/MPG/mpg_gateway', {
    MerchantID: info.merchant_id,
    TradeInfo: info.trade_info_hex,
    TradeSha: info.trade_info_hash,
    Version: info.version,
  });
  const paid = await postForm(app, '/sandbox-gateway/MPG/pay', {
    ...hiddenFields(await entry.text()),
    CardNo: SANDBOX_TEST_CARDS.success,
    CardExp: '12/39',
    CardCVC: '123',
  });
  const returning = await paid.text();
  const action = /<form method="post" action="([^"]+)">/.exec(returning)![1]!;
  await postForm(app, action.slice(TEST_ORIGIN.length), hiddenFields(returning));
  const view = await getJson(app, `/api/v1/orders/${order.order_id}`, token);
  if (view.body.data.payment_status !== 'paid') throw new Error(`badge not paid: ${view.body.data.payment_status}`);
  const [payment] = await db
    .select()
    .from(schema.orderPayments)
    .where(and(eq(schema.orderPayments.orderId, order.order_id), eq(schema.orderPayments.status, 'paid')));
  return { token, orderId: order.order_id as string, orderNo: order.order_no as string, paymentId: payment!.id };
}

/** Gives existing users a badge directly: a free badge order of the seeded badge-free event, and the badge (of its edition). */
export async function giveBadges(db: Db, holders: { id: string; email: string }[]) {
  if (holders.length === 0) return;
  const [badgeFree] = await db.select().from(schema.events).where(eq(schema.events.slug, 'badge-free'));
  const badgeOrders = await db
    .insert(schema.orders)
    .values(
      holders.map((u) => ({
        orderNo: newOrderNo('TB'),
        userId: u.id,
        eventId: badgeFree!.id,
        registrationType: 'BADGE_FREE' as const,
        paymentStatus: 'free' as const,
        badgeEmailKey: u.email.toLowerCase(),
        badgeEditionId: badgeFree!.editionId,
      })),
    )
    .returning({ id: schema.orders.id, userId: schema.orders.userId });
  await db.insert(schema.badges).values(
    badgeOrders.map((o) => {
      const u = holders.find((h) => h.id === o.userId)!;
      return {
        userId: u.id,
        emailKey: u.email.toLowerCase(),
        editionId: badgeFree!.editionId,
        orderId: o.id,
        identity: 'PROFESSIONAL' as const,
        nameEn: u.email,
        pickupCode: `TEST.${randomUUID()}`,
      };
    }),
  );
}

/** Calls the operator API as the organiser `olivia` (POST, with a JSON body when given). */
export const operatorApi =
  (app: TestApp, token: string) =>
  async (path: string, body?: unknown): Promise<Response> =>
    app.request(`/api/v1/operator${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-operator': 'olivia',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

/**
 * A Market online registration of `email` (one work on the dev content site, a logo, the
 * exhibitor form), waiting for approval: what the back office's approvals queue shows.
 */
export async function marketOnlineRegistration(app: TestApp, db: Db, email: string, company: string) {
  const { token } = await signIn(app, email, email.split('@')[0]);
  const [work] = await db
    .insert(schema.devContentWorks)
    .values({
      ownerSubject: devSubject(email),
      ownerEmail: email,
      genre: 'piece',
      titleEn: 'Harbour',
      titleZh: '港灣',
      categoryId: 1,
    })
    .returning({ id: schema.devContentWorks.id });
  const logo = (await (
    await upload(app, token, { bytes: PNG, name: 'logo.png', type: 'image/png' }, 'company_logo')
  ).json()) as {
    uid: string;
  };
  const res = await app.request(
    '/api/v1/orders?event=market-online',
    json(token, 'POST', {
      agree_terms: true,
      agree_disclosure: true,
      market_identity: 5,
      selected_contents: [work!.id],
      company_name_zh: `${company}（中文）`,
      company_name_en: company,
      company_industry: 3,
      company_business_category: [1],
      company_country: 'TWN',
      company_logo_file_id: logo.uid,
      copyright_contacts: [{ name_zh: '林', name_en: 'Lin', phone: '886-912-345-678', email: 'lin@example.com' }],
      contact_name: 'Amy Lin',
      contact_title: 'Producer',
      contact_phone: '886-2-1234-5678',
      contact_email: email,
    }),
  );
  if (res.status !== 201) throw new Error(`Market online registration failed: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { order_id: string; order_no: string };
  return { token, orderId: created.order_id, orderNo: created.order_no };
}
