import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import {
  badgeLinks,
  devContentWorks,
  emails,
  events,
  orderContents,
  orderEvents,
  orders,
  registrations,
} from '@server/db/schema';
import { devSubject } from '@server/identity/dev-identity';
import { mailPass } from '@server/jobs/worker';
import { mailSettings } from '@server/mail/outbox';
import type { MailTransport } from '@server/mail/transport';
import { counts, getJson, json, PNG, upload, operatorApi } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;
const OPERATOR_TOKEN = 'operator-token-for-the-market-tests-0001';

/** A Market registration body as the wizard sends it (snake_case on the wire). */
function marketBody(works: number[], over: Record<string, unknown> = {}) {
  return {
    agree_terms: true,
    agree_disclosure: true,
    market_identity: 1,
    selected_contents: works,
    company_name_zh: '好故事影業',
    company_name_en: 'Good Story Pictures',
    company_profile_zh: '專注華語劇集。',
    company_profile_en: 'Drama series in Mandarin.',
    company_industry: 3,
    company_business_category: [1, 2],
    company_country: 'TWN',
    copyright_contacts: [
      {
        key: 'abcdefghijklmnopqrstu',
        name_zh: '王小明',
        name_en: 'Ming Wang',
        position_zh: '經理',
        position_en: 'Manager',
        phone: '886-912-345-678',
        email: 'ming@example.com',
      },
    ],
    contact_name: 'Amy Lin',
    contact_title: 'Producer',
    contact_phone: '886-2-1234-5678',
    contact_email: 'amy@example.com',
    ...over,
  };
}

describe.each(DATABASES)('Market exhibitors (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let clock = new Date();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    clock = new Date();
    app = await createTestApp(database, {}, { operatorToken: OPERATOR_TOKEN, now: () => clock });
    const now = Date.now();
    const base = {
      registerStartAt: new Date(now - DAY),
      registerEndAt: new Date(now + 10 * DAY),
      startTime: new Date(now + 20 * DAY),
      endAt: new Date(now + 23 * DAY),
      formModifyExpiresAt: new Date(now + 5 * DAY),
    };
    await db.insert(events).values([
      {
        ...base,
        slug: 'market-early',
        type: 'market_earlybird',
        nameEn: 'Market early-bird',
        nameZh: '市場展早鳥報名',
      },
      {
        ...base,
        slug: 'market-early-physical',
        type: 'market_earlybird',
        nameEn: 'Market (physical)',
        nameZh: '市場展（實體）',
        offeredRegistrationTypes: ['MARKET_DOMESTIC', 'MARKET_INTERNATIONAL'],
      },
      {
        ...base,
        slug: 'market-online',
        type: 'market_online',
        nameEn: 'Market online',
        nameZh: '線上市場展',
        priceCentsTwd: 600_000,
        priceCentsUsd: 20_000,
        originalPriceCentsTwd: 1_000_000,
      },
      { ...base, slug: 'talk', type: 'event_general', nameEn: 'Talk', nameZh: '講座' },
      { ...base, slug: 'free-badge', type: 'badge_free', nameEn: 'Free badge', nameZh: '免費識別證' },
    ]);
  });

  const operator = (path: string, body?: unknown) => operatorApi(app, OPERATOR_TOKEN)(path, body);

  /** A signed-in exhibitor with two works on the (dev) content site. */
  async function exhibitor(email = 'amy@example.com') {
    const { token } = await signIn(app, email, 'Amy Lin');
    const rows = await db
      .insert(devContentWorks)
      .values([
        {
          ownerSubject: devSubject(email),
          ownerEmail: email,
          genre: 'piece',
          categoryId: 2,
          titleEn: 'River Town',
          titleZh: '河城',
        },
        {
          ownerSubject: devSubject(email),
          ownerEmail: email,
          genre: 'project',
          categoryId: 1,
          titleEn: 'Night Tram',
          titleZh: '夜行電車',
        },
      ])
      .returning({ id: devContentWorks.id });
    return { token, works: rows.map((r) => r.id) };
  }
  const register = (token: string, slug: string, body: unknown, type?: string) =>
    app.request(`/api/v1/orders?event=${slug}${type ? `&registration_type=${type}` : ''}`, json(token, 'POST', body));

  it('early-bird, free: the order, its exhibitor form, contact info and works, and 4 one-time badge links', async () => {
    const { token, works } = await exhibitor();
    const res = await register(token, 'market-early', marketBody(works));
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ payment_status: 'free', approval_status: null });
    const [order] = await db.select().from(orders).where(eq(orders.id, created.order_id));
    expect(order!.registrationType).toBe('MARKET_EARLYBIRD');
    const [registration] = await db.select().from(registrations).where(eq(registrations.orderId, order!.id));
    expect(registration!.form).toMatchObject({
      companyNameEn: 'Good Story Pictures',
      companyIndustry: 3,
      companyBusinessCategory: [1, 2],
      marketIdentity: 1,
      copyrightContacts: [{ nameEn: 'Ming Wang', email: 'ming@example.com' }],
    });
    expect(registration!.form).not.toHaveProperty('contactName');
    expect(registration!.contact).toEqual({
      contactName: 'Amy Lin',
      contactTitle: 'Producer',
      contactPhone: '886-2-1234-5678',
      contactEmail: 'amy@example.com',
    });
    const contents = await db.select().from(orderContents).where(eq(orderContents.orderId, order!.id));
    expect(contents.map((c) => [c.title, c.titleZh, c.genre, c.categoryId]).sort()).toEqual([
      ['Night Tram', '夜行電車', 'project', 1],
      ['River Town', '河城', 'piece', 2],
    ]);
    const links = await db.select().from(badgeLinks).where(eq(badgeLinks.orderId, order!.id));
    expect(links).toHaveLength(4);
    expect(new Set(links.map((l) => l.identity))).toEqual(new Set(['EXHIBITOR_MARKET']));

    // The order view: works in the page's language, the links with their state.
    const view = await getJson(app, `/api/v1/orders/${order!.id}?lang=zh-TW`, token);
    expect(view.body.data.contents.map((c: { title: string }) => c.title).sort()).toEqual(['河城', '夜行電車'].sort());
    expect(view.body.data.included_badges.count).toBe(4);
    expect(view.body.data.included_badges.links[0]).toMatchObject({ seq: 1, used_at: null, used_by: null });
    expect(view.body.data.included_badges.links[0].path).toMatch(/^\/get-badge\/exhibitor-market\/[\w-]+$/);
    // Not in the order list (the links are for the order's page only).
    const list = await getJson(app, '/api/v1/orders', token);
    expect(list.body.data[0]).not.toHaveProperty('included_badges');

    // A colleague claims one with their own account; the order shows who.
    const colleague = await signIn(app, 'ben@example.com', 'Ben Chen');
    const photo = await upload(
      app,
      colleague.token,
      { bytes: PNG, name: 'ben.png', type: 'image/png' },
      'personal_photo',
    );
    const code = view.body.data.included_badges.links[0].path.split('/').pop();
    const claim = await app.request(
      `/api/v1/demonstration?code=${code}`,
      json(colleague.token, 'PUT', {
        applicant: { name_en: 'Ben Chen', contact_phone: '886-912-000-111' },
        badge: { name_en: 'Ben Chen' },
        personal_photo_file_id: (await photo.json()).uid,
      }),
    );
    expect(claim.status).toBeLessThan(300);
    const after = await getJson(app, `/api/v1/orders/${order!.id}`, token);
    expect(after.body.data.included_badges.links[0]).toMatchObject({ used_by: 'Ben Chen' });
  });

  it('a repeat registration answers the existing order (200), nothing new written', async () => {
    const { token, works } = await exhibitor();
    const first = await (await register(token, 'market-early', marketBody(works))).json();
    const before = await counts(db);
    const again = await register(token, 'market-early', marketBody(works));
    expect(again.status).toBe(200);
    expect((await again.json()).order_id).toBe(first.order_id);
    expect(await counts(db)).toEqual(before);
  });

  it('participation types: online takes only 5, early-bird 1–4; 3 and 4 register as domestic / international where offered', async () => {
    const { token, works } = await exhibitor();
    const before = await counts(db);
    const online = await register(token, 'market-online', marketBody(works, { market_identity: 1 }));
    expect(online.status).toBe(400);
    expect(await online.json()).toMatchObject({ code: 'invalid_market_identity' });
    const early = await register(token, 'market-early', marketBody(works, { market_identity: 5 }));
    expect(await early.json()).toMatchObject({ code: 'invalid_market_identity' });
    const unknown = await register(token, 'market-early', marketBody(works, { market_identity: 9 }));
    expect(unknown.status).toBe(400);
    expect(await counts(db)).toEqual(before);

    const domestic = await (
      await register(token, 'market-early-physical', marketBody(works, { market_identity: 3 }))
    ).json();
    const [row] = await db.select().from(orders).where(eq(orders.id, domestic.order_id));
    expect(row!.registrationType).toBe('MARKET_DOMESTIC');
    const other = await exhibitor('carl@example.com');
    const intl = await (
      await register(other.token, 'market-early-physical', marketBody(other.works, { market_identity: 4 }))
    ).json();
    expect((await db.select().from(orders).where(eq(orders.id, intl.order_id)))[0]!.registrationType).toBe(
      'MARKET_INTERNATIONAL',
    );
    const third = await exhibitor('dana@example.com');
    const plain = await (
      await register(third.token, 'market-early', marketBody(third.works, { market_identity: 3 }))
    ).json();
    expect((await db.select().from(orders).where(eq(orders.id, plain.order_id)))[0]!.registrationType).toBe(
      'MARKET_EARLYBIRD',
    );
    // A registration type that contradicts the participation type is refused.
    const fourth = await exhibitor('eve@example.com');
    const wrong = await register(
      fourth.token,
      'market-early-physical',
      marketBody(fourth.works, { market_identity: 4 }),
      'MARKET_DOMESTIC',
    );
    expect(await wrong.json()).toMatchObject({ code: 'invalid_registration_type' });
  });

  it('bad and oversized fields → 400 naming the field, nothing written', async () => {
    const { token, works } = await exhibitor();
    const before = await counts(db);
    const cases: [Record<string, unknown>, string][] = [
      [{ company_business_category: [1, 2, 3, 4] }, 'company_business_category'],
      [{ company_business_category: [2, 2] }, 'company_business_category'],
      [{ company_business_category: [15] }, 'company_business_category'],
      [{ company_industry: 9 }, 'company_industry'],
      [{ company_name_en: 'x'.repeat(257) }, 'company_name_en'],
      [{ company_name_zh: '  ' }, 'company_name_zh'],
      [{ company_profile_zh: '字'.repeat(81) }, 'company_profile_zh'],
      [{ company_profile_en: 'x'.repeat(401) }, 'company_profile_en'],
      [{ copyright_contacts: [] }, 'copyright_contacts'],
      [
        { copyright_contacts: [{ ...marketBody([]).copyright_contacts[0], email: 'not-an-e-mail' }] },
        'copyright_contacts.0.email',
      ],
      [{ copyright_contacts: [{ ...marketBody([]).copyright_contacts[0], phone: '' }] }, 'copyright_contacts.0.phone'],
      [{ contact_email: 'x'.repeat(250) + '@example.com' }, 'contact_email'],
      [{ contact_title: '' }, 'contact_title'],
      [{ agree_disclosure: false }, 'agree_disclosure'],
      [{ selected_contents: [] }, 'selected_contents'],
      [{ company_country: 'Taiwan' }, 'company_country'],
    ];
    for (const [over, path] of cases) {
      const res = await register(token, 'market-early', marketBody(works, over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      const body = await res.json();
      expect(body.issues?.map((i: { path: string }) => i.path) ?? [body.code], JSON.stringify(over)).toContainEqual(
        expect.stringContaining(path.split('.')[0]!),
      );
    }
    expect(await counts(db)).toEqual(before);
  });

  it("another user's work, an unknown country or another user's logo → 400, nothing written", async () => {
    const { token, works } = await exhibitor();
    const other = await exhibitor('ben@example.com');
    const before = await counts(db);
    const foreign = await register(token, 'market-early', marketBody([works[0]!, other.works[0]!]));
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ code: 'work_not_found' });
    const country = await register(token, 'market-early', marketBody(works, { company_country: 'XXX' }));
    expect(country.status).toBe(400);
    expect(await country.json()).toMatchObject({ code: 'invalid_country' });
    const logo = await (
      await upload(app, other.token, { bytes: PNG, name: 'logo.png', type: 'image/png' }, 'company_logo')
    ).json();
    const stolen = await register(token, 'market-early', marketBody(works, { company_logo_file_id: logo.uid }));
    expect(await stolen.json()).toMatchObject({ code: 'invalid_logo' });
    expect((await counts(db)).orders).toBe(before.orders);
    // Their own logo is fine.
    const own = await (
      await upload(app, token, { bytes: PNG, name: 'logo.png', type: 'image/png' }, 'company_logo')
    ).json();
    const ok = await register(token, 'market-early', marketBody(works, { company_logo_file_id: own.uid }));
    expect(ok.status).toBe(201);
  });

  it('online: pending approval, no payment until approved, then pay; paid issues the 4 badge links and e-mails them', async () => {
    const { token, works } = await exhibitor();
    const created = await (await register(token, 'market-online', marketBody(works, { market_identity: 5 }))).json();
    expect(created).toMatchObject({ payment_status: 'pending', approval_status: 'pending_approval' });
    const [row] = await db.select().from(orders).where(eq(orders.id, created.order_id));
    expect(row).toMatchObject({ registrationType: 'MARKET_ONLINE', totalTwdCents: 600_000, paymentExpiresAt: null });
    const early = await app.request(`/api/v1/payment/${created.order_id}/tradeinfo`, bearer(token));
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: 'not_approved' });
    expect(await db.select().from(badgeLinks)).toHaveLength(0);

    expect((await operator(`/orders/${row!.orderNo}/approve`, {})).status).toBe(200);
    const approved = await getJson(app, `/api/v1/orders/${created.order_id}`, token);
    expect(approved.body.data).toMatchObject({ approval_status: 'approved', payment_status: 'pending' });
    expect(approved.body.data.included_badges).toMatchObject({ count: 4, links: [] });
    expect((await app.request(`/api/v1/payment/${created.order_id}/tradeinfo`, bearer(token))).status).toBe(200);

    expect((await operator(`/orders/${row!.orderNo}/mark-paid`)).status).toBe(200);
    expect(await db.select().from(badgeLinks).where(eq(badgeLinks.orderId, created.order_id))).toHaveLength(4);

    // The mail worker: the approval mail links to pay; the paid event sends the links.
    const sent: string[] = [];
    const transport: MailTransport = {
      kind: 'smtp',
      async send(mail) {
        sent.push(mail.subject);
      },
      close: () => {},
    };
    await mailPass({ db, transport, settings: mailSettings(app.config), log: () => {}, now: () => new Date() });
    const mails = await db
      .select()
      .from(emails)
      .where(eq(emails.orderId, created.order_id))
      .orderBy(asc(emails.createdAt));
    const approval = mails.find((m) => m.template === 'approval_granted')!;
    expect(approval.text).toContain(`/registrations/${created.order_id}/pay`);
    const links = mails.find((m) => m.template === 'included_badges')!;
    expect(links.recipient).toBe('amy@example.com');
    expect(links.text.match(/\/get-badge\/exhibitor-market\//g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('a rejected online registration keeps no links and shows its reason', async () => {
    const { token, works } = await exhibitor();
    const created = await (await register(token, 'market-online', marketBody(works, { market_identity: 5 }))).json();
    const [row] = await db.select().from(orders).where(eq(orders.id, created.order_id));
    expect((await operator(`/orders/${row!.orderNo}/reject`, { reason: 'Online places are full.' })).status).toBe(200);
    const view = await getJson(app, `/api/v1/orders/${created.order_id}`, token);
    expect(view.body.data).toMatchObject({ approval_status: 'rejected', rejected_reason: 'Online places are full.' });
    expect(await db.select().from(badgeLinks)).toHaveLength(0);
  });

  describe('the contact page: editing the exhibitor form', () => {
    async function registered() {
      const { token, works } = await exhibitor();
      const created = await (await register(token, 'market-early', marketBody(works))).json();
      const view = await getJson(app, `/api/v1/orders/${created.order_id}`, token);
      return {
        token,
        works,
        orderId: created.order_id as string,
        registrationId: view.body.data.registration_id as string,
      };
    }
    const edit = (token: string, id: string, body: unknown) =>
      app.request(`/api/v1/registrations/${id}`, json(token, 'PUT', body));
    const { agree_terms, agree_disclosure, market_identity, selected_contents, ...formOnly } = marketBody([]);
    void [agree_terms, agree_disclosure, market_identity, selected_contents];

    it('before the deadline: read, edit (form and contact), recorded in the audit trail; works and identity kept', async () => {
      const { token, orderId, registrationId } = await registered();
      const read = await getJson(app, `/api/v1/registrations/${registrationId}`, token);
      expect(read.body.data).toMatchObject({ editable: true, form_type: 'exhibitor', order_id: orderId });
      expect(read.body.data.form.company_name_en).toBe('Good Story Pictures');
      expect(read.body.data.contact.contact_name).toBe('Amy Lin');

      const res = await edit(token, registrationId, {
        ...formOnly,
        company_name_en: 'Better Story Pictures',
        contact_title: 'CEO',
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.data.form).toMatchObject({ company_name_en: 'Better Story Pictures', market_identity: 1 });
      expect(body.data.contact.contact_title).toBe('CEO');
      const trail = await db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, orderId))
        .orderBy(asc(orderEvents.id));
      expect(trail.at(-1)).toMatchObject({ kind: 'form_updated', actor: 'registrant' });
      expect(
        (trail.at(-1)!.payload as { fields: string[] }).fields.sort(),
        JSON.stringify(trail.at(-1)!.payload),
      ).toEqual(['companyNameEn', 'contactTitle']);
      expect(await db.select().from(orderContents).where(eq(orderContents.orderId, orderId))).toHaveLength(2);
    });

    it('bad input → 400 and nothing changes; after the deadline → 409 and not editable', async () => {
      const { token, registrationId } = await registered();
      const [before] = await db.select().from(registrations).where(eq(registrations.id, registrationId));
      const bad = await edit(token, registrationId, { ...formOnly, company_business_category: [1, 2, 3, 4] });
      expect(bad.status).toBe(400);
      const missing = await edit(token, registrationId, { ...formOnly, contact_email: '' });
      expect(missing.status).toBe(400);
      expect((await db.select().from(registrations).where(eq(registrations.id, registrationId)))[0]).toEqual(before);

      clock = new Date(Date.now() + 6 * DAY);
      const late = await edit(token, registrationId, formOnly);
      expect(late.status).toBe(409);
      expect(await late.json()).toMatchObject({ code: 'form_modify_expired' });
      const read = await getJson(app, `/api/v1/registrations/${registrationId}`, token);
      expect(read.body.data.editable).toBe(false);
    });

    it("another user's registration is 404 (read and edit); an event without a form says so", async () => {
      const { registrationId } = await registered();
      const other = await signIn(app, 'mallory@example.com');
      expect((await getJson(app, `/api/v1/registrations/${registrationId}`, other.token)).status).toBe(404);
      expect((await edit(other.token, registrationId, formOnly)).status).toBe(404);
      expect((await edit(other.token, 'not-a-uuid', formOnly)).status).toBe(404);
      expect((await app.request(`/api/v1/registrations/${registrationId}`)).status).toBe(401);
    });
  });
});
