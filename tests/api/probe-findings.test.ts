import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { devContentWorks, orderEvents, orderPayments, paymentNotifications } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { devSubject, loadSigner } from '@server/identity/dev-identity';
import { listRefundsDue } from '@server/payments/payments';
import {
  AGENCY,
  application,
  applyBadge,
  counts,
  json,
  keysOf,
  PDF,
  PNG,
  postForm,
  signedCallback,
  tokenMinter,
  upload,
  uploadPhoto,
} from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * The last findings of the security probe (issue 20), each once a 500, a hole or a silent loss.
 * (The Host header with a user part, HSTS and nosniff: node-http.test.ts; the dev content site on
 * a live portal: src/server/config.test.ts.)
 */

const SURROGATE = 'Must be valid Unicode text (a lone surrogate such as \\ud800 is not)';

describe.each(DATABASES)('findings of the security probe (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database);
  });

  /** A 400 validation_failed naming exactly `paths` as holding a lone surrogate. */
  async function expectSurrogateRefusal(res: Response, paths: string[]) {
    const body = await res.json();
    expect({ status: res.status, code: body.code }).toEqual({ status: 400, code: 'validation_failed' });
    expect(body.issues).toEqual(paths.map((path) => ({ path, message: SURROGATE })));
  }

  /** A work of `email` on the dev content site (its id). */
  async function ownWork(email: string) {
    const [work] = await database.db
      .insert(devContentWorks)
      .values({
        ownerSubject: devSubject(email),
        ownerEmail: email,
        genre: 'piece',
        titleEn: 'Harbour',
        titleZh: '港灣',
        categoryId: 1,
      })
      .returning({ id: devContentWorks.id });
    return work!.id;
  }

  describe('a lone surrogate in a JSON field is 400, never 500, and writes nothing', () => {
    it('the badge application', async () => {
      const { token } = await signIn(app, 'surrogate@example.com');
      const photo = await uploadPhoto(app, token);
      const before = await counts(database.db);
      // JSON.stringify would escape the lone surrogate as \ud800 itself: the body says it raw.
      const body = JSON.stringify(application(photo, { applicant: { name_en: 'A__SURROGATE__B' } })).replace(
        '__SURROGATE__',
        '\\ud800',
      );
      const res = await app.request('/api/v1/demonstration_order', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      await expectSurrogateRefusal(res, ['applicant.name_en']);
      expect(await counts(database.db)).toEqual(before);
    });

    it('the Market registration form', async () => {
      const email = 'market-surrogate@example.com';
      const { token } = await signIn(app, email);
      const work = await ownWork(email);
      const logo = await (
        await upload(app, token, { bytes: PNG, name: 'logo.png', type: 'image/png' }, 'company_logo')
      ).json();
      const before = await counts(database.db);
      const res = await app.request(
        '/api/v1/orders?event=market-online',
        json(token, 'POST', {
          agree_terms: true,
          agree_disclosure: true,
          market_identity: 5,
          selected_contents: [work],
          company_name_zh: '好公司\udc00',
          company_name_en: 'Good Co.',
          company_industry: 3,
          company_business_category: [1],
          company_country: 'TWN',
          company_logo_file_id: logo.uid,
          copyright_contacts: [
            { name_zh: '林', name_en: 'Lin\ud83d', phone: '886-912-345-678', email: 'l@example.com' },
          ],
          contact_name: 'Amy Lin',
          contact_title: 'Producer',
          contact_phone: '886-2-1234-5678',
          contact_email: email,
        }),
      );
      await expectSurrogateRefusal(res, ['company_name_zh', 'copyright_contacts.0.name_en']);
      expect(await counts(database.db)).toEqual(before);
    });

    it('the Story to Screen form', async () => {
      const email = 'story-surrogate@example.com';
      const { token } = await signIn(app, email);
      const work = await ownWork(email);
      const outline = await (
        await upload(app, token, { bytes: PDF, name: 'outline.pdf', type: 'application/pdf' }, 'story_outline')
      ).json();
      const before = await counts(database.db);
      const res = await app.request(
        '/api/v1/orders?event=pitching-story',
        json(token, 'POST', {
          agree_policy: true,
          agree_terms: true,
          selected_contents: [work],
          setting_zh: '港邊小鎮。',
          setting_en: 'A harbour town.',
          story_summary_zh: '燈塔看守人的故事。',
          story_summary_en: 'The story of a lighthouse keeper\ud800.',
          story_genre_id: 1,
          story_outline_file_id: outline.uid,
          screen_rights_holder_zh: '好公司',
          screen_rights_holder_en: 'Good Co.',
          character_description_zh: '主角。',
          character_description_en: 'Lead.',
          suitable_for_film_zh: '畫面感強。',
          suitable_for_film_en: 'Strongly visual.',
          team_members: [
            { name_zh: '成員', name_en: 'M', title_zh: '導演', title_en: 'D', profile_zh: '。', profile_en: '.' },
          ],
          companies: [{ name_zh: '好公司', name_en: 'Good Co.', profile_zh: '簡介。', profile_en: 'About us.' }],
        }),
      );
      await expectSurrogateRefusal(res, ['story_summary_en']);
      expect(await counts(database.db)).toEqual(before);
    });

    it('an identity token claim (agency mode)', async () => {
      const minter = tokenMinter();
      const agency = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile });
      const signer = await loadSigner(minter.keyFile);
      const token = await new SignJWT({ sub: 'sub-surrogate', email: 's@example.com', name: 'Amy\ud800' })
        .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' })
        .setIssuer('dev-identity')
        .setExpirationTime('1h')
        .sign(signer.privateKey);
      await expectSurrogateRefusal(await agency.request('/api/v1/user/me', bearer(token)), ['token.name']);
    });
  });

  it('a second verified charge of a paid card attempt under another trade number is received and recorded as refund_due', async () => {
    const { token } = await signIn(app, 'charged-twice@example.com');
    const order = await applyBadge(app, token);
    const merchantOrderNo = `${order.order_no}_1`;
    const first = signedCallback(keysOf(app), { MerchantOrderNo: merchantOrderNo, Amt: 1000, TradeNo: 'T1' });
    const second = signedCallback(keysOf(app), { MerchantOrderNo: merchantOrderNo, Amt: 1000, TradeNo: 'T2' });
    expect(await (await postForm(app, '/api/v1/payment/newebpay/notify', first)).json()).toEqual({
      data: { result: 'paid' },
    });
    // Was 400 trade_mismatch, recorded nowhere: the money was lost from sight.
    const res = await postForm(app, '/api/v1/payment/newebpay/notify', second);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { result: 'duplicate_charge' } });
    const payments = await database.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, order.order_id))
      .orderBy(orderPayments.createdAt);
    expect(payments.map((p) => [p.status, p.gatewayTradeNo, p.merchantOrderNo, p.refundReason])).toEqual([
      ['paid', 'T1', merchantOrderNo, null],
      ['refund_due', 'T2', null, 'duplicate_charge'],
    ]);
    expect(payments[1]).toMatchObject({ amountCents: 100_000, attempt: 1, method: 'credit_card' });
    const [event] = await database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.order_id), eq(orderEvents.kind, 'refund_due')));
    expect(event!.payload).toMatchObject({
      reason: 'duplicate_charge',
      merchantOrderNo,
      tradeNo: 'T2',
      firstTradeNo: 'T1',
    });
    // The gateway repeats its notification: received again, recorded once.
    expect((await postForm(app, '/api/v1/payment/newebpay/notify', second)).status).toBe(200);
    expect(
      await database.db.select().from(orderPayments).where(eq(orderPayments.orderId, order.order_id)),
    ).toHaveLength(2);
    const notes = await database.db
      .select({ accepted: paymentNotifications.accepted, reason: paymentNotifications.reason })
      .from(paymentNotifications)
      .where(eq(paymentNotifications.orderId, order.order_id));
    expect(notes).toEqual([
      { accepted: true, reason: 'paid' },
      { accepted: false, reason: 'duplicate_charge' },
      { accepted: false, reason: 'duplicate_charge' },
    ]);
    // On the organisers' list of refunds owed (`npm run orders -- refunds`, the back office).
    expect(await listRefundsDue(database.db)).toMatchObject([
      { orderNo: order.order_no, reason: 'duplicate_charge', gatewayTradeNo: 'T2', amountCents: 100_000 },
    ]);
  });

  it('agency mode: a token issued in the future is refused, beyond a minute of clock skew', async () => {
    const minter = tokenMinter();
    const agency = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile });
    const signer = await loadSigner(minter.keyFile);
    const now = Math.floor(Date.now() / 1000);
    const issued = (iat: number, sub: string) =>
      new SignJWT({ sub, email: `${sub}@example.com` })
        .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' })
        .setIssuer('dev-identity')
        .setIssuedAt(iat)
        .setExpirationTime(now + 7200)
        .sign(signer.privateKey);
    const future = await agency.request('/api/v1/user/me', bearer(await issued(now + 3600, 'future')));
    expect(future.status).toBe(401);
    expect((await agency.request('/api/v1/user/me', bearer(await issued(now + 30, 'skewed')))).status).toBe(200);
    expect((await agency.request('/api/v1/user/me', bearer(await issued(now - 60, 'present')))).status).toBe(200);
  });
});

describe.each(DATABASES)('agency mode, the identity service unreachable (%s)', (kind) => {
  let database: TestDatabase;
  let idp: http.Server;
  let jwks: { keys: unknown[] };
  let up = false;
  let port: number;
  let privateKey: CryptoKey;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'agency-key', alg: 'ES256', use: 'sig' }] };
    // The agency's identity service: its key set while `up`; a reset connection otherwise.
    idp = http.createServer((req, res) => {
      if (!up) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    port = (idp.address() as AddressInfo).port;
  });
  afterAll(async () => {
    idp.closeAllConnections();
    await new Promise((resolve) => idp.close(resolve));
    await database.close();
  });

  /** A fresh instance configured for the agency's service (a live portal, staging allowances). */
  async function instance() {
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
    const app = await createTestApp(
      database,
      {
        IDENTITY_MODE: 'agency',
        IDENTITY_URL: `http://127.0.0.1:${port}`,
        IDENTITY_AUDIENCE: 'registration-api',
        IDENTITY_ISSUER: 'https://id.agency.example',
        IDENTITY_CLIENT_SECRET: 'agency-client-secret',
        SITE_URL: 'http://portal.test',
        PICKUP_CODE_SECRET: 'a-long-enough-pickup-secret',
        ALLOW_SANDBOX_GATEWAY: 'true',
        ALLOW_SANDBOX_INVOICE: 'true',
        ALLOW_OUTBOX_MAIL: 'true',
        ALLOW_DEV_CONTENT: 'true',
      },
      { log: (level, message, data) => lines.push({ level, message, data }) },
    );
    return { app, lines };
  }
  const token = () =>
    new SignJWT({ sub: 'agency-user-1', email: 'agency-user@example.com', name: 'Agency User' })
      .setProtectedHeader({ alg: 'ES256', kid: 'agency-key', typ: 'at+jwt' })
      .setIssuer('https://id.agency.example')
      .setAudience('registration-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

  it('a valid token is answered 503 identity_unavailable (never 401: nobody is signed out), then 200 once the service answers', async () => {
    up = false;
    const { app, lines } = await instance();
    const credential = await token();
    const down = await app.request('/api/v1/user/me', bearer(credential));
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ code: 'identity_unavailable' });
    // The cookie reading of a page link (GET with the idc-token cookie) is not cleared either.
    const viaCookie = await app.request('/api/v1/files/00000000-0000-4000-8000-000000000000', {
      headers: { cookie: `idc-token=${credential}` },
    });
    expect(viaCookie.status).toBe(503);
    expect(viaCookie.headers.getSetCookie()).toEqual([]);
    expect(lines.find((l) => l.message === 'identity key set could not be fetched')).toMatchObject({
      level: 'error',
      data: { dependency: 'identity' },
    });
    expect(lines.some((l) => l.message === 'identity service unavailable: token not verified')).toBe(true);

    up = true;
    const back = await app.request('/api/v1/user/me', bearer(credential));
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ data: { email: 'agency-user@example.com' } });
    // A forged token is still refused as such while the service answers.
    expect((await app.request('/api/v1/user/me', bearer(`${credential.slice(0, -4)}AAAA`))).status).toBe(401);
  });

  it('an instance that fetched the key set keeps it while the service is down', async () => {
    up = true;
    const { app } = await instance();
    expect((await app.request('/api/v1/user/me', bearer(await token()))).status).toBe(200);
    up = false;
    // Another token (not in the verified-token cache): verified with the kept key set.
    const other = await new SignJWT({ sub: 'agency-user-2', email: 'second@example.com' })
      .setProtectedHeader({ alg: 'ES256', kid: 'agency-key', typ: 'at+jwt' })
      .setIssuer('https://id.agency.example')
      .setAudience('registration-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await app.request('/api/v1/user/me', bearer(other))).status).toBe(200);
  });
});
