import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { badgeLinks, editions, events, orders } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { createBadgeLink } from '@server/badges/badges';
import { AGENCY, application, json, tokenMinter, uploadPhoto } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * Badges across editions (issue 21): a free-badge link belongs to the edition current when it
 * was made (an order's included link: the order's), and gives no badge of another edition
 * (`410 link_past_edition`, said on the check and the claim); a badge of a past edition shows
 * that edition's pick-up schedule and settings (`edition_slug` on the badge, `?edition=` on the
 * public schedule and edition).
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('badges across editions (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let olivia: string;
  let amy: string;
  const minter = tokenMinter();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(
      database,
      { ORGANISER_EMAILS: 'olivia@example.com', ...AGENCY },
      { devIdentityKeyFile: minter.keyFile },
    );
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
    ({ token: amy } = await signIn(app, 'amy@example.com', 'Amy'));
  });

  const call = (method: string, path: string, body?: unknown, token = olivia) =>
    app.request(`/api/v1${path}`, method === 'GET' ? bearer(token) : json(token, method, body ?? {}));
  const current = async () => (await database.db.select().from(editions).where(eq(editions.isCurrent, true)))[0]!;
  const link = () => createBadgeLink(database.db, { identity: 'VIP', expiresAt: new Date(Date.now() + 14 * DAY) });
  const check = (token: string, code: string) =>
    app.request(`/api/v1/demonstration/link?${new URLSearchParams({ code, type: 'vip' })}`, bearer(token));
  const claim = (token: string, code: string, body: unknown) =>
    app.request(`/api/v1/demonstration?code=${encodeURIComponent(code)}`, json(token, 'PUT', body));
  const slot = (placeEn: string, placeZh: string, firstDay: string) => ({
    first_day: firstDay,
    last_day: firstDay,
    opens_at: '10:00',
    closes_at: '16:00',
    place_en: placeEn,
    place_zh: placeZh,
  });
  const startNext = async () => {
    const res = await call('POST', '/admin/editions/next', {
      slug: 'tccf-next',
      name_en: 'TCCF next',
      name_zh: 'TCCF 下一屆',
      first_day: '2031-10-28',
    });
    expect(res.status).toBe(201);
    return current();
  };

  it('a link belongs to the edition current when made; once the next edition starts it gives no badge, and says why', async () => {
    const first = await current();
    const old = await link();
    expect(old.editionId).toBe(first.id);
    // A batch made in the back office too.
    const batch = await call('POST', '/admin/badge-links', {
      identity: 'VIP',
      count: 1,
      expires_at: new Date(Date.now() + 14 * DAY).toISOString(),
    });
    expect(batch.status).toBe(201);
    const batchCode = (await batch.json()).data.links[0].code as string;
    const [batchLink] = await database.db.select().from(badgeLinks).where(eq(badgeLinks.code, batchCode));
    expect(batchLink!.editionId).toBe(first.id);

    const next = await startNext();
    for (const code of [old.code, batchCode]) {
      const checked = await check(amy, code);
      expect(checked.status).toBe(410);
      const body = await checked.json();
      expect(body.code).toBe('link_past_edition');
      expect(body.message).toMatch(/past edition/);
    }
    const claimed = await claim(amy, old.code, application(await uploadPhoto(app, amy)));
    expect(claimed.status).toBe(410);
    expect(await claimed.json()).toMatchObject({ code: 'link_past_edition' });
    expect((await database.db.select().from(badgeLinks).where(eq(badgeLinks.code, old.code)))[0]!.usedAt).toBeNull();
    // This edition's link is valid; it gives this edition's free badge once that event is published.
    const fresh = await link();
    expect(fresh.editionId).toBe(next.id);
    expect((await check(amy, fresh.code)).status).toBe(200);
    expect((await claim(amy, fresh.code, application(await uploadPhoto(app, amy)))).status).toBe(404);
    await database.db
      .update(events)
      .set({ status: 'published' })
      .where(and(eq(events.editionId, next.id), eq(events.type, 'badge_free')));
    const ok = await claim(amy, fresh.code, application(await uploadPhoto(app, amy)));
    expect(ok.status).toBe(200);
    const [order] = await database.db
      .select({ editionId: events.editionId })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(eq(orders.registrationType, 'BADGE_FREE'));
    expect(order!.editionId).toBe(next.id);
  });

  it("a past edition's badge shows its own edition's pick-up schedule and settings, not the current one's", async () => {
    const first = await current();
    expect((await call('PUT', '/admin/pickup-schedule', [slot('Old hall', '舊館', '2030-10-28')])).status).toBe(200);
    expect(
      (await call('PATCH', `/admin/editions/${first.slug}`, { venue_map_url: 'https://old.example/map' })).status,
    ).toBe(200);
    const { code } = await link();
    expect((await claim(amy, code, application(await uploadPhoto(app, amy)))).status).toBe(200);

    const next = await startNext();
    expect((await call('PUT', '/admin/pickup-schedule', [slot('New hall', '新館', '2031-10-28')])).status).toBe(200);
    expect(
      (await call('PATCH', `/admin/editions/${next.slug}`, { venue_map_url: 'https://new.example/map' })).status,
    ).toBe(200);

    // One badge per edition (decision 068): the current edition's is none yet; the past one's is asked for by name.
    expect((await call('GET', '/demonstration', undefined, amy)).status).toBe(404);
    const badge = (await (await call('GET', `/demonstration?edition=${first.slug}`, undefined, amy)).json()).data;
    expect(badge.edition_slug).toBe(first.slug);
    const schedule = async (query: string) =>
      (await (await app.request(`/api/v1/pickup-schedule${query}`)).json()).data.map((s: { place: string }) => s.place);
    expect(await schedule(`?edition=${badge.edition_slug}`)).toEqual(['Old hall']);
    expect(await schedule(`?edition=${badge.edition_slug}&lang=zh-TW`)).toEqual(['舊館']);
    expect(await schedule('')).toEqual(['New hall']);
    const edition = async (query: string) => (await (await app.request(`/api/v1/edition${query}`)).json()).data;
    expect((await edition(`?edition=${first.slug}`)).venue_map_url).toBe('https://old.example/map');
    expect((await edition('')).venue_map_url).toBe('https://new.example/map');
    // An edition that does not exist, or a slug that cannot be one: 404, never a 500.
    for (const bad of ['no-such-edition', '%27%3B--', 'x'.repeat(300)]) {
      expect((await app.request(`/api/v1/pickup-schedule?edition=${bad}`)).status).toBe(404);
      expect((await app.request(`/api/v1/edition?edition=${bad}`)).status).toBe(404);
    }
  });
});
