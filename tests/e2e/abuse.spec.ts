import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { RETURN_PATH_COOKIE, safeReturnPath } from '@domain/return-path';
import { signIn } from './fixtures';

/*
 * Abuse suite, the part that needs the built server (issue 12): the cross-site request check of
 * src/middleware.ts on every form post, open redirects through the pages' return paths, methods
 * the portal cannot take, control characters in page paths, the locale cookie, and a PGlite
 * server killed with SIGKILL that restarts at once.
 */

const EVIL = 'https://evil.example';
const HOSTILE = [
  '//evil.example',
  '/\\evil.example',
  'https://evil.example/',
  '/.//evil.example',
  '/%2F%2Fevil.example',
];

/** The API's routes that change state, from the Hono app itself (a new one is covered at once). */
function unsafeApiRoutes() {
  const routes = JSON.parse(
    execFileSync('npx', ['tsx', 'tests/e2e/scripts/api-routes.ts'], { encoding: 'utf8', timeout: 60_000 }),
  ) as { method: string; path: string }[];
  return [
    ...new Set(
      routes
        .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
        .map((r) => `${r.method} ${r.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')}`),
    ),
  ];
}
/** The pages' and development services' form posts. */
const PAGE_POSTS = [
  'POST /en/auth/logout',
  'POST /zh-tw/auth/logout',
  'POST /en/badges/new',
  'POST /dev-identity/signin',
  'POST /dev-content/works',
  'POST /sandbox-gateway/MPG/mpg_gateway',
  'POST /sandbox-gateway/MPG/pay',
];
/** Verified by their TradeSha instead (decision 002). */
const EXEMPT = [
  '/api/v1/payment/newebpay/notify',
  '/api/v1/payment/newebpay/return',
  // The ATM account's browser post (issue 22), verified by its TradeSha like the return.
  '/api/v1/payment/newebpay/customer',
];

const send = (request: APIRequestContext, route: string, headers: Record<string, string>) => {
  const [method, path] = route.split(' ') as [string, string];
  return request.fetch(path, {
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    data: 'fromPath=%2F&email=a%40example.com',
    maxRedirects: 0,
  });
};

test.describe('cross-site form posts', () => {
  test('every form post from another site is refused with 403, except the gateway’s', async ({ request, baseURL }) => {
    const routes = [...unsafeApiRoutes(), ...PAGE_POSTS];
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const exempt = EXEMPT.some((p) => route.endsWith(` ${p}`));
      for (const headers of [{ origin: EVIL }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Record<
        string,
        string
      >[]) {
        const res = await send(request, route, headers);
        if (exempt) {
          expect(res.status(), `${route} ${JSON.stringify(headers)}`).not.toBe(403);
          continue;
        }
        expect(res.status(), `${route} ${JSON.stringify(headers)}`).toBe(403);
        expect(await res.json()).toMatchObject({ code: 'forbidden', message: 'Cross-site request refused' });
      }
      // The same post from our own pages passes the check (whatever the route says next).
      if (!exempt) {
        const own = await send(request, route, { origin: baseURL! });
        expect(`${own.status()} ${await own.text()}`, route).not.toContain('Cross-site request refused');
      }
    }
  });
});

test.describe('return paths of the pages', () => {
  test('sign-in lands on our own page whatever the stored return path holds', async ({ page, baseURL }) => {
    await signIn(page, `redirect-${Date.now()}@example.com`);
    const url = new URL(baseURL!);
    for (const hostile of HOSTILE) {
      await page
        .context()
        .addCookies([
          { name: RETURN_PATH_COOKIE, value: encodeURIComponent(hostile), domain: url.hostname, path: '/' },
        ]);
      const res = await page.request.get('/en/auth/callback', { maxRedirects: 0 });
      expect(res.status(), hostile).toBe(302);
      const location = res.headers().location!;
      expect(new URL(location, baseURL).origin, `${hostile} → ${location}`).toBe(url.origin);
    }
  });

  test('log out stores only a same-site return path from fromPath', async ({ request, baseURL }) => {
    for (const hostile of HOSTILE) {
      const res = await request.post('/en/auth/logout', {
        form: { fromPath: hostile },
        headers: { origin: baseURL! },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(303);
      expect(new URL(res.headers().location!, baseURL).origin).toBe(new URL(baseURL!).origin);
      const stored = res
        .headersArray()
        .filter((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith(`${RETURN_PATH_COOKIE}=`))
        .map((h) => decodeURIComponent(h.value.split(';')[0]!.split('=').slice(1).join('=')))
        .filter(Boolean);
      for (const value of stored) expect(safeReturnPath(value), `${hostile} stored as ${value}`).toBe(value);
    }
  });
});

test.describe('odd requests', () => {
  test('TRACE and other methods the portal does not serve get 405, not 500', async ({ request }) => {
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL'])
      for (const path of ['/en/', '/api/v1/events']) {
        const res = await request.fetch(path, { method });
        expect(res.status(), `${method} ${path}`).toBe(405);
        expect(res.headers().allow).toContain('GET');
      }
  });

  test('a page path with a control character is a 404 page, not a 502', async ({ request }) => {
    for (const path of ['/en/events/%00', '/zh-tw/events/a%01b', '/en/live/%00', '/en/events/%7F/registrations/new']) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(404);
    }
  });

  test('the locale cookie is set once', async ({ request }) => {
    const res = await request.get('/account/orders?locale=zh-TW', { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    const cookies = res
      .headersArray()
      .filter((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith('locale='));
    expect(cookies.map((h) => h.value.split(';')[0])).toEqual(['locale=zh-TW']);
  });
});

test.describe('a server killed with SIGKILL', () => {
  // A second portal on its own data directory (PGlite), as error-pages.spec.ts does.
  const PORT = Number(process.env.E2E_PORT ?? 4399) + 8;
  let dataDir: string;
  let server: ChildProcess | undefined;
  test.afterAll(() => {
    server?.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    let log = '';
    const child = spawn(process.execPath, ['server.mjs'], {
      env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (log += String(d)));
    child.stderr!.on('data', (d) => (log += String(d)));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    for (let i = 0; i < 300 && !/portal ready|start-up check failed/.test(log); i++)
      await new Promise((r) => setTimeout(r, 200));
    return { child, log: () => log, exited };
  };

  test('restarts at once on the same data directory', async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(join(tmpdir(), 'portal-kill9-'));
    const first = await start();
    server = first.child;
    expect(first.log(), 'the portal started').toMatch(/portal ready/);
    first.child.kill('SIGKILL');
    await first.exited;
    // At once, no cleanup by hand: the lock names a process that is gone.
    const second = await start();
    server = second.child;
    expect(second.log(), 'the portal restarted').toMatch(/portal ready/);
    const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/events`);
    expect(res.status).toBe(200);
  });
});
