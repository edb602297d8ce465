import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { devContentWorks, events, orderEvents, orders, organisers } from '@server/db/schema';
import { devSubject } from '@server/identity/dev-identity';
import { addOrganiser, removeOrganiser } from '@server/identity/organisers';
import { applyBadge, getJson, json, PNG, upload } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

/** Every back-office route, with a body where it takes one: each must refuse visitors and registrants. */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/v1/admin/me'],
  ['GET', '/api/v1/admin/summary'],
  ['GET', '/api/v1/admin/orders'],
  ['GET', '/api/v1/admin/orders/TC1'],
  ['POST', '/api/v1/admin/orders/TC1/approve', {}],
  ['POST', '/api/v1/admin/orders/TC1/start-review', {}],
  ['POST', '/api/v1/admin/orders/TC1/reject', { reason: 'x' }],
  ['POST', '/api/v1/admin/orders/TC1/cancel', {}],
  ['POST', '/api/v1/admin/orders/TC1/mark-paid', {}],
  ['GET', '/api/v1/admin/files/00000000-0000-4000-8000-000000000000'],
];

describe.each(DATABASES)('back office: access and orders (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    app = await createTestApp(database, { ORGANISER_EMAILS: 'Olivia@Example.com, desk@example.com' });
    const now = Date.now();
    await db.insert(events).values([
      {
        slug: 'badge-professional',
        type: 'badge_professional',
        nameEn: 'Professional badge',
        nameZh: '專業人士識別證',
        registerStartAt: new Date(now - DAY),
        registerEndAt: new Date(now + 10 * DAY),
        startTime: new Date(now + 20 * DAY),
        endAt: new Date(now + 22 * DAY),
        priceCentsTwd: 100_000,
        priceCentsUsd: 3_500,
      },
      {
        slug: 'market-online',
        type: 'market_online',
        nameEn: 'Market online',
        nameZh: '線上市場展',
        registerStartAt: new Date(now - DAY),
        registerEndAt: new Date(now + 10 * DAY),
        startTime: new Date(now + 20 * DAY),
        endAt: new Date(now + 22 * DAY),
        formModifyExpiresAt: new Date(now + 5 * DAY),
        priceCentsTwd: 500_000,
      },
    ]);
  });

  const call = (token: string | null, method: string, path: string, body?: unknown) =>
    app.request(
      path,
      body === undefined
        ? { method, ...(token ? bearer(token) : {}) }
        : { ...json(token ?? '', method, body), ...(token ? {} : { headers: { 'content-type': 'application/json' } }) },
    );

  /** A Market online registration of `email`, with a logo, waiting for approval. */
  async function exhibitor(email: string, company: string) {
    const { token } = await signIn(app, email, 'Amy Lin');
    const [work] = await db
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
        company_name_zh: '港灣影業',
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
    expect(res.status).toBe(201);
    const created = (await res.json()) as { order_id: string; order_no: string };
    return { token, orderId: created.order_id, orderNo: created.order_no, logo: logo.uid };
  }

  it('refuses every back-office route to a visitor (401) and a registrant (403), before reading anything', async () => {
    const { token } = await signIn(app, 'reg@example.com');
    for (const [method, path, body] of ROUTES) {
      const visitor = await call(null, method, path, body);
      expect(visitor.status, `${method} ${path} as a visitor`).toBe(401);
      const registrant = await call(token, method, path, body);
      expect(registrant.status, `${method} ${path} as a registrant`).toBe(403);
      expect(await registrant.json()).toMatchObject({ code: 'forbidden' });
    }
  });

  it('organisers: from ORGANISER_EMAILS (any case) or granted; a removal counts on the next request', async () => {
    const configured = await signIn(app, 'olivia@example.com');
    expect((await call(configured.token, 'GET', '/api/v1/admin/me')).status).toBe(200);

    const { token } = await signIn(app, 'ned@example.com');
    expect((await call(token, 'GET', '/api/v1/admin/me')).status).toBe(403);
    expect(await addOrganiser(db, 'Ned@Example.com', 'test')).toMatchObject({ email: 'ned@example.com', added: true });
    const me = await getJson(app, '/api/v1/admin/me', token);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: 'ned@example.com', organiser: true });
    await removeOrganiser(db, 'ned@example.com');
    expect((await call(token, 'GET', '/api/v1/admin/me')).status).toBe(403);
    expect(await db.select().from(organisers)).toEqual([]);
  });

  it('searches by order number, name, e-mail and company; filters by event, type, payment and approval', async () => {
    const amy = await exhibitor('amy@example.com', 'Harbour Pictures');
    const ben = await exhibitor('ben@example.com', 'Night Tram Films');
    const badge = await signIn(app, 'cai@example.com', 'Cai Chen');
    await applyBadge(app, badge.token);
    const { token } = await signIn(app, 'olivia@example.com');
    const search = async (query: string) => {
      const res = await getJson(app, `/api/v1/admin/orders?${query}`, token);
      expect(res.status, query).toBe(200);
      return (res.body.data as { order_no: string }[]).map((o) => o.order_no).sort();
    };
    expect(await search('')).toHaveLength(3);
    expect(await search(`q=${amy.orderNo.slice(-6).toLowerCase()}`)).toEqual([amy.orderNo]);
    expect(await search('q=NIGHT%20TRAM')).toEqual([ben.orderNo]);
    expect(await search('q=ben%40example')).toEqual([ben.orderNo]);
    expect(await search('q=cai%20chen')).toHaveLength(1);
    expect(await search('q=%25')).toEqual([]); // a LIKE wildcard is searched as text
    expect(await search('event=market-online')).toEqual([amy.orderNo, ben.orderNo].sort());
    expect(await search('type=BADGE_PROFESSIONAL')).toHaveLength(1);
    expect(await search('approval=pending_approval')).toEqual([amy.orderNo, ben.orderNo].sort());
    expect(await search('approval=none&payment=pending')).toHaveLength(1);
    const bad = await getJson(app, '/api/v1/admin/orders?payment=nonsense&page=0', token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed' });
    const page = await getJson(app, '/api/v1/admin/orders?limit=2&page=2', token);
    expect(page.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
  });

  it('an order as the back office sees it; approve and reject go through the order core with the organiser as actor', async () => {
    const amy = await exhibitor('amy@example.com', 'Harbour Pictures');
    const ben = await exhibitor('ben@example.com', 'Night Tram Films');
    const { token } = await signIn(app, 'olivia@example.com');
    const detail = await getJson(app, `/api/v1/admin/orders/${amy.orderNo}`, token);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      order_no: amy.orderNo,
      approval_status: 'pending_approval',
      user: { email: 'amy@example.com', name: 'Amy Lin' },
      registration: { form: { company_name_en: 'Harbour Pictures' }, contact: { contact_name: 'Amy Lin' } },
      contents: [{ title_en: 'Harbour' }],
      files: [{ id: amy.logo, name: 'logo.png', url: `/api/v1/admin/files/${amy.logo}` }],
      history: [{ kind: 'placed', actor: 'registrant' }],
    });
    // The organiser opens the registrant's logo; the registrant cannot use the back office's route.
    expect((await app.request(`/api/v1/admin/files/${amy.logo}`, bearer(token))).status).toBe(200);
    expect((await app.request(`/api/v1/admin/files/${amy.logo}`, bearer(amy.token))).status).toBe(403);

    expect((await call(token, 'POST', `/api/v1/admin/orders/${amy.orderNo}/approve`, {})).status).toBe(200);
    const again = await call(token, 'POST', `/api/v1/admin/orders/${amy.orderNo}/approve`, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'already_approved' });
    const noReason = await call(token, 'POST', `/api/v1/admin/orders/${ben.orderNo}/reject`, { reason: '' });
    expect(noReason.status).toBe(400);
    expect((await call(token, 'POST', `/api/v1/admin/orders/${ben.orderNo}/reject`, { reason: 'Full' })).status).toBe(
      200,
    );
    expect((await call(token, 'POST', '/api/v1/admin/orders/TC000/approve', {})).status).toBe(404);

    const trail = await db
      .select({
        kind: orderEvents.kind,
        actor: orderEvents.actor,
        actorId: orderEvents.actorId,
        payload: orderEvents.payload,
      })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.orderNo, ben.orderNo));
    expect(trail).toContainEqual({
      kind: 'rejected',
      actor: 'organiser',
      actorId: 'olivia@example.com',
      payload: { reason: 'Full' },
    });
    const history = await getJson(app, `/api/v1/admin/orders/${amy.orderNo}`, token);
    expect(history.body.data.history.map((e: { kind: string }) => e.kind)).toEqual(['placed', 'approved']);
    expect(history.body.data.history[1]).toMatchObject({ actor: 'organiser', actor_id: 'olivia@example.com' });
  });

  it('the summary counts what waits for an organiser', async () => {
    await exhibitor('amy@example.com', 'Harbour Pictures');
    const { token } = await signIn(app, 'olivia@example.com');
    const summary = await getJson(app, '/api/v1/admin/summary', token);
    expect(summary.body.data).toMatchObject({ awaiting_approval: 1, transfers_checking: 0, refunds_due: 0 });
  });
});
