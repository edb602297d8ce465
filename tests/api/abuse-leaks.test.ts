import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devContentWorks, orderPayments, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { devSubject } from '@server/identity/dev-identity';
import { createBadgeLink } from '@server/badges/badges';
import {
  application,
  applyBadge,
  counts,
  json,
  keysOf,
  orderState,
  PNG,
  postForm,
  signedCallback,
  upload,
  uploadPhoto,
} from './fixtures';
import {
  authCookie,
  bearer,
  createTestApp,
  DATABASES,
  openTestDatabase,
  signIn,
  type TestApp,
  type TestDatabase,
} from './helpers';

/**
 * Abuse suite, part 1 (issue 12): every API route, called by Bob with Alice's ids, leaks nothing
 * of Alice's and changes nothing of hers. The routes come from the Hono app itself: a route added
 * later fails the first test until it is classified below.
 */

/** How a route is checked. */
type Kind =
  /** Anyone may call it; it must show nothing of Alice's. */
  | 'public'
  /** Acts on the caller's own data only (no id in the path): Bob's answer shows nothing of Alice's. */
  | 'self'
  /** Takes an id of an owned resource: Bob with Alice's id gets 404 (or 403), and nothing changes. */
  | 'owned'
  /** The operator API: a user's token is refused (401). */
  | 'operator'
  /** Organisers only (the back office): a registrant's token is refused (403). */
  | 'organiser'
  /** The gateway's posts: verified by TradeSha, so a forged one naming Alice's order changes nothing. */
  | 'gateway';

/**
 * Every route of /api/v1, classified. A new route fails the test until it is added here; then the
 * generic pass calls it as Bob with Alice's ids (path parameters by name, below). Routes that
 * take an owned id or act for the caller also get hand-written cases with real bodies.
 */
const ROUTES: Record<string, Kind> = {
  // Issues 21–23: editions, e-invoices, refunds and ATM, the exhibitor directory, meetings.
  'GET /api/v1/admin/editions': 'organiser',
  'GET /api/v1/admin/editions/:slug': 'organiser',
  'GET /api/v1/admin/editions/current/payment-settings': 'organiser',
  'GET /api/v1/admin/invoice-settings': 'organiser',
  'GET /api/v1/admin/invoices': 'organiser',
  'GET /api/v1/admin/invoices/export': 'organiser',
  'GET /api/v1/admin/meetings': 'organiser',
  'GET /api/v1/admin/meetings/export/:file': 'organiser',
  'PATCH /api/v1/admin/editions/:slug': 'organiser',
  'POST /api/v1/admin/editions': 'organiser',
  'POST /api/v1/admin/editions/:slug/make-current': 'organiser',
  'POST /api/v1/admin/editions/next': 'organiser',
  'POST /api/v1/admin/invoices/:invoiceId/retry': 'organiser',
  'POST /api/v1/admin/meetings/:id/move': 'organiser',
  'POST /api/v1/admin/meetings/check-in': 'organiser',
  'POST /api/v1/admin/payments/:paymentId/refund': 'organiser',
  'GET /api/v1/admin/payments/:paymentId/refund-preview': 'organiser',
  'PUT /api/v1/admin/editions/current/payment-settings': 'organiser',
  'PUT /api/v1/admin/invoice-settings': 'organiser',
  'PUT /api/v1/admin/meetings/settings': 'organiser',
  'PUT /api/v1/admin/pickup-schedule': 'organiser',
  'GET /api/v1/edition': 'public',
  'GET /api/v1/exhibitor-logos/:fileId': 'public',
  'GET /api/v1/market/exhibitors': 'public',
  'GET /api/v1/market/exhibitors/:id': 'public',
  'GET /api/v1/market/exhibitors/:id/slots': 'public',
  'GET /api/v1/meetings': 'self',
  'POST /api/v1/meetings': 'self',
  'POST /api/v1/meetings/check-in': 'self',
  'GET /api/v1/meetings/:id': 'owned',
  'GET /api/v1/meetings/:id/calendar.ics': 'owned',
  'GET /api/v1/orders/:orderId/calendar.ics': 'owned',
  'GET /api/v1/payment/:orderId/atm-tradeinfo': 'owned',
  'POST /api/v1/meetings/:id/accept': 'owned',
  'POST /api/v1/meetings/:id/cancel': 'owned',
  'POST /api/v1/meetings/:id/decline': 'owned',
  'PUT /api/v1/meetings/exhibitors/:id': 'owned',
  'POST /api/v1/payment/newebpay/customer': 'gateway',
  'GET /api/v1/user/signin': 'public',
  'GET /api/v1/user/callback': 'public',
  'GET /api/v1/user/me': 'self',
  'GET /api/v1/user/page-version': 'self',
  'POST /api/v1/user/session/refresh': 'self',
  'DELETE /api/v1/user/session': 'self',
  'GET /api/v1/events': 'public',
  'GET /api/v1/events/:eventId': 'public',
  'GET /api/v1/event-images/:fileId': 'public',
  'GET /api/v1/pickup-schedule': 'public',
  'GET /api/v1/orders': 'self',
  'GET /api/v1/orders/:orderId': 'owned',
  'PUT /api/v1/orders/:orderId': 'owned',
  'POST /api/v1/orders': 'self',
  'GET /api/v1/pitching/usage': 'self',
  'GET /api/v1/registrations/:registrationId': 'owned',
  'PUT /api/v1/registrations/:registrationId': 'owned',
  'GET /api/v1/demonstration': 'self',
  'GET /api/v1/demonstration/link': 'public',
  'PUT /api/v1/demonstration': 'self',
  'POST /api/v1/demonstration_order': 'self',
  'GET /api/v1/demonstration_order': 'self',
  'PUT /api/v1/demonstration_order': 'self',
  'GET /api/v1/payment/:orderId/tradeinfo': 'owned',
  'POST /api/v1/payment/newebpay/notify': 'gateway',
  'POST /api/v1/payment/newebpay/return': 'gateway',
  'POST /api/v1/files/upload': 'self',
  'GET /api/v1/files/:fileId': 'owned',
  'GET /api/v1/contents/remote': 'self',
  'GET /api/v1/operator/orders': 'operator',
  'POST /api/v1/operator/orders/:orderNo/mark-paid': 'operator',
  'POST /api/v1/operator/orders/:orderNo/approve': 'operator',
  'POST /api/v1/operator/orders/:orderNo/reject': 'operator',
  'POST /api/v1/operator/orders/:orderNo/cancel': 'operator',
  'GET /api/v1/operator/refunds': 'operator',
  'POST /api/v1/operator/payments/:paymentId/refunded': 'operator',
  'POST /api/v1/operator/expire': 'operator',
  'POST /api/v1/operator/badge-links': 'operator',
  'GET /api/v1/operator/organisers': 'operator',
  'POST /api/v1/operator/organisers': 'operator',
  'POST /api/v1/operator/organisers/remove': 'operator',
  'GET /api/v1/admin/me': 'organiser',
  'GET /api/v1/admin/summary': 'organiser',
  'GET /api/v1/admin/orders': 'organiser',
  'GET /api/v1/admin/orders/:orderNo': 'organiser',
  'POST /api/v1/admin/orders/:orderNo/approve': 'organiser',
  'POST /api/v1/admin/orders/:orderNo/start-review': 'organiser',
  'POST /api/v1/admin/orders/:orderNo/reject': 'organiser',
  'POST /api/v1/admin/orders/:orderNo/cancel': 'organiser',
  'POST /api/v1/admin/orders/:orderNo/mark-paid': 'organiser',
  'GET /api/v1/admin/files/:fileId': 'organiser',
  'GET /api/v1/admin/badge-links': 'organiser',
  'POST /api/v1/admin/badge-links': 'organiser',
  'POST /api/v1/admin/badge-links/:id/revoke': 'organiser',
  'GET /api/v1/admin/badge-link-batches': 'organiser',
  'GET /api/v1/admin/badge-link-batches/:id': 'organiser',
  'POST /api/v1/admin/badge-link-batches/:id/revoke-unused': 'organiser',
  'GET /api/v1/admin/events': 'organiser',
  'GET /api/v1/admin/events/:slug': 'organiser',
  'PATCH /api/v1/admin/events/:slug': 'organiser',
  'POST /api/v1/admin/events': 'organiser',
  'POST /api/v1/admin/events/:slug/duplicate': 'organiser',
  'POST /api/v1/admin/events/:slug/publish': 'organiser',
  'POST /api/v1/admin/events/:slug/unpublish': 'organiser',
  'POST /api/v1/admin/events/:slug/archive': 'organiser',
  'GET /api/v1/admin/exports/:file': 'organiser',
  'GET /api/v1/admin/desk/badges': 'organiser',
  'POST /api/v1/admin/desk/verify': 'organiser',
  'POST /api/v1/admin/desk/pickups': 'organiser',
  'GET /api/v1/admin/desk/photos/:fileId': 'organiser',
  'GET /api/v1/admin/approvals': 'organiser',
  'POST /api/v1/admin/approvals/approve': 'organiser',
  'GET /api/v1/admin/transfers': 'organiser',
  'POST /api/v1/admin/orders/:orderNo/return-transfer': 'organiser',
  'POST /api/v1/admin/bank-imports/preview': 'organiser',
  'POST /api/v1/admin/bank-imports': 'organiser',
  'GET /api/v1/admin/bank-imports': 'organiser',
  'GET /api/v1/admin/bank-imports/:importId': 'organiser',
  'POST /api/v1/admin/bank-imports/:importId/confirm': 'organiser',
  'POST /api/v1/admin/bank-lines/:lineId/assign': 'organiser',
  'GET /api/v1/admin/refunds': 'organiser',
  'POST /api/v1/admin/refunds/:paymentId/refunded': 'organiser',
  'GET /api/v1/admin/team': 'organiser',
  'GET /api/v1/admin/team/changes': 'organiser',
  'POST /api/v1/admin/team': 'organiser',
  'PATCH /api/v1/admin/team/:email': 'organiser',
  'DELETE /api/v1/admin/team/:email': 'organiser',
  'GET /api/v1/reference/countries': 'public',
  'GET /api/v1/reference/countries/:slug': 'public',
  'GET /api/v1/reference/states': 'public',
  'GET /api/v1/reference/cities': 'public',
  'GET /api/v1/reference/places/:slug': 'public',
  'GET /api/v1/reference/enumerations': 'public',
};

/** The routes of the app (middleware, registered as ALL, left out). */
const routesOf = (app: TestApp) =>
  [
    ...new Set(
      app.app.routes
        .filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path}`),
    ),
  ].sort();

describe.each(DATABASES)('abuse: another user’s ids on every route (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  /** Alice's resources, and what of hers must never show in Bob's answers. */
  let alice: {
    token: string;
    email: string;
    orderId: string;
    orderNo: string;
    eventOrderId: string;
    registrationId: string;
    fileId: string;
    paymentId: string;
    linkCode: string;
    secrets: string[];
  };
  let bob: { token: string };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database, {}, { operatorToken: 'o'.repeat(40) });
    const email = 'alice-leak@example.com';
    const { token } = await signIn(app, email, 'Alice Leakproof');
    const fileId = await uploadPhoto(app, token);
    // A badge order (paid by card) and a free event registration.
    const badge = await applyBadge(app, token);
    const paid = await postForm(
      app,
      '/api/v1/payment/newebpay/notify',
      signedCallback(keysOf(app), { MerchantOrderNo: `${badge.order_no}_1`, Amt: 1000, TradeNo: 'ALICE-1' }),
    );
    expect(paid.status).toBe(200);
    const event = await app.request('/api/v1/orders?event=opening-forum', json(token, 'POST', { agree_terms: true }));
    expect(event.status).toBe(201);
    const eventOrder = await event.json();
    const registration = (await (await app.request(`/api/v1/orders/${badge.order_id}`, bearer(token))).json()).data;
    const [payment] = await database.db.select().from(orderPayments).where(eq(orderPayments.orderId, badge.order_id));
    // A one-time link issued to Alice's e-mail.
    const link = await createBadgeLink(database.db, {
      identity: 'VIP',
      email,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    // And a work of hers on the dev content site.
    await database.db.insert(devContentWorks).values({
      ownerSubject: devSubject(email),
      ownerEmail: email,
      genre: 'piece',
      categoryId: 1,
      titleEn: 'Alice Secret Work',
      titleZh: '愛麗絲的秘密作品',
    });
    const [pickup] = await database.db.select().from(users).where(eq(users.email, email));
    alice = {
      token,
      email,
      orderId: badge.order_id,
      orderNo: badge.order_no,
      eventOrderId: eventOrder.order_id,
      registrationId: registration.registration_id,
      fileId,
      paymentId: payment!.id,
      linkCode: link.code,
      // Her e-mail, name, phone, order number, pick-up user id, work: none may reach Bob.
      secrets: [
        email,
        'Alice Leakproof',
        'Hsiao-ming Wang',
        '886-912-345-678',
        badge.order_no,
        eventOrder.order_no,
        pickup!.id,
        'Alice Secret Work',
      ],
    };
    bob = await signIn(app, 'bob-leak@example.com', 'Bob');
  });
  afterAll(() => database.close());

  /** No secret of Alice's in a response (headers and body). */
  async function noLeak(res: Response, label: string) {
    const text = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await res.text()}`;
    for (const secret of alice.secrets) expect(text, `${label} shows ${secret}`).not.toContain(secret);
    expect(res.status, `${label}: ${text.slice(-300)}`).toBeLessThan(500);
    return res.status;
  }

  /** Alice's data, to compare before and after Bob's calls. */
  const aliceState = async () => ({
    badge: await orderState(database.db, alice.orderId),
    event: await orderState(database.db, alice.eventOrderId),
    file: await (await app.request(`/api/v1/files/${alice.fileId}`, bearer(alice.token))).arrayBuffer(),
    registration: await (
      await app.request(`/api/v1/registrations/${alice.registrationId}`, bearer(alice.token))
    ).text(),
  });

  it('classifies every route of the API (a new route must be added to ROUTES)', () => {
    expect(routesOf(app)).toEqual(Object.keys(ROUTES).sort());
  });

  /** Path parameters by name: Alice's ids, or real public slugs. */
  const params = (): Record<string, string> => ({
    orderId: alice.eventOrderId,
    orderNo: alice.orderNo,
    registrationId: alice.registrationId,
    fileId: alice.fileId,
    paymentId: alice.paymentId,
    eventId: 'opening-forum',
    slug: 'taiwan',
    id: '00000000-0000-4000-8000-000000000000',
    importId: '00000000-0000-4000-8000-000000000000',
    lineId: '00000000-0000-4000-8000-000000000000',
    file: 'orders.csv',
    email: 'alice-leak@example.com',
    invoiceId: '00000000-0000-4000-8000-000000000000',
  });

  it('calls every route as Bob with Alice’s ids: nothing of hers shows, nothing of hers changes', async () => {
    // Ending a session is called with a session of its own, so Bob stays signed in for the rest.
    const ending = (await signIn(app, 'carol-leak@example.com', 'Carol')).token;
    const before = await aliceState();
    const rows = await counts(database.db);
    const values = params();
    for (const [route, kind] of Object.entries(ROUTES)) {
      const [method, pattern] = route.split(' ') as [string, string];
      const path = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
        expect(values, `${route}: no value for :${name}`).toHaveProperty(name);
        return values[name]!;
      });
      const token = route === 'DELETE /api/v1/user/session' ? ending : bob.token;
      const init = method === 'GET' ? bearer(token) : kind === 'gateway' ? { method } : json(token, method, {});
      const status = await noLeak(await app.request(path, init), route);
      if (kind === 'owned') expect([403, 404], route).toContain(status);
      if (kind === 'operator') expect(status, route).toBe(401);
      if (kind === 'organiser') expect(status, route).toBe(403);
      if (kind === 'public') await noLeak(await app.request(path, { method }), `${route} signed out`);
    }
    expect(await aliceState()).toEqual(before);
    expect(await counts(database.db)).toEqual(rows);
  });

  it('answers Bob with 404 on every route that takes an id of Alice’s, changing nothing', async () => {
    const before = await aliceState();
    const rows = await counts(database.db);
    const bobJson = (method: string, body: unknown) => json(bob.token, method, body);
    const cases: [string, string, RequestInit][] = [
      ['GET /api/v1/orders/:orderId', `/api/v1/orders/${alice.orderId}`, bearer(bob.token)],
      ['GET /api/v1/orders/:orderId', `/api/v1/orders/${alice.eventOrderId}`, bearer(bob.token)],
      [
        'PUT /api/v1/orders/:orderId',
        `/api/v1/orders/${alice.eventOrderId}`,
        bobJson('PUT', { payment: { type: 'TWD', last_five_digits: '12345' } }),
      ],
      [
        'PUT /api/v1/orders/:orderId',
        `/api/v1/orders/${alice.orderId}`,
        bobJson('PUT', { receipt: { kind: 'personal' } }),
      ],
      ['GET /api/v1/registrations/:registrationId', `/api/v1/registrations/${alice.registrationId}`, bearer(bob.token)],
      [
        'PUT /api/v1/registrations/:registrationId',
        `/api/v1/registrations/${alice.registrationId}`,
        bobJson('PUT', { company_name_en: 'Hijacked' }),
      ],
      ['GET /api/v1/payment/:orderId/tradeinfo', `/api/v1/payment/${alice.eventOrderId}/tradeinfo`, bearer(bob.token)],
      ['GET /api/v1/payment/:orderId/tradeinfo', `/api/v1/payment/${alice.orderId}/tradeinfo`, bearer(bob.token)],
      ['GET /api/v1/files/:fileId', `/api/v1/files/${alice.fileId}`, bearer(bob.token)],
      // The file link as a browser opens it, with Bob's identity cookie.
      [
        'GET /api/v1/files/:fileId',
        `/api/v1/files/${alice.fileId}`,
        { headers: { cookie: authCookie(app, bob.token) } },
      ],
    ];
    for (const [route, path, init] of cases) {
      expect(ROUTES[route], route).toBe('owned');
      const res = await app.request(path, init);
      expect([403, 404], `${route} ${path}`).toContain(await noLeak(res, route));
      // Signed out: 401, and no more.
      expect((await app.request(path, { method: init.method ?? 'GET' })).status, `${route} signed out`).toBe(401);
    }
    expect(await aliceState()).toEqual(before);
    expect(await counts(database.db)).toEqual(rows);
  });

  it('answers Bob’s own routes with his data only, even when he names Alice’s files and links', async () => {
    const before = await aliceState();
    const cases: [string, () => Response | Promise<Response>][] = [
      ['GET /api/v1/user/me', () => app.request('/api/v1/user/me', bearer(bob.token))],
      ['GET /api/v1/orders', () => app.request('/api/v1/orders', bearer(bob.token))],
      ['GET /api/v1/pitching/usage', () => app.request('/api/v1/pitching/usage', bearer(bob.token))],
      ['GET /api/v1/demonstration', () => app.request('/api/v1/demonstration', bearer(bob.token))],
      ['GET /api/v1/demonstration_order', () => app.request('/api/v1/demonstration_order', bearer(bob.token))],
      [
        'PUT /api/v1/demonstration_order',
        () =>
          app.request(
            '/api/v1/demonstration_order',
            json(bob.token, 'PUT', { payment: { type: 'TWD', last_five_digits: '54321' } }),
          ),
      ],
      // Alice's photo in Bob's application: refused, no order for Bob.
      [
        'POST /api/v1/demonstration_order',
        () => app.request('/api/v1/demonstration_order', json(bob.token, 'POST', application(alice.fileId))),
      ],
      // The link issued to Alice, with her photo.
      [
        'PUT /api/v1/demonstration',
        () =>
          app.request(
            `/api/v1/demonstration?code=${alice.linkCode}`,
            json(bob.token, 'PUT', application(alice.fileId)),
          ),
      ],
      [
        'POST /api/v1/orders',
        () => app.request('/api/v1/orders?event=opening-forum', json(bob.token, 'POST', { agree_terms: true })),
      ],
      ['POST /api/v1/files/upload', () => upload(app, bob.token, { bytes: PNG, name: 'bob.png', type: 'image/png' })],
      ['GET /api/v1/contents/remote', () => app.request('/api/v1/contents/remote', bearer(bob.token))],
    ];
    for (const [route, call] of cases) {
      expect(ROUTES[route], route).toBe('self');
      await noLeak(await call(), route);
    }
    expect(await aliceState()).toEqual(before);
    // Bob's application with Alice's photo placed no order.
    expect((await app.request('/api/v1/demonstration_order', bearer(bob.token))).status).toBe(404);
  });

  it('shows nothing of Alice’s on public routes, refuses a user token on the operator API, and a forged gateway post changes nothing', async () => {
    const before = await aliceState();
    const publicCases: [string, string][] = [
      ['GET /api/v1/user/signin', '/api/v1/user/signin?return_to=/en/account/orders'],
      ['GET /api/v1/user/callback', '/api/v1/user/callback?code=x&state=y'],
      ['GET /api/v1/events', '/api/v1/events'],
      ['GET /api/v1/events/:eventId', '/api/v1/events/opening-forum'],
      ['GET /api/v1/pickup-schedule', '/api/v1/pickup-schedule'],
      ['GET /api/v1/demonstration/link', `/api/v1/demonstration/link?code=${alice.linkCode}&type=vip`],
      ['GET /api/v1/reference/countries', '/api/v1/reference/countries'],
      ['GET /api/v1/reference/countries/:slug', '/api/v1/reference/countries/taiwan'],
      ['GET /api/v1/reference/states', '/api/v1/reference/states'],
      ['GET /api/v1/reference/cities', '/api/v1/reference/cities'],
      ['GET /api/v1/reference/places/:slug', '/api/v1/reference/places/lagos'],
      ['GET /api/v1/reference/enumerations', '/api/v1/reference/enumerations'],
    ];
    for (const [route, path] of publicCases) {
      await noLeak(await app.request(path, bearer(bob.token)), route);
      await noLeak(await app.request(path), `${route} signed out`);
    }
    const operatorCases: [string, string, string][] = [
      ['GET /api/v1/operator/orders', 'GET', '/api/v1/operator/orders'],
      ['POST /api/v1/operator/orders/:orderNo/mark-paid', 'POST', `/api/v1/operator/orders/${alice.orderNo}/mark-paid`],
      ['POST /api/v1/operator/orders/:orderNo/approve', 'POST', `/api/v1/operator/orders/${alice.orderNo}/approve`],
      ['POST /api/v1/operator/orders/:orderNo/reject', 'POST', `/api/v1/operator/orders/${alice.orderNo}/reject`],
      ['POST /api/v1/operator/orders/:orderNo/cancel', 'POST', `/api/v1/operator/orders/${alice.orderNo}/cancel`],
      ['GET /api/v1/operator/refunds', 'GET', '/api/v1/operator/refunds'],
      [
        'POST /api/v1/operator/payments/:paymentId/refunded',
        'POST',
        `/api/v1/operator/payments/${alice.paymentId}/refunded`,
      ],
      ['POST /api/v1/operator/expire', 'POST', '/api/v1/operator/expire'],
      ['POST /api/v1/operator/badge-links', 'POST', '/api/v1/operator/badge-links'],
    ];
    for (const [route, method, path] of operatorCases) {
      const res = await app.request(
        path,
        method === 'GET' ? bearer(bob.token) : json(bob.token, method, { reason: 'x' }),
      );
      expect(await noLeak(res, route), route).toBe(401);
    }
    const forged = {
      ...signedCallback(keysOf(app), { MerchantOrderNo: `${alice.orderNo}_2`, Amt: 1 }),
      TradeSha: 'B'.repeat(64),
    };
    for (const route of ['POST /api/v1/payment/newebpay/notify', 'POST /api/v1/payment/newebpay/return']) {
      const res = await postForm(app, route.split(' ')[1]!, forged);
      expect([303, 400], route).toContain(await noLeak(res, route));
    }
    for (const [route] of [...publicCases, ...operatorCases]) expect(ROUTES[route], route).toBeDefined();
    expect(await aliceState()).toEqual(before);
  });
});
