import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { events, registrations } from '@server/db/schema';
import { demoExhibitorEmail, seedDemoExhibitors } from '@server/market/demo-exhibitors';
import { listedExhibitor, listExhibitors } from '@server/market/directory';
import { getJson, json, marketOnlineRegistration, operatorApi } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

/** Every key of a JSON value, nested ones included. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)])
      : [];
const OPERATOR_TOKEN = 'operator-token-for-the-directory-tests-01';

describe.each(DATABASES)('exhibitor directory (%s)', (kind) => {
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
    app = await createTestApp(database, {}, { operatorToken: OPERATOR_TOKEN });
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
        slug: 'market-online',
        type: 'market_online',
        nameEn: 'Market online',
        nameZh: '線上市場展',
        priceCentsTwd: 600_000,
        priceCentsUsd: 20_000,
      },
    ]);
  });

  const operator = (path: string, body?: unknown) => operatorApi(app, OPERATOR_TOKEN)(path, body);
  const list = async (query = '', lang = 'en') => {
    const res = await app.request(`/api/v1/market/exhibitors${query}`, { headers: { 'accept-language': lang } });
    return { status: res.status, body: await res.json() };
  };
  const names = (body: { data: { company_name_en: string }[] }) => body.data.map((x) => x.company_name_en);

  it('lists a Market registration once complete (approved and paid), and not while waiting', async () => {
    const { orderNo, orderId, token } = await marketOnlineRegistration(app, db, 'amy@example.com', 'Amy Pictures');
    const [registration] = await db.select().from(registrations).where(eq(registrations.orderId, orderId));
    const id = registration!.id;
    // Waiting for approval: not listed, 404 alone.
    expect((await list()).body).toMatchObject({ data: [], meta: { total: 0, page: 1 } });
    expect((await app.request(`/api/v1/market/exhibitors/${id}`)).status).toBe(404);
    // Approved but unpaid: still not.
    expect((await operator(`/orders/${orderNo}/approve`, {})).status).toBe(200);
    expect((await list()).body.meta.total).toBe(0);
    // Paid: listed.
    expect((await operator(`/orders/${orderNo}/mark-paid`)).status).toBe(200);
    const listed = await list();
    expect(listed.status).toBe(200);
    expect(names(listed.body)).toEqual(['Amy Pictures']);
    expect(listed.body.data[0]).toMatchObject({
      id,
      company_name: 'Amy Pictures',
      company_name_zh: 'Amy Pictures（中文）',
      industry: { id: 3, label: 'Production company' },
      business_categories: [{ id: 1, label: 'Production' }],
      country: { iso: 'TWN' },
      works: [{ title: 'Harbour', title_zh: '港灣', category: { id: 1, label: 'Feature film' } }],
    });
    expect(listed.body.data[0].logo_url).toMatch(/^\/api\/v1\/exhibitor-logos\/[0-9a-f-]{36}\?w=320$/);
    expect(listed.body.countries).toEqual([{ iso: 'TWN', name: 'Taiwan' }]);
    // One exhibitor, in Chinese.
    const one = await app.request(`/api/v1/market/exhibitors/${id}`, { headers: { 'accept-language': 'zh-TW' } });
    expect(one.status).toBe(200);
    const body = await one.json();
    expect(body.data).toMatchObject({
      id,
      company_name: 'Amy Pictures（中文）',
      industry: { id: 3 },
      works: [{ title: '港灣' }],
    });
    expect(body.data.industry.label).not.toBe('Production company');
    expect(await listedExhibitor(db, id)).toMatchObject({ id, companyNameEn: 'Amy Pictures' });

    // A cancelled order leaves the directory.
    expect((await operator(`/orders/${orderNo}/cancel`, { reason: 'test' })).status).toBe(200);
    expect((await list()).body.meta.total).toBe(0);
    expect(token).toBeTruthy();
  });

  it('never shows contact phones or e-mails, nor the agreements', async () => {
    await seedDemoExhibitors(db, app.storage);
    const page = await app.request('/api/v1/market/exhibitors?limit=100');
    const text = await page.text();
    const [row] = await db.select().from(registrations).limit(1);
    const contact = row!.contact as Record<string, string>;
    const rights = (row!.form.copyrightContacts as Record<string, string>[])[0]!;
    for (const secret of [contact.contactEmail, contact.contactPhone, contact.contactName, rights.email, rights.phone])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/@example\.com|(?<![0-9a-fA-F])886-/);
    expect(keysOf(JSON.parse(text)).filter((k) => /contact|agree|identity|phone|e_?mail/i.test(k))).toEqual([]);
    const one = await app.request(`/api/v1/market/exhibitors/${row!.id}`);
    const oneText = await one.text();
    expect(one.status).toBe(200);
    expect(oneText).not.toMatch(/@example\.com|(?<![0-9a-fA-F])886-/);
    expect(keysOf(JSON.parse(oneText)).filter((k) => /contact|agree|identity|phone|e_?mail/i.test(k))).toEqual([]);
  });

  it('filters by search text (both languages, work titles), industry, business category, country and work category', async () => {
    expect(await seedDemoExhibitors(db, null)).toBe(6);
    const all = await list();
    expect(all.body.meta.total).toBe(6);
    // By name in the request's language.
    expect(names(all.body)[0]).toBe('Formosa Stories Publishing');
    expect(names((await list('?q=harbour')).body)).toEqual(['Harbour Light Pictures']);
    expect(names((await list('?q=' + encodeURIComponent('玉山'))).body)).toEqual(['Jade Mountain Animation']);
    // A work's title (Chinese), and a profile's word.
    expect(names((await list('?q=' + encodeURIComponent('漢江'))).body)).toEqual(['Seoul Wave Studios']);
    expect(names((await list('?q=streaming')).body)).toEqual(['StreamBridge OTT']);
    // LIKE's wildcards are taken literally.
    expect((await list('?q=%25')).body.meta.total).toBe(0);
    expect(names((await list('?industry=4')).body)).toEqual(['Jade Mountain Animation']);
    expect(names((await list('?business_category=8')).body)).toEqual(['Seoul Wave Studios']);
    expect(names((await list('?country=JPN')).body)).toEqual(['Pacific Rim Distribution']);
    expect(names((await list('?work_category=5')).body)).toEqual(['Jade Mountain Animation']);
    expect(names((await list('?industry=3&country=TWN')).body)).toEqual(['Harbour Light Pictures']);
    // Empty values (a GET form's untouched fields) are no filter.
    expect((await list('?q=&industry=&country=&business_category=&work_category=')).body.meta.total).toBe(6);
    // Pages.
    const first = await list('?limit=4');
    const second = await list('?limit=4&page=2');
    expect(first.body.meta).toEqual({ page: 1, limit: 4, total: 6 });
    expect(second.body.data).toHaveLength(2);
    expect(new Set([...names(first.body), ...names(second.body)]).size).toBe(6);
    // The countries of the filter, named in the request's language.
    expect((await list('', 'zh-TW')).body.countries.map((c: { iso: string }) => c.iso).sort()).toEqual([
      'JPN',
      'KOR',
      'SGP',
      'TWN',
    ]);
    // The service's own calls.
    expect((await listExhibitors(db, { industry: 4 })).data.map((x) => x.companyNameEn)).toEqual([
      'Jade Mountain Animation',
    ]);
  });

  it('bad filters → 400 validation_failed naming the parameter', async () => {
    for (const [query, field] of [
      ['?industry=9', 'industry'],
      ['?business_category=abc', 'business_category'],
      ['?country=taiwan', 'country'],
      ['?work_category=0', 'work_category'],
      ['?page=0', 'page'],
      ['?limit=1000', 'limit'],
      [`?q=${'x'.repeat(101)}`, 'q'],
    ] as const) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.issues[0].path).toBe(field);
    }
  });

  it('opting out on the contact page removes the exhibitor (and its logo); opting in again brings it back', async () => {
    await seedDemoExhibitors(db, app.storage, { count: 1 });
    const { token } = await signIn(app, demoExhibitorEmail(0));
    const [row] = await db.select().from(registrations).limit(1);
    const id = row!.id;
    const before = await list();
    expect(before.body.meta.total).toBe(1);
    const logo = before.body.data[0].logo_url as string;
    const served = await app.request(logo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    // The registration says it is listed; the contact page's form says otherwise.
    const registration = await getJson(app, `/api/v1/registrations/${id}`, token);
    expect(registration.body.data.directory_listed).toBe(true);
    const form = { ...registration.body.data.form, ...registration.body.data.contact };
    const edit = (listed: boolean | undefined) => {
      const body: Record<string, unknown> = {
        company_name_zh: form.company_name_zh,
        company_name_en: form.company_name_en,
        company_profile_zh: form.company_profile_zh,
        company_profile_en: form.company_profile_en,
        company_industry: form.company_industry,
        company_business_category: form.company_business_category,
        company_country: form.company_country,
        company_logo_file_id: form.company_logo_file_id,
        copyright_contacts: form.copyright_contacts,
        contact_name: form.contact_name,
        contact_title: form.contact_title,
        contact_phone: form.contact_phone,
        contact_email: form.contact_email,
      };
      if (listed !== undefined) body.directory_listed = listed;
      return app.request(`/api/v1/registrations/${id}`, json(token, 'PUT', body));
    };
    const out = await edit(false);
    expect(out.status).toBe(200);
    expect((await out.json()).data.directory_listed).toBe(false);
    expect((await list()).body.meta.total).toBe(0);
    expect((await app.request(`/api/v1/market/exhibitors/${id}`)).status).toBe(404);
    expect((await app.request(logo)).status).toBe(404);
    // An edit that does not say keeps the choice.
    expect((await edit(undefined)).status).toBe(200);
    expect((await list()).body.meta.total).toBe(0);
    // A wrong type is refused, nothing changed.
    const bad = await app.request(`/api/v1/registrations/${id}`, json(token, 'PUT', { directory_listed: 'no' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues.map((i: { path: string }) => i.path)).toContain('directory_listed');
    expect((await edit(true)).status).toBe(200);
    expect((await list()).body.meta.total).toBe(1);
    expect((await app.request(logo)).status).toBe(200);
  });

  it('404s: an unknown id, not a uuid; a logo no listed exhibitor names', async () => {
    await seedDemoExhibitors(db, app.storage, { count: 1 });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'or'1'='1"])
      expect((await app.request(`/api/v1/market/exhibitors/${encodeURIComponent(id)}`)).status).toBe(404);
    expect((await app.request('/api/v1/exhibitor-logos/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await app.request('/api/v1/exhibitor-logos/nope')).status).toBe(404);
    // A file that is not the listed exhibitor's logo (another upload of the same user) is not served.
    const { token } = await signIn(app, demoExhibitorEmail(0));
    const form = new FormData();
    const { PNG } = await import('./fixtures');
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'other.png');
    form.append('purpose', 'company_logo');
    const up = await app.request('/api/v1/files/upload', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    const { uid } = await up.json();
    expect((await app.request(`/api/v1/exhibitor-logos/${uid}`)).status).toBe(404);
  });

  it('seeding the demo exhibitors twice adds nothing the second time', async () => {
    expect(await seedDemoExhibitors(db, null)).toBe(6);
    expect(await seedDemoExhibitors(db, null)).toBe(0);
    expect((await list()).body.meta.total).toBe(6);
  });
});
