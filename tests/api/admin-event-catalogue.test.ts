import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { eventChanges, events, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { deleteUnattachedUploads } from '@server/files/files';
import { PNG as PNG_BYTES } from 'pngjs';
import { AGENCY, getJson, giveBadges, json, PNG, tokenMinter, upload } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * The event catalogue (issue 21, decision 054): events created, changed, duplicated, published,
 * unpublished and archived by organisers; drafts invisible to the public API; every refusal a
 * field's issue or a specific code; organisers only.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe.each(DATABASES)('back office: the event catalogue (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let olivia: string;
  const minter = tokenMinter();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(
      database,
      { ORGANISER_EMAILS: 'olivia@example.com', ...AGENCY },
      { devIdentityKeyFile: minter.keyFile },
    );
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
  });

  const now = Date.now();
  const iso = (offset: number) => new Date(now + offset).toISOString();
  const forum = (extra: Record<string, unknown> = {}) => ({
    slug: 'film-forum-2027',
    type: 'event_general',
    name_en: 'Film forum',
    name_zh: '影視論壇',
    description_en: 'Talks about film.\n\nSee [the programme](https://tccf.example/programme).',
    description_zh: '影視講座。',
    location_en: 'Room 401',
    location_zh: '401 會議室',
    start_time: iso(10 * DAY),
    end_at: iso(10 * DAY + 2 * HOUR),
    register_start_at: iso(-DAY),
    register_end_at: iso(9 * DAY),
    form_modify_expires_at: null,
    price_cents_twd: 50_000,
    price_cents_usd: 2_000,
    capacity: 80,
    ...extra,
  });
  const post = (path: string, body: unknown, token = olivia) =>
    app.request(`/api/v1/admin/events${path}`, json(token, 'POST', body));
  const patch = (slug: string, body: unknown, token = olivia) =>
    app.request(`/api/v1/admin/events/${slug}`, json(token, 'PATCH', body));
  const row = async (slug: string) => (await db.select().from(events).where(eq(events.slug, slug)))[0];
  const publicSlugs = async (locale = 'en') =>
    ((await (await app.request(`/api/v1/events?lang=${locale}`)).json()).data as { slug: string }[]).map((e) => e.slug);
  /** Refused with `400 validation_failed` and this field's issue (and its code). */
  async function refused(res: Response, path: string, code?: string) {
    expect(res.status).toBe(400);
    const error = await res.json();
    expect(error.code).toBe('validation_failed');
    const issue = error.issues.find((i: { path: string }) => i.path === path);
    expect(issue, JSON.stringify(error.issues)).toBeTruthy();
    if (code) expect(issue.code).toBe(code);
  }

  it('creates a draft from the public fields: invisible to the public API until published, then listed', async () => {
    const res = await post('', forum());
    expect(res.status).toBe(201);
    const created = (await res.json()).data;
    expect(created).toMatchObject({
      slug: 'film-forum-2027',
      status: 'draft',
      type: 'event_general',
      name_en: 'Film forum',
      capacity: 80,
      seats_taken: 0,
      price_cents_twd: 50_000,
    });
    expect(await publicSlugs()).not.toContain('film-forum-2027');
    expect((await app.request('/api/v1/events/film-forum-2027')).status).toBe(404);
    // Nobody can register for a draft.
    const [holder] = await db.insert(users).values({ subject: 'h-1', email: 'h-1@example.com' }).returning();
    await giveBadges(db, [holder!]);
    const token = await minter.token('h-1', 'h-1@example.com');
    const early = await app.request('/api/v1/orders?event=film-forum-2027', json(token, 'POST', { agree_terms: true }));
    expect(early.status).toBe(404);

    const published = await post('/film-forum-2027/publish', {});
    expect(published.status).toBe(200);
    expect((await published.json()).data.status).toBe('published');
    expect(await publicSlugs()).toContain('film-forum-2027');
    const detail = await (await app.request('/api/v1/events/film-forum-2027?lang=zh-TW')).json();
    expect(detail.data).toMatchObject({ name: '影視論壇', location: '401 會議室', capacity: 80, seats_left: 80 });
    const registered = await app.request(
      '/api/v1/orders?event=film-forum-2027',
      json(token, 'POST', { agree_terms: true }),
    );
    expect(registered.status).toBe(201);

    // Back to draft is refused while a registration holds the event.
    const unpublish = await post('/film-forum-2027/unpublish', {});
    expect(unpublish.status).toBe(409);
    expect(await unpublish.json()).toMatchObject({ code: 'event_has_orders' });

    const history = (await getJson(app, '/api/v1/admin/events/film-forum-2027', olivia)).body.data.changes;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['published', 'created']);
    expect(history[0]).toMatchObject({ changed_by: 'olivia@example.com', changes: { status: { after: 'published' } } });
  });

  it('created published when asked; the admin list shows drafts and statuses', async () => {
    expect((await post('', forum({ published: true }))).status).toBe(201);
    expect(await publicSlugs('zh-TW')).toContain('film-forum-2027');
    expect((await post('', forum({ slug: 'quiet-draft' }))).status).toBe(201);
    const list = (await getJson(app, '/api/v1/admin/events', olivia)).body.data as { slug: string; status: string }[];
    expect(list.find((e) => e.slug === 'quiet-draft')?.status).toBe('draft');
    expect(list.find((e) => e.slug === 'film-forum-2027')?.status).toBe('published');
    expect(list.find((e) => e.slug === 'opening-forum')?.status).toBe('published');
  });

  it('unpublish takes a published event without orders back to draft; archive takes it out of the lists for good', async () => {
    await post('', forum({ published: true }));
    expect((await post('/film-forum-2027/unpublish', {})).status).toBe(200);
    expect(await publicSlugs()).not.toContain('film-forum-2027');
    expect((await post('/film-forum-2027/publish', {})).status).toBe(200);

    const archived = await post('/film-forum-2027/archive', {});
    expect(archived.status).toBe(200);
    expect(await publicSlugs()).not.toContain('film-forum-2027');
    // The archived event's page stays for its registrants; it takes no more registrations.
    expect((await app.request('/api/v1/events/film-forum-2027')).status).toBe(200);
    for (const change of ['publish', 'unpublish', 'archive']) {
      const again = await post(`/film-forum-2027/${change}`, {});
      expect(again.status, change).toBe(409);
      expect(await again.json()).toMatchObject({ code: 'event_status_conflict' });
    }
    // Its slug is never given out again.
    await refused(await post('', forum()), 'slug', 'slug_taken');
    expect((await post('/no-such-event/publish', {})).status).toBe(404);
  });

  it('duplicates an event as a draft under a new slug, names optional, seats not copied', async () => {
    const res = await post('/opening-forum/duplicate', { slug: 'opening-forum-2027', name_en: 'Opening forum 2027' });
    expect(res.status).toBe(201);
    const copy = (await res.json()).data;
    const source = (await row('opening-forum'))!;
    expect(copy).toMatchObject({
      slug: 'opening-forum-2027',
      status: 'draft',
      name_en: 'Opening forum 2027',
      name_zh: source.nameZh,
      capacity: source.capacity,
      seats_taken: 0,
      price_cents_twd: source.priceCentsTwd,
    });
    const history = (await getJson(app, '/api/v1/admin/events/opening-forum-2027', olivia)).body.data.changes;
    expect(history).toMatchObject([
      { action: 'duplicated', changes: { slug: { before: 'opening-forum', after: 'opening-forum-2027' } } },
    ]);
    await refused(await post('/opening-forum/duplicate', { slug: 'opening-forum' }), 'slug', 'slug_taken');
    await refused(await post('/opening-forum/duplicate', { slug: 'Bad Slug' }), 'slug', 'slug_format');
    expect((await post('/nope/duplicate', { slug: 'nope-2' })).status).toBe(404);
  });

  it('edits any field, with who changed what in the history; the type of a published event is fixed', async () => {
    await post('', forum());
    const changed = await patch('film-forum-2027', {
      name_en: 'Film and series forum',
      description_zh: '影視與影集講座。',
      address_en: {
        street_address: '1 Main St.',
        address_locality: 'Xinyi',
        address_region: 'Taipei',
        postal_code: '110',
        address_country: 'TW',
      },
      type: 'event_audit',
    });
    expect(changed.status).toBe(200);
    const body = (await changed.json()).data;
    expect(body).toMatchObject({ type: 'event_audit', name_en: 'Film and series forum' });
    expect(Object.keys(body.changed).sort()).toEqual(['address_en', 'description_zh', 'name_en', 'type']);
    const [last] = await db
      .select()
      .from(eventChanges)
      .where(eq(eventChanges.eventId, (await row('film-forum-2027'))!.id));
    expect(last).toMatchObject({ changedBy: 'olivia@example.com' });

    await post('/film-forum-2027/publish', {});
    await refused(await patch('film-forum-2027', { type: 'event_general' }), 'type', 'type_fixed');
    // The seeded events are published: their type is fixed too.
    await refused(await patch('opening-forum', { type: 'event_audit' }), 'type', 'type_fixed');
    // The public view shows its own address.
    expect((await (await app.request('/api/v1/events/film-forum-2027')).json()).data.address).toMatchObject({
      street_address: '1 Main St.',
    });
  });

  it('kind rules: approval, included badges, address, live-stream link only where the kind has them', async () => {
    // An audit event always waits for approval: it has no choice to make.
    await refused(
      await post('', forum({ type: 'event_audit', requires_approval: true })),
      'requires_approval',
      'approval_not_offered',
    );
    await refused(await post('', forum({ included_badges: 2 })), 'included_badges', 'included_badges_not_offered');
    await refused(
      await post('', forum({ live_stream_url: 'https://live.example/x' })),
      'live_stream_url',
      'live_link_not_online',
    );
    // Market includes badges; the Market online event takes no seats.
    const market = await post(
      '',
      forum({ slug: 'market-2027', type: 'market_earlybird', included_badges: 6, requires_approval: true }),
    );
    expect(market.status).toBe(201);
    expect((await market.json()).data).toMatchObject({ included_badges: 6, requires_approval: true });
    // Online: a live-stream link, no address.
    const online = forum({
      slug: 'online-talk-2027',
      type: 'event_online',
      address_zh: {
        street_address: '一路',
        address_locality: '',
        address_region: '',
        postal_code: '',
        address_country: 'TW',
      },
    });
    await refused(await post('', online), 'address_zh', 'address_not_venue');
    expect((await post('', { ...online, address_zh: null })).status).toBe(201);
    await post('/online-talk-2027/publish', {});
    const live = async () => (await (await app.request('/api/v1/events/online-talk-2027')).json()).data.live_stream_url;
    expect(await live()).toBeNull();
    expect((await patch('online-talk-2027', { live_stream_url: 'https://live.example/talk' })).status).toBe(200);
    expect(await live()).toBe('https://live.example/talk');
    await refused(await patch('online-talk-2027', { live_stream_url: 'http://live.example/talk' }), 'live_stream_url');
    await refused(await patch('online-talk-2027', { live_stream_url: 'javascript:alert(1)' }), 'live_stream_url');
    // A free badge stays free.
    await refused(
      await post('', forum({ slug: 'free-2027', type: 'badge_free', capacity: null })),
      'price_cents_twd',
      'free_event',
    );
  });

  it('refuses bad input on every field with the field named, and writes nothing', async () => {
    const before = (await db.select().from(events)).length;
    await refused(await post('', forum({ slug: 'No Spaces' })), 'slug', 'slug_format');
    await refused(await post('', forum({ slug: 'ab' })), 'slug', 'slug_format');
    await refused(await post('', forum({ slug: 'opening-forum' })), 'slug', 'slug_taken');
    await refused(await post('', forum({ type: 'party' })), 'type');
    await refused(await post('', forum({ name_en: '  ' })), 'name_en', 'required');
    await refused(await post('', forum({ name_zh: 'x'.repeat(201) })), 'name_zh');
    await refused(await post('', forum({ description_en: 5 })), 'description_en');
    await refused(await post('', forum({ start_time: 'tomorrow' })), 'start_time');
    await refused(await post('', forum({ end_at: iso(DAY) })), 'end_at', 'end_before_start');
    await refused(await post('', forum({ register_end_at: iso(-2 * DAY) })), 'register_end_at', 'window_order');
    await refused(await post('', forum({ price_cents_twd: 50_050 })), 'price_cents_twd', 'twd_whole_dollars');
    await refused(await post('', forum({ price_cents_twd: 0 })), 'price_cents_usd', 'usd_without_twd');
    await refused(await post('', forum({ capacity: -3 })), 'capacity');
    await refused(await post('', forum({ type: 'market_online', capacity: 10 })), 'capacity', 'capacity_not_counted');
    await refused(await post('', forum({ published: 'yes' })), 'published');
    await refused(await post('', forum({ seats_taken: 5 })), 'seats_taken');
    await refused(await post('', forum({ address_en: { street_address: 'x' } })), 'address_en.address_locality');
    const { name_en: _, ...nameless } = forum();
    await refused(await post('', nameless), 'name_en');
    await refused(await patch('opening-forum', { slug: 'renamed' }), 'slug');
    await refused(await patch('opening-forum', { end_at: '2020-01-01T00:00:00Z' }), 'end_at', 'end_before_start');
    expect((await db.select().from(events)).length).toBe(before);
    expect(await db.select().from(eventChanges)).toEqual([]);
  });

  it('an image: an event_image upload, served resized to anyone once an event names it', async () => {
    const picture = new PNG_BYTES({ width: 800, height: 400 });
    picture.data.fill(180);
    const uploaded = await upload(
      app,
      olivia,
      { bytes: PNG_BYTES.sync.write(picture), name: 'forum.png', type: 'image/png' },
      'event_image',
    );
    expect(uploaded.status).toBe(200);
    const { uid } = await uploaded.json();
    // Not served before an event names it.
    expect((await app.request(`/api/v1/event-images/${uid}?w=320`)).status).toBe(404);
    expect((await post('', forum({ image_file_id: uid, published: true }))).status).toBe(201);
    const view = (await (await app.request('/api/v1/events/film-forum-2027')).json()).data;
    expect(view.image).toBe(`/api/v1/event-images/${uid}?w=1280`);
    const small = await app.request(`/api/v1/event-images/${uid}?w=320`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/jpeg');
    expect(small.headers.get('cache-control')).toContain('public');
    const bytes = new Uint8Array(await small.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    // A photo uploaded for a badge is not an event image; nor is an unknown id.
    const photo = await (await upload(app, olivia, { bytes: PNG, name: 'me.png', type: 'image/png' })).json();
    await refused(await patch('film-forum-2027', { image_file_id: photo.uid }), 'image_file_id', 'invalid_image');
    await refused(
      await patch('film-forum-2027', { image_file_id: '00000000-0000-4000-8000-000000000000' }),
      'image_file_id',
      'invalid_image',
    );
    expect((await app.request('/api/v1/event-images/not-a-uuid')).status).toBe(404);
    // The housekeeping sweep keeps an image an event names (the badge photo, named by nothing, goes).
    expect(await deleteUnattachedUploads(db, app.storage, { olderThan: new Date(Date.now() + DAY) })).toBe(1);
    expect((await app.request(`/api/v1/event-images/${uid}?w=1280`)).status).toBe(200);
    // Removed: the default image again, and the file no longer served.
    expect((await patch('film-forum-2027', { image_file_id: null })).status).toBe(200);
    expect((await (await app.request('/api/v1/events/film-forum-2027')).json()).data.image).toBe(
      '/images/events/conference.jpg',
    );
    expect((await app.request(`/api/v1/event-images/${uid}?w=320`)).status).toBe(404);
  });

  it('organisers only: 401 without a session, 403 for a registrant, on every catalogue route', async () => {
    await post('', forum());
    const { token: amy } = await signIn(app, 'amy@example.com');
    const calls: [string, string, unknown][] = [
      ['POST', '/api/v1/admin/events', forum({ slug: 'sneaky-event' })],
      ['PATCH', '/api/v1/admin/events/film-forum-2027', { name_en: 'Mine' }],
      ['POST', '/api/v1/admin/events/film-forum-2027/duplicate', { slug: 'sneaky-copy' }],
      ['POST', '/api/v1/admin/events/film-forum-2027/publish', {}],
      ['POST', '/api/v1/admin/events/film-forum-2027/unpublish', {}],
      ['POST', '/api/v1/admin/events/film-forum-2027/archive', {}],
      ['GET', '/api/v1/admin/events/film-forum-2027', undefined],
    ];
    for (const [method, path, body] of calls) {
      const init = json(amy, method, body);
      expect((await app.request(path, init)).status, `${method} ${path}`).toBe(403);
      const { authorization: _, ...anonymous } = init.headers as Record<string, string>;
      expect((await app.request(path, { ...init, headers: anonymous })).status, `${method} ${path}`).toBe(401);
    }
    expect((await row('film-forum-2027'))!).toMatchObject({ status: 'draft', nameEn: 'Film forum' });
    expect(await row('sneaky-event')).toBeUndefined();
  });
});
