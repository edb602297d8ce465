import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { eq } from 'drizzle-orm';
import { editions, pickupSlots } from '@server/db/schema';
import { seed, seedEvents, seedPickupSlots, VENUE_ADDRESS } from '@server/db/seed';
import { halfWidthSlips } from '@i18n/punctuation';
import { createTestApp, DATABASES, openTestDatabase, type TestApp, type TestDatabase } from './helpers';

type WireSlot = {
  first_day: string;
  last_day: string;
  opens_at: string;
  closes_at: string;
  place: string;
  place_en: string;
  place_zh: string;
};

/** The Taipei calendar day of an instant, `YYYY-MM-DD`. */
const taipeiDay = (value: Date | string) =>
  new Date(new Date(value).getTime() + 8 * 3600_000).toISOString().slice(0, 10);

describe.each(DATABASES)('badge pick-up schedule (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  const now = new Date('2026-11-23T04:00:00Z');

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db, now);
    app = await createTestApp(database);
  });

  const schedule = async (query = '', headers: Record<string, string> = {}) => {
    const res = await app.request(`/api/v1/pickup-schedule${query}`, { headers });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: WireSlot[] }).data;
  };

  it('answers the seeded schedule publicly, in order, inside the days of the fair', async () => {
    const slots = await schedule();
    expect(slots.map((s) => [s.first_day, s.last_day, s.opens_at, s.closes_at, s.place])).toEqual([
      ['2026-12-14', '2026-12-16', '09:30', '17:00', 'Service station'],
      ['2026-12-17', '2026-12-17', '09:00', '17:00', 'Business meeting centre'],
      ['2026-12-18', '2026-12-20', '09:30', '17:00', 'Business meeting centre'],
      ['2026-12-21', '2026-12-22', '09:30', '17:00', 'Service station'],
    ]);
    // The fair (the badge events) runs over exactly these days.
    const fair = seedEvents(now).find((e) => e.slug === 'badge-professional')!;
    expect(taipeiDay(fair.startTime)).toBe(slots[0]!.first_day);
    expect(taipeiDay(fair.endAt)).toBe(slots.at(-1)!.last_day);
  });

  it('names the place in the language asked for, and keeps both', async () => {
    const byQuery = await schedule('?lang=zh-TW');
    expect(byQuery.map((s) => s.place)).toEqual(['服務台', '商洽中心', '商洽中心', '服務台']);
    const byHeader = await schedule('', { 'accept-language': 'zh-TW,zh;q=0.9' });
    expect(byHeader[0]).toMatchObject({ place: '服務台', place_en: 'Service station', place_zh: '服務台' });
    expect((await schedule('?lang=en'))[0]!.place).toBe('Service station');
  });

  it('re-dates the seeded slots when seeded again, without duplicating them or touching other slots', async () => {
    await seed(db, now);
    // A slot the seed did not make, in the same (current) edition.
    const [edition] = await db.select().from(editions).where(eq(editions.isCurrent, true));
    await db.insert(pickupSlots).values({
      editionId: edition!.id,
      firstDay: '2026-12-25',
      lastDay: '2026-12-25',
      opensAt: '10:00',
      closesAt: '12:00',
      placeEn: 'Press desk',
      placeZh: '媒體服務台',
    });
    expect(await schedule()).toHaveLength(5);
    await seed(db, new Date('2026-11-30T04:00:00Z'));
    const slots = await schedule();
    expect(slots.map((s) => s.first_day)).toEqual([
      '2026-12-21',
      '2026-12-24',
      '2026-12-25',
      '2026-12-25',
      '2026-12-28',
    ]);
    expect(slots.find((s) => s.place_en === 'Press desk')).toMatchObject({
      first_day: '2026-12-25',
      opens_at: '10:00',
    });
  });

  it('answers an empty list when the edition has no schedule yet', async () => {
    await db.delete(pickupSlots);
    expect(await schedule()).toEqual([]);
  });
});

describe.each(DATABASES)('event view: address and image (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database);
  });
  afterAll(() => database.close());

  const event = async (slug: string, lang = 'en') =>
    ((await (await app.request(`/api/v1/events/${slug}?lang=${lang}`)).json()) as { data: Record<string, unknown> })
      .data;

  it('gives events held at the venue its postal address in the language asked for', async () => {
    expect((await event('opening-forum')).address).toEqual({
      street_address: 'No. 2, Jingmao 2nd Rd.',
      address_locality: 'Nangang District',
      address_region: 'Taipei City',
      postal_code: '115',
      address_country: 'TW',
    });
    expect((await event('opening-forum', 'zh-TW')).address).toMatchObject({
      street_address: '經貿二路 2 號',
      address_locality: '南港區',
      address_region: '臺北市',
    });
  });

  it('gives online events no address', async () => {
    expect((await event('online-masterclass')).address).toBeNull();
    expect((await event('market-online')).address).toBeNull();
  });

  it('gives every event an image: its own, or the conference image', async () => {
    expect((await event('market-earlybird')).image).toBe('/images/events/market.jpg');
    expect((await event('opening-forum')).image).toBe('/images/events/conference.jpg');
    const list = (await (await app.request('/api/v1/events')).json()) as { data: { image: string }[] };
    expect(list.data.every((e) => /^\/images\/events\/[a-z]+\.jpg$/.test(e.image))).toBe(true);
  });

  it('writes seeded Chinese names with full-width brackets', async () => {
    expect((await event('pitching-project', 'zh-TW')).name).toBe('提案大會：專案提案（Project to Screen）');
  });

  it('seeds Chinese texts with full-width brackets and colons (glossary)', () => {
    const texts = [
      ...seedEvents().flatMap((e) => [e.nameZh, e.descriptionZh ?? '', e.locationZh ?? '']),
      ...seedPickupSlots().map((s) => s.placeZh),
      ...Object.values(VENUE_ADDRESS.zh),
    ];
    for (const text of texts) expect(halfWidthSlips(text), text).toEqual([]);
  });
});
