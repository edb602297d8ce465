import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '@domain/errors';
import { MESSAGES } from '@i18n/i18n';
import { seedDevContent } from '@server/content/dev-content-seed';
import { createHttpContentSource } from '@server/content/http-source';
import { resolveSelectedWorks, type ContentSource, type WorkRecord } from '@server/content/works';
import { devSubject } from '@server/identity/dev-identity';
import {
  authCookie,
  bearer,
  createTestApp,
  DATABASES,
  openTestDatabase,
  providerToken,
  signIn,
  TEST_ORIGIN,
  type TestApp,
  type TestDatabase,
} from './helpers';

const amy = { token: 't', subject: devSubject('amy@example.com'), email: 'amy@example.com' };

/** Adds a work on the dev content site's page, as the signed-in browser would. */
function postWork(app: TestApp, token: string | null, fields: Record<string, string>, headers: HeadersInit = {}) {
  return app.request('/dev-content/works', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_ORIGIN,
      ...(token ? { cookie: authCookie(app, token) } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields),
  });
}
const validWork = {
  title_en: 'River Song',
  title_zh: '河之歌',
  genre: 'project',
  category_id: '3',
  price_twd: '1000',
  price_usd: '35',
};
/** The dev content site's pages get the i18n files' messages from their endpoint. */
const page = (app: TestApp, path: string, token?: string) =>
  app.app.request(
    new Request(TEST_ORIGIN + path, { headers: token ? { cookie: authCookie(app, token) } : {} }),
    undefined,
    { devContentMessages: MESSAGES },
  );

describe.each(DATABASES)('works from the content site (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    app = await createTestApp(database);
  });

  it('answers 401 to a visitor', async () => {
    const res = await app.request('/api/v1/contents/remote');
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('unauthorized');
  });

  it("lists only the user's own works, localised by ?lang= and Accept-Language", async () => {
    await seedDevContent(database.db, ['amy@example.com', 'ben@example.com']);
    const { token } = await signIn(app, 'amy@example.com');
    const res = await app.request('/api/v1/contents/remote', bearer(token));
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toHaveLength(4);
    expect(data[0]).toEqual({
      id: data[0].id,
      genre_id: 'piece',
      category_id: 1,
      language_en: { title: 'The Lighthouse Keeper' },
      language_zh_tw: { title: '守燈人' },
      name: 'The Lighthouse Keeper',
      price_twd: { cents: 3_000_000, currency: 'TWD' },
      price_usd: { cents: 100_000, currency: 'USD' },
    });
    const zh = await (await app.request('/api/v1/contents/remote?lang=zh-TW', bearer(token))).json();
    expect(zh.data.map((w: { name: string }) => w.name)).toEqual(['守燈人', '福爾摩沙茶路', '夜市偵探社', '紙龍']);
    const accept = await app.request('/api/v1/contents/remote', {
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'zh-TW,zh;q=0.9' },
    });
    expect((await accept.json()).data[1].name).toBe('福爾摩沙茶路');

    // Another user sees none of Amy's works.
    const cai = await signIn(app, 'cai@example.com');
    const none = await app.request('/api/v1/contents/remote', bearer(cai.token));
    expect((await none.json()).data).toEqual([]);
  });

  it('adds a work on the dev content site and lists it there and in the API', async () => {
    const { token } = await signIn(app, 'dee@example.com');
    const res = await postWork(app, token, { ...validWork, lang: 'zh-TW' });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/dev-content\?lang=zh-TW&created=\d+$/);
    const html = await (await page(app, location, token)).text();
    expect(html).toContain('<html lang="zh-TW"');
    expect(html).toContain('已新增作品「河之歌」。');
    expect(html).toContain('River Song');
    expect(html).toContain('動畫');
    expect(html).toContain('新臺幣 1,000 元');
    const { data } = await (await app.request('/api/v1/contents/remote', bearer(token))).json();
    expect(data).toEqual([
      expect.objectContaining({
        genre_id: 'project',
        category_id: 3,
        name: 'River Song',
        price_twd: { cents: 100_000, currency: 'TWD' },
        price_usd: { cents: 3_500, currency: 'USD' },
      }),
    ]);
  });

  it('refuses an invalid work with 400 and messages, and nothing is stored', async () => {
    const { token } = await signIn(app, 'dee@example.com');
    const res = await postWork(app, token, {
      title_en: ' ',
      title_zh: 'x'.repeat(257),
      genre: 'poem',
      category_id: '17',
      price_twd: '-1',
      price_usd: '1.5',
      lang: 'en',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    // Without the endpoint's messages the page shows keys: each field has its own.
    for (const key of [
      'devContent.error.titleEn',
      'devContent.error.tooLong',
      'devContent.error.genre',
      'devContent.error.category',
      'devContent.error.price',
    ])
      expect(html).toContain(key);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="title_en-hint title_en-error"');
    const { data } = await (await app.request('/api/v1/contents/remote', bearer(token))).json();
    expect(data).toEqual([]);
  });

  it('shows the validation messages in the language of the form', async () => {
    const { token } = await signIn(app, 'dee@example.com');
    const res = await app.app.request(
      new Request(TEST_ORIGIN + '/dev-content/works', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: TEST_ORIGIN,
          cookie: authCookie(app, token),
        },
        body: new URLSearchParams({ ...validWork, title_zh: '', lang: 'zh-TW' }),
      }),
      undefined,
      { devContentMessages: MESSAGES },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('請輸入中文名稱。');
    expect(html).toContain('value="River Song"');
  });

  it('refuses a cross-site post and a post without origin or a signed-in user', async () => {
    const { token } = await signIn(app, 'dee@example.com');
    const evil = await postWork(app, token, validWork, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const bare = await app.request('/dev-content/works', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: authCookie(app, token) },
      body: new URLSearchParams(validWork),
    });
    expect(bare.status).toBe(403);
    const visitor = await postWork(app, null, validWork);
    expect(visitor.status).toBe(403);
    const { data } = await (await app.request('/api/v1/contents/remote', bearer(token))).json();
    expect(data).toEqual([]);
  });

  it('asks a visitor to sign in, with the way back to the dev content site', async () => {
    const res = await page(app, '/dev-content?lang=zh-TW');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('請先登入');
    expect(html).toContain('/api/v1/user/signin?locale=zh-TW&amp;return_to=%2Fdev-content%3Flang%3Dzh-TW');
    expect(html).toContain('href="/zh-tw/"');
  });

  it('protocol API: needs the client credentials and the user token; filters by ids', async () => {
    await seedDevContent(database.db, ['amy@example.com', 'ben@example.com']);
    const token = await providerToken(app, (await signIn(app, 'amy@example.com')).token);
    const client = { 'x-client-id': 'registration-portal', 'x-client-secret': 'dev-content-secret' };
    const noClient = await app.request('/dev-content/api/works', bearer(token));
    expect(noClient.status).toBe(401);
    const wrong = await app.request('/dev-content/api/works', {
      headers: { ...client, 'x-client-secret': 'nope', authorization: `Bearer ${token}` },
    });
    expect(wrong.status).toBe(401);
    const noUser = await app.request('/dev-content/api/works', { headers: client });
    expect((await noUser.json()).error).toBe('invalid_token');
    const all = await (
      await app.request('/dev-content/api/works', { headers: { ...client, authorization: `Bearer ${token}` } })
    ).json();
    expect(all.data).toHaveLength(4);
    const [first, , third] = all.data as { id: number }[];
    const ben = await signIn(app, 'ben@example.com');
    const benIds = (await (await app.request('/api/v1/contents/remote', bearer(ben.token))).json()).data.map(
      (w: { id: number }) => w.id,
    );
    const some = await (
      await app.request(`/dev-content/api/works?ids=${first!.id},${third!.id},${benIds[0]}`, {
        headers: { ...client, authorization: `Bearer ${token}` },
      })
    ).json();
    expect(some.data.map((w: { id: number }) => w.id)).toEqual([first!.id, third!.id]);
    const bad = await app.request('/dev-content/api/works?ids=1,x', {
      headers: { ...client, authorization: `Bearer ${token}` },
    });
    expect(bad.status).toBe(400);
  });

  it("resolveSelectedWorks snapshots the user's works and refuses a foreign id", async () => {
    await seedDevContent(database.db, ['amy@example.com', 'ben@example.com']);
    const amySignIn = await signIn(app, 'amy@example.com');
    const ben = await signIn(app, 'ben@example.com');
    const source = app.content;
    const user = { ...amy, token: await providerToken(app, amySignIn.token) };
    const mine = await source.listWorks(user);
    const picked = await resolveSelectedWorks(source, user, [String(mine[2]!.id), mine[0]!.id, mine[2]!.id]);
    expect(picked.map((w) => w.titleZh)).toEqual(['夜市偵探社', '守燈人']);
    const benWorks = await source.listWorks({ ...amy, token: await providerToken(app, ben.token) });
    const foreign = benWorks[0]!.id;
    const error = await resolveSelectedWorks(source, user, [mine[0]!.id, foreign]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('work_not_found');
    expect((error as DomainError).message).toContain(String(foreign));
  });

  it('is off with CONTENT_SITE_URL: /dev-content answers 404', async () => {
    const real = await createTestApp(database, {
      CONTENT_SITE_URL: 'http://127.0.0.1:9/content',
      CONTENT_SITE_CLIENT_SECRET: 'x',
    });
    expect((await real.request('/dev-content')).status).toBe(404);
    expect((await real.request('/dev-content/api/works')).status).toBe(404);
  });
});

describe('HTTP content client against a stub content site', () => {
  let server: Server;
  let base: string;
  let handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void;
  const seen: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/content`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    seen.length = 0;
  });

  const wire = (id: number) => ({
    id,
    genre: 'piece',
    category_id: 2,
    title_en: `Work ${id}`,
    title_zh: `作品 ${id}`,
    price_cents_twd: 100_000,
    price_cents_usd: 3_500,
    extra: 'ignored',
  });
  const logs: unknown[] = [];
  const client = (over: { timeoutMs?: number } = {}): ContentSource =>
    createHttpContentSource({
      baseUrl: base,
      clientId: 'portal',
      clientSecret: 's3cret',
      timeoutMs: over.timeoutMs ?? 2_000,
      retryDelayMs: 10,
      log: (...args) => logs.push(args),
    });
  const user = { token: 'user-token', subject: 'sub', email: 'a@example.com' };
  const unavailable = (p: Promise<unknown>) =>
    p.then(
      () => expect.fail('expected content_site_unavailable'),
      (e: unknown) => {
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).code).toBe('content_site_unavailable');
      },
    );

  it('forwards the bearer token and client credentials, filters by ids, validates the answer', async () => {
    handler = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [wire(1), wire(2)] }));
    };
    const works = await client().getWorks(user, [2, 2, 7]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/content/api/works?ids=2,7');
    expect(seen[0]!.headers.authorization).toBe('Bearer user-token');
    expect(seen[0]!.headers['x-client-id']).toBe('portal');
    expect(seen[0]!.headers['x-client-secret']).toBe('s3cret');
    // Only the asked-for ids, whatever the site answered.
    expect(works).toEqual<WorkRecord[]>([
      {
        id: 2,
        genre: 'piece',
        categoryId: 2,
        titleEn: 'Work 2',
        titleZh: '作品 2',
        priceCentsTwd: 100_000,
        priceCentsUsd: 3_500,
      },
    ]);
    expect(await client().getWorks(user, [])).toEqual([]);
    expect(seen).toHaveLength(1);
    const all = await client().listWorks(user);
    expect(all.map((w) => w.id)).toEqual([1, 2]);
    expect(seen[1]!.url).toBe('/content/api/works');
  });

  it('retries a timeout twice, then answers content_site_unavailable (503 in the API)', async () => {
    handler = () => {
      /* never answers */
    };
    const started = Date.now();
    await unavailable(client({ timeoutMs: 150 }).listWorks(user));
    expect(seen).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('retries 503 and succeeds when the site recovers; does not retry 401', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      if (calls < 3) {
        res.statusCode = 503;
        res.end('busy');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [wire(5)] }));
    };
    expect((await client().listWorks(user)).map((w) => w.id)).toEqual([5]);
    expect(seen).toHaveLength(3);
    seen.length = 0;
    handler = (_req, res) => {
      res.statusCode = 401;
      res.end('{"error":"invalid_client"}');
    };
    await unavailable(client().listWorks(user));
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['not JSON', 'text/html', '<html>oops</html>'],
    ['no data', 'application/json', '{"works":[]}'],
    ['a bad work', 'application/json', JSON.stringify({ data: [{ ...wire(1), category_id: 99 }] })],
    ['a missing title', 'application/json', JSON.stringify({ data: [{ ...wire(1), title_zh: undefined }] })],
  ])('answers content_site_unavailable to garbage: %s', async (_label, type, body) => {
    handler = (_req, res) => {
      res.setHeader('content-type', type);
      res.end(body);
    };
    await unavailable(client().listWorks(user));
    expect(seen).toHaveLength(1);
  });

  it('a network error (nothing listening) is retried, then 503 from the API', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const app = await createTestApp(database, {
        CONTENT_SITE_URL: 'http://127.0.0.1:9/content',
        CONTENT_SITE_CLIENT_SECRET: 'x',
      });
      const { token } = await signIn(app, 'amy@example.com');
      const res = await app.request('/api/v1/contents/remote', bearer(token));
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.code).toBe('content_site_unavailable');
      expect(body.message).not.toContain('127.0.0.1');
    } finally {
      await database.close();
    }
  });
});
