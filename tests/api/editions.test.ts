import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { editionChanges, editions, events, organisers, pickupSlots } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { AGENCY, json, tokenMinter } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * Editions (issue 21, decisions 049 and 050): the edition's settings with their history, the
 * public edition, "start the next edition", the pick-up schedule replaced, the `edition` right.
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('editions (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let olivia: string;
  let victor: string;
  const minter = tokenMinter();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    await db.insert(organisers).values({ email: 'victor@example.com', grantedBy: 'test', role: 'viewer' });
    app = await createTestApp(
      database,
      { ORGANISER_EMAILS: 'olivia@example.com', BANK_NAME: 'Env Bank', ...AGENCY },
      { devIdentityKeyFile: minter.keyFile },
    );
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
    ({ token: victor } = await signIn(app, 'victor@example.com', 'Victor'));
  });

  const call = (method: string, path: string, body?: unknown, token = olivia) =>
    app.request(
      `/api/v1${path}`,
      method === 'GET' ? { headers: { authorization: `Bearer ${token}` } } : json(token, method, body ?? {}),
    );
  const current = async () => (await db.select().from(editions).where(eq(editions.isCurrent, true)))[0]!;
  async function refused(res: Response, path: string, code?: string) {
    expect(res.status).toBe(400);
    const error = await res.json();
    expect(error.code).toBe('validation_failed');
    const issue = error.issues.find((i: { path: string }) => i.path === path);
    expect(issue, JSON.stringify(error.issues)).toBeTruthy();
    if (code) expect(issue.code).toBe(code);
  }
  const slot = (extra: Record<string, unknown> = {}) => ({
    first_day: '2027-10-27',
    last_day: '2027-10-28',
    opens_at: '09:00',
    closes_at: '17:30',
    place_en: 'Service desk, Hall 2',
    place_zh: '二館服務台',
    ...extra,
  });

  it('answers the current edition to the public, its empty settings as the configuration defaults', async () => {
    const res = await app.request('/api/v1/edition?lang=zh-TW');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.slug).toBe((await current()).slug);
    expect(data.time_zone).toBe('Asia/Taipei');
    expect(data.transfer.name).toBe('臺灣銀行 南港分行（範例帳戶）');
    expect(data.badge_rights_image).toBe('/badge-rights.svg');
    const en = (await (await app.request('/api/v1/edition?lang=en')).json()).data;
    expect(en.transfer.name).toBe('Env Bank');
  });

  it('saves settings with their history (who, what before and after); the public edition shows them', async () => {
    const slug = (await current()).slug;
    const res = await call('PATCH', `/admin/editions/${slug}`, {
      bank_name: 'Mega Bank, Nangang Branch',
      bank_account_number: '123-45-678901',
      venue_map_url: 'https://tccf.example/map',
      contact_email: 'info@tccf.example',
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.bank_name).toBe('Mega Bank, Nangang Branch');
    expect(data.changes[0].changed_by).toBe('olivia@example.com');
    expect(data.changes[0].changes.bank_account_number).toEqual({ before: null, after: '123-45-678901' });
    const pub = (await (await app.request('/api/v1/edition?lang=en')).json()).data;
    expect(pub.transfer.name).toBe('Mega Bank, Nangang Branch');
    expect(pub.transfer.account_number).toBe('123-45-678901');
    expect(pub.venue_map_url).toBe('https://tccf.example/map');
    expect(pub.contact_email).toBe('info@tccf.example');
    // Cleared: back to the default.
    await call('PATCH', `/admin/editions/${slug}`, { bank_name: '' });
    expect((await (await app.request('/api/v1/edition?lang=en')).json()).data.transfer.name).toBe('Env Bank');
    // Nothing changed: no history row.
    const rows = (await db.select().from(editionChanges)).length;
    await call('PATCH', `/admin/editions/${slug}`, { contact_email: 'info@tccf.example' });
    expect((await db.select().from(editionChanges)).length).toBe(rows);
  });

  it('refuses bad settings naming the field, writing nothing', async () => {
    const slug = (await current()).slug;
    const before = await current();
    await refused(
      await call('PATCH', `/admin/editions/${slug}`, { venue_map_url: 'javascript:alert(1)' }),
      'venue_map_url',
    );
    await refused(await call('PATCH', `/admin/editions/${slug}`, { contact_email: 'not an e-mail' }), 'contact_email');
    await refused(await call('PATCH', `/admin/editions/${slug}`, { time_zone: 'Mars/Olympus' }), 'time_zone');
    await refused(await call('PATCH', `/admin/editions/${slug}`, { name_en: '' }), 'name_en');
    await refused(await call('PATCH', `/admin/editions/${slug}`, { bank_name: 'x'.repeat(201) }), 'bank_name');
    await refused(
      await call('PATCH', `/admin/editions/${slug}`, { badge_rights_file_id: '00000000-0000-4000-8000-000000000000' }),
      'badge_rights_file_id',
      'invalid_image',
    );
    await refused(await call('PATCH', `/admin/editions/${slug}`, { surprise: 1 }), 'surprise');
    expect(await current()).toEqual(before);
    const stale = await call('PATCH', `/admin/editions/${slug}`, {
      bank_code: '017',
      expected_updated_at: new Date(0).toISOString(),
    });
    expect(stale.status).toBe(409);
    expect((await stale.json()).code).toBe('edition_changed');
  });

  it('starts the next edition: events copied as drafts, dates shifted alike, slugs unique, settings copied', async () => {
    const previous = await current();
    await call('PATCH', `/admin/editions/${previous.slug}`, { bank_code: '017', contact_email: 'info@tccf.example' });
    const source = await db.select().from(events).where(eq(events.editionId, previous.id));
    const copied = source.filter((e) => e.status !== 'archived');
    const earliest = copied.reduce((a, b) => (a.startTime <= b.startTime ? a : b));
    const res = await call('POST', '/admin/editions/next', {
      slug: 'tccf-next',
      name_en: 'TCCF next',
      name_zh: 'TCCF 下一屆',
      first_day: '2030-10-28',
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data.is_current).toBe(true);
    expect(data.bank_code).toBe('017');
    expect(data.contact_email).toBe('info@tccf.example');
    const created = data.changes.find((c: { action: string }) => c.action === 'created');
    expect(created.changes.copied_from).toEqual({ before: previous.slug, after: 'tccf-next' });
    const next = await current();
    expect(next.slug).toBe('tccf-next');
    const copies = await db.select().from(events).where(eq(events.editionId, next.id));
    expect(copies).toHaveLength(copied.length);
    expect(copies.every((e) => e.status === 'draft' && e.seatsTaken === 0)).toBe(true);
    const all = await db.select({ slug: events.slug }).from(events);
    expect(new Set(all.map((e) => e.slug)).size).toBe(all.length);
    expect(copies.every((e) => e.slug.endsWith('-2030') || /-2030-\d+$/.test(e.slug))).toBe(true);
    // The earliest starts on the first day (Taipei), every date moved by the same offset.
    const first = copies.reduce((a, b) => (a.startTime <= b.startTime ? a : b));
    const taipeiDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(first.startTime);
    expect(taipeiDay).toBe('2030-10-28');
    const offset = first.startTime.getTime() - earliest.startTime.getTime();
    expect(offset % DAY).toBe(0);
    for (const copy of copies) {
      const original = copied.find((e) => e.nameEn === copy.nameEn && e.type === copy.type)!;
      expect(copy.endAt.getTime() - original.endAt.getTime()).toBe(offset);
      expect(copy.registerStartAt.getTime() - original.registerStartAt.getTime()).toBe(offset);
      expect(copy.registerEndAt.getTime() - original.registerEndAt.getTime()).toBe(offset);
    }
    // The schedule moved with them.
    const slots = await db.select().from(pickupSlots).where(eq(pickupSlots.editionId, next.id));
    expect(slots.length).toBeGreaterThan(0);
    // Drafts: the public list is empty until they are published; the old edition's are gone from it.
    expect((await (await app.request('/api/v1/events')).json()).data).toEqual([]);
    expect((await app.request(`/api/v1/events/${copies[0]!.slug}`)).status).toBe(404);
    // A second next edition under a slug used before is refused.
    await refused(
      await call('POST', '/admin/editions/next', {
        slug: 'tccf-next',
        name_en: 'x',
        name_zh: 'x',
        first_day: '2031-10-28',
      }),
      'slug',
      'slug_taken',
    );
    await refused(
      await call('POST', '/admin/editions/next', {
        slug: 'tccf-x',
        name_en: 'x',
        name_zh: 'x',
        first_day: '2031-02-30',
      }),
      'first_day',
    );
    // Going back: the previous edition current again lists its events.
    const back = await call('POST', `/admin/editions/${previous.slug}/make-current`);
    expect(back.status).toBe(200);
    expect((await (await app.request('/api/v1/events')).json()).data.length).toBeGreaterThan(0);
  });

  it('a new event goes into the current edition', async () => {
    const now = Date.now();
    const res = await call('POST', '/admin/events', {
      slug: 'film-forum-new',
      type: 'event_general',
      name_en: 'Film forum',
      name_zh: '影視論壇',
      start_time: new Date(now + 10 * DAY).toISOString(),
      end_at: new Date(now + 10 * DAY + 3_600_000).toISOString(),
      register_start_at: new Date(now - DAY).toISOString(),
      register_end_at: new Date(now + 9 * DAY).toISOString(),
    });
    expect(res.status).toBe(201);
    const [row] = await db.select().from(events).where(eq(events.slug, 'film-forum-new'));
    expect(row!.editionId).toBe((await current()).id);
  });

  it('replaces the pick-up schedule, which the public GET then answers', async () => {
    const res = await call('PUT', '/admin/pickup-schedule', [
      slot(),
      slot({ first_day: '2027-10-29', last_day: '2027-10-29' }),
    ]);
    expect(res.status).toBe(200);
    const shown = (await (await app.request('/api/v1/pickup-schedule?lang=zh-TW')).json()).data;
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatchObject({ first_day: '2027-10-27', opens_at: '09:00', place: '二館服務台' });
    // The GET's shape goes back in as it is (place ignored).
    expect((await call('PUT', '/admin/pickup-schedule', shown)).status).toBe(200);
    const history = await db.select().from(editionChanges).where(eq(editionChanges.action, 'schedule_replaced'));
    expect(history[0]!.changedBy).toBe('olivia@example.com');
    expect((await call('PUT', '/admin/pickup-schedule', [])).status).toBe(200);
    expect((await (await app.request('/api/v1/pickup-schedule')).json()).data).toEqual([]);
  });

  it('refuses a bad schedule naming the row and field, keeping the one there', async () => {
    await call('PUT', '/admin/pickup-schedule', [slot()]);
    const keep = await db.select().from(pickupSlots);
    await refused(
      await call('PUT', '/admin/pickup-schedule', [slot(), slot({ closes_at: '08:00' })]),
      '1.closes_at',
      'closes_before_opens',
    );
    await refused(
      await call('PUT', '/admin/pickup-schedule', [slot({ last_day: '2027-10-01' })]),
      '0.last_day',
      'last_day_before_first',
    );
    await refused(await call('PUT', '/admin/pickup-schedule', [slot({ opens_at: '25:00' })]), '0.opens_at');
    await refused(await call('PUT', '/admin/pickup-schedule', [slot({ first_day: '2027-13-01' })]), '0.first_day');
    await refused(await call('PUT', '/admin/pickup-schedule', [slot({ place_zh: '' })]), '0.place_zh');
    const notList = await call('PUT', '/admin/pickup-schedule', { first_day: '2027-10-27' });
    expect(notList.status).toBe(400);
    expect(await db.select().from(pickupSlots)).toEqual(keep);
  });

  it('creates the first edition of an empty portal, current, with the configuration defaults copied', async () => {
    await database.reset();
    const res = await call('POST', '/admin/editions', {
      slug: 'tccf-2027',
      name_en: 'TCCF 2027',
      name_zh: 'TCCF 2027',
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data.is_current).toBe(true);
    expect(data.bank_name).toBe('Env Bank');
    await refused(
      await call('POST', '/admin/editions', { slug: 'tccf-2027', name_en: 'x', name_zh: 'x' }),
      'slug',
      'slug_taken',
    );
    await refused(await call('POST', '/admin/editions', { slug: 'Not A Slug', name_en: 'x', name_zh: 'x' }), 'slug');
    const list = (await (await call('GET', '/admin/editions')).json()).data;
    expect(list).toHaveLength(1);
  });

  it('an empty portal answers no edition and no events, never a 500', async () => {
    await database.reset();
    expect((await app.request('/api/v1/edition')).status).toBe(404);
    expect((await (await app.request('/api/v1/events')).json()).data).toEqual([]);
    expect((await (await app.request('/api/v1/pickup-schedule')).json()).data).toEqual([]);
    const next = await call('POST', '/admin/editions/next', {
      slug: 'tccf-x',
      name_en: 'x',
      name_zh: 'x',
      first_day: '2031-10-28',
    });
    expect(next.status).toBe(409);
    expect((await call('PUT', '/admin/pickup-schedule', [slot()])).status).toBe(409);
  });

  it('needs the edition right to change: a viewer reads the editions (200) and gets 403 on every change', async () => {
    const slug = (await current()).slug;
    for (const path of ['/admin/editions', `/admin/editions/${slug}`])
      expect((await call('GET', path, undefined, victor)).status, path).toBe(200);
    const attempts: [string, string, unknown?][] = [
      ['POST', '/admin/editions', { slug: 'tccf-v', name_en: 'x', name_zh: 'x' }],
      ['POST', '/admin/editions/next', { slug: 'tccf-v', name_en: 'x', name_zh: 'x', first_day: '2031-10-28' }],
      ['PATCH', `/admin/editions/${slug}`, { bank_code: '999' }],
      ['POST', `/admin/editions/${slug}/make-current`],
      ['PUT', '/admin/pickup-schedule', [slot()]],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, body, victor);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const visitor = await app.request('/api/v1/admin/editions');
    expect(visitor.status).toBe(401);
  });
});
