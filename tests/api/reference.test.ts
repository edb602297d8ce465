import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, type TestApp, type TestDatabase } from './helpers';

type Json = Record<string, unknown> & { data: unknown };

/** Reference data and enumerations (spec §3): public, cached a day, localised by ?lang=. */
describe('reference API', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp(database);
  });
  afterAll(() => database.close());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await app.request(`/api/v1/reference${path}`, { headers });
    return { res, status: res.status, body: (await res.json()) as Json };
  };

  it('lists the countries without sign-in, cached a day, names in the asked language', async () => {
    const { res, status, body } = await get('/countries?lang=zh-TW');
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const data = body.data as Record<string, unknown>[];
    expect(data.length).toBeGreaterThanOrEqual(240);
    const taiwan = data.find((c) => c.iso === 'TWN');
    expect(taiwan).toEqual({
      name: '台灣',
      name_en: 'Taiwan',
      name_zh_tw: '台灣',
      slug: 'taiwan',
      iso: 'TWN',
      iso2: 'TW',
      prefix: '+886',
      currency: 'TWD',
      region: 'Asia',
      subregion: 'Eastern Asia',
      latlng: [23.5, 121],
    });
    const names = data.map((c) => c.name as string);
    expect(names).toEqual([...names].sort(new Intl.Collator('zh-TW').compare));

    const english = (await get('/countries?lang=en')).body.data as Record<string, unknown>[];
    expect(english.find((c) => c.iso === 'TWN')?.name).toBe('Taiwan');
    expect(english[0]?.name).toBe('Afghanistan');
    // Without ?lang=, the browser's language.
    const byHeader = (await get('/countries', { 'accept-language': 'zh-TW,zh;q=0.9' })).body.data as {
      iso: string;
      name: string;
    }[];
    expect(byHeader.find((c) => c.iso === 'DEU')?.name).toBe('德國');
  });

  it('answers one country by slug, 404 when unknown', async () => {
    const { status, body } = await get('/countries/nigeria?lang=zh-TW');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: '奈及利亞', name_en: 'Nigeria', iso: 'NGA', iso2: 'NG', prefix: '+234' });
    const missing = await get('/countries/atlantis');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', message: 'Country not found' });
  });

  it('lists the Nigerian states', async () => {
    const { res, status, body } = await get('/states');
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const data = body.data as Record<string, unknown>[];
    expect(data).toHaveLength(37);
    expect(data.find((s) => s.slug === 'lagos')).toEqual({
      kind: 'state',
      name: 'Lagos',
      slug: 'lagos',
      state_slug: 'lagos',
      country: 'NGA',
    });
  });

  it('lists local areas filtered by state and name; a bad filter is a 400 with a message', async () => {
    const all = (await get('/cities')).body.data as unknown[];
    expect(all).toHaveLength(774);
    const lagos = (await get('/cities?state=lagos')).body.data as { state: string }[];
    expect(lagos).toHaveLength(20);
    expect(lagos.every((c) => c.state === 'lagos')).toBe(true);
    const ikeja = await get('/cities?state=lagos&name=IKE');
    expect(ikeja.body.data).toEqual([
      { kind: 'city', name: 'Ikeja', slug: 'lagos-ikeja', city_slug: 'ikeja', state: 'lagos', country: 'NGA' },
    ]);
    // Empty parameters are no filter.
    expect(((await get('/cities?state=&name=')).body.data as unknown[]).length).toBe(774);

    const unknown = await get('/cities?state=atlantis');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'validation_failed' });
    expect(unknown.body.message).toMatch(/^state: Unknown state "atlantis"/);
    const long = await get(`/cities?name=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/^name: /);
    const extra = await get('/cities?town=ikeja');
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/^town: /);
  });

  it('answers a state or a local area by slug, 404 otherwise', async () => {
    expect((await get('/places/oyo')).body.data).toMatchObject({ kind: 'state', name: 'Oyo' });
    expect((await get('/places/oyo-surulere')).body.data).toMatchObject({
      kind: 'city',
      name: 'Surulere',
      state: 'oyo',
    });
    const missing = await get('/places/surulere');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', message: 'Place not found' });
  });

  it('answers every enumeration with ids and labels in the asked language', async () => {
    const { res, status, body } = await get('/enumerations?lang=zh-TW');
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const data = body.data as Record<string, { id: number | string; key: string; label: string }[]>;
    expect(Object.keys(data).sort()).toEqual(
      ['business_type', 'company_type', 'participation', 'story_genre', 'work_category', 'work_genre'].sort(),
    );
    expect(data.participation).toHaveLength(5);
    expect(data.company_type).toHaveLength(8);
    expect(data.business_type).toHaveLength(14);
    expect(data.story_genre).toHaveLength(27);
    expect(data.work_category).toHaveLength(16);
    expect(data.participation![0]).toEqual({ id: 1, key: 'enum.participation.1', label: '展館主辦單位' });
    expect(data.work_genre).toEqual([
      { id: 'piece', key: 'enum.workGenre.piece', label: '完成作品' },
      { id: 'project', key: 'enum.workGenre.project', label: '開發中企劃' },
    ]);
    expect(body.meta).toEqual({ locale: 'zh-TW' });
    const english = (await get('/enumerations?lang=en')).body.data as typeof data;
    expect(english.story_genre![26]).toEqual({ id: 27, key: 'enum.storyGenre.27', label: 'Other' });
    expect(english.company_type![1]!.label).toBe('OTT platform');
  });
});
