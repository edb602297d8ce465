#!/usr/bin/env node
/**
 * Benchmark of the built portal against the budgets of DESIGN §4 (`npm run bench`).
 *
 *   1. builds the app (`npx astro build`, skipped with --no-build);
 *   2. seeds 100 orders for bench@example.com into a fresh temporary DATA_DIR (before the server
 *      starts: PGlite cannot be opened by two processes);
 *   3. starts `node server.mjs` (the production entry, with br/gzip) on 127.0.0.1 and a free port;
 *   4. signs bench@example.com in through the embedded dev identity service (plain HTTP, manual
 *      redirects and a small cookie jar) to get a session (`portal-session`, decision 019);
 *   5. measures every key page in both locales: HTML bytes (raw and gzip), JS shipped (gzip, each
 *      file compressed on its own as it travels; two figures: "page load" = every <script src>,
 *      modulepreload, astro-island component/renderer plus the chunks they import statically, and
 *      inline scripts; "total" = that plus every chunk the page can load later through a dynamic
 *      `import()` (lazy uploader, dialogs) and their static imports), CSS (gzip), React runtime
 *      shipped or not, and the content-encoding answered to `accept-encoding: br, gzip`. The wizard
 *      and payment pages are budgeted on the total (DESIGN §4 "in total");
 *   6. runs Lighthouse (mobile preset, default throttling) for performance and accessibility, each
 *      run in a fresh Chromium (see lighthouseRun for why);
 *   7. load-tests the exhibitor directory (300 exhibitors, seeded with `tsx scripts/db.ts
 *      demo-exhibitors`: its page, a search, its API page of 100) and the orders page, the same HTML as a static file served by the same server (the
 *      DESIGN §4 ratio, ≥ 0.6×) and `GET /api/v1/orders?limit=100` with autocannon, asking for
 *      br/gzip as a browser does. The orders page is measured twice: the same user again and again
 *      (the rendered page cache of decision 032 answers) and cold: --cold-users distinct users of
 *      100 orders each, each page asked once (first views, as at the opening rush; seeded with
 *      `tsx scripts/load-fixtures.ts orders` before the server starts), alternating with the same
 *      number of requests for the static file; both ratios are budgeted (≥ 0.6×);
 *   8. prints tables, checks the budgets (PASS/FAIL) and writes bench-results/latest.json.
 * The server is stopped and the temporary directory removed in every case. Exit code 1 when a
 * budget fails (or something could not be measured), 130 when interrupted, 0 otherwise.
 *
 * Flags:
 *   --no-build            use the existing dist/ instead of building
 *   --runs N              Lighthouse runs per page; the median performance score is kept (1)
 *   --duration S          autocannon duration per target, in seconds (10)
 *   --connections N       autocannon concurrent connections (20)
 *   --no-lighthouse       skip Lighthouse (its budgets are reported as SKIP)
 *   --lighthouse-only RE  Lighthouse only on the pages whose path matches RE (the others SKIP)
 *   --no-load             skip the autocannon load runs (and the cold case)
 *   --cold-users N        distinct users of the cold orders-page case, each asked once (300; 0 skips it)
 *   --cold-only           only the cold orders-page case and its static pair: no Lighthouse, no other
 *                         load run, page weight of the orders page only, no directory seeding
 *   --port N              the server's port (default: a free one)
 *   --postgres            a throwaway database on the machine's PostgreSQL (TEST_DATABASE_URL or
 *                         127.0.0.1:5432) instead of PGlite
 *   --cpu-prof            write the server's CPU profile to bench-results/profiles/ (node --cpu-prof;
 *                         the whole run, seeding excluded: start-up, page weight and the load steps)
 *   --verbose             echo the server's log
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { V8_FLAGS } from '../server.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const BENCH_EMAIL = 'bench@example.com';
/** An organiser (ORGANISER_EMAILS of the bench server), for the back office's interactive pages. */
const BENCH_ORGANISER = 'bench-organiser@example.com';
const ORDER_COUNT = 100;
const BUDGET = {
  jsGzipBytes: 5 * 1024,
  interactiveJsGzipBytes: 100 * 1024,
  performance: 95,
  accessibility: 100,
  ssrToStatic: 0.6,
};
/**
 * Wizard pages over the 100 KB total, recorded in decision 006 with the evidence: what they carry
 * beyond it is the owner's libraries (Radix Dialog for the spec's alerts, react-dropzone for the
 * uploads), loaded lazily. Each is reported as OVER, never PASS, and FAILs once it grows past the
 * ceiling recorded here: what is over may not grow.
 */
const JS_TOTAL_EXCEPTIONS = [
  { path: /^\/(en|zh-tw)\/events\/market-online\/registrations\/new$/, ceilingBytes: 105 * 1024 },
  { path: /^\/(en|zh-tw)\/events\/pitching-story\/registrations\/new$/, ceilingBytes: 107.5 * 1024 },
];
/** Where the static baseline of the load step is written (served by the same server, removed after). */
const STATIC_BASELINE_PATH = '__bench-static/orders.html';
const STATIC_BASELINE = join(ROOT, 'dist', 'client', STATIC_BASELINE_PATH);

const { values: flags } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    'no-lighthouse': { type: 'boolean', default: false },
    'lighthouse-only': { type: 'string' },
    'no-load': { type: 'boolean', default: false },
    'cold-users': { type: 'string', default: '300' },
    'cold-only': { type: 'boolean', default: false },
    port: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const positiveInt = (name) => {
  const n = Number(flags[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const RUNS = positiveInt('runs');
const DURATION = positiveInt('duration');
const CONNECTIONS = positiveInt('connections');
const COLD_USERS = Number(flags['cold-users']);
if (!Number.isInteger(COLD_USERS) || COLD_USERS < 0) throw new Error('--cold-users must be a whole number');
const COLD_ONLY = flags['cold-only'];
if (COLD_ONLY && (flags['no-load'] || COLD_USERS === 0))
  throw new Error('--cold-only needs the load step and cold users');
if (COLD_ONLY) flags['no-lighthouse'] = true;
/** The cold case runs in this many rounds, each alternating with the static file (as loadPair). */
const COLD_ROUNDS = 3;

/** Listed exhibitors the directory's pages are measured with (issue 23). */
const DIRECTORY_EXHIBITORS = 300;

/** The key pages (DESIGN §4): all of them are pages without interaction. */
const PAGES = [
  { path: '/en/', status: 200 },
  { path: '/zh-tw/', status: 200 },
  { path: '/en/events/opening-forum', status: 200 },
  { path: '/zh-tw/events/opening-forum', status: 200 },
  { path: '/en/signin', status: 200 },
  { path: '/zh-tw/signin', status: 200 },
  { path: '/en/account/orders', status: 200, signedIn: true },
  { path: '/zh-tw/account/orders', status: 200, signedIn: true },
  { path: '/en/does-not-exist', status: 404 },
  // The exhibitor directory with its 300 exhibitors (issue 23; one exhibitor's page joins once the
  // server answers): public pages without islands.
  { path: '/en/market/exhibitors', status: 200 },
  { path: '/zh-tw/market/exhibitors', status: 200 },
  // Wizard and payment pages (DESIGN §4: ≤ 100 KB of JS in total, lazy chunks included). The
  // free-badge link page, the pay pages (event and badge) and the summary with its payment editor
  // are added once the link, the orders and the badge order exist (see main).
  { path: '/en/badges/new', status: 200, signedIn: true, interactive: true },
  // Signed out (the island with its sign-in prompt): the bench user is registered for every event.
  { path: '/zh-tw/events/opening-forum/registrations/new', status: 200, interactive: true },
  // The Market wizard (signed out: its island is the same; the works picker, the exhibitor form's
  // uploader and the dialogs are its lazy chunks). The contact page joins once Market orders exist.
  { path: '/en/events/market-online/registrations/new', status: 200, interactive: true },
  // The pitching wizards (the works picker, the story form with its uploader, the dialogs lazy).
  { path: '/en/events/pitching-project/registrations/new', status: 200, interactive: true },
  { path: '/zh-tw/events/pitching-story/registrations/new', status: 200, interactive: true },
];

// ---- processes --------------------------------------------------------------------------------

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Runs a command to completion with inherited output; rejects on a non-zero exit. */
function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Runs a command to completion and returns its standard output; rejects on a non-zero exit. */
function capture(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/**
 * Gives `token`'s user an unpaid Professional badge order through the API (a 1×1 PNG as the
 * photo, as the browser tests do); returns its id, for the badge pay page.
 */
async function createBadgeOrder(base, token) {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
    'base64',
  );
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'photo.png');
  form.append('purpose', 'personal_photo');
  const headers = { authorization: `Bearer ${token}`, origin: base };
  const upload = await fetch(`${base}/api/v1/files/upload`, { method: 'POST', body: form, headers });
  if (upload.status !== 200) throw new Error(`photo upload answered ${upload.status}: ${await upload.text()}`);
  const { uid } = await upload.json();
  const res = await fetch(`${base}/api/v1/demonstration_order`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      applicant: { name_en: 'Bench Badge', contact_phone: '886-912-345-678' },
      badge: { name_en: 'Bench Badge' },
      personal_photo_file_id: uid,
    }),
  });
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`POST /api/v1/demonstration_order answered ${res.status}: ${await res.text()}`);
  const { order_id: orderId } = await res.json();
  if (!orderId) throw new Error('POST /api/v1/demonstration_order returned no order_id');
  return orderId;
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `node server.mjs`; keeps the last lines of its output for error reports. */
function startServer(env) {
  const log = [];
  const profile = flags['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench-results', 'profiles')}`] : [];
  const child = spawn(process.execPath, [...V8_FLAGS, ...profile, 'server.mjs'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      log.push(line);
      if (log.length > 400) log.shift();
      if (flags.verbose) console.log(`  [server] ${line}`);
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, log };
}

async function stopServer(server) {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])) return;
  server.child.kill('SIGKILL');
  await Promise.race([exited, sleep(2000)]);
}

async function waitForServer(base, server) {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (server.child.exitCode !== null) throw new Error(`the server exited with code ${server.child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/v1/events`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error('the server did not answer GET /api/v1/events with 200 within 60 s');
}

// ---- HTTP -------------------------------------------------------------------------------------

/** GET without any decompression: the bytes as they travel. */
function rawGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.hostname !== HOST) return reject(new Error(`refusing a non-local target: ${url}`));
    const req = http.get(target, { headers, timeout: 15_000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: GET ${url}`)));
    req.on('error', reject);
  });
}

const gzipSize = (buffer) => zlib.gzipSync(buffer).length;

/** A minimal cookie jar for one host (the whole bench runs against a single origin). */
class CookieJar {
  cookies = new Map();
  store(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The portal's session cookie over http (src/domain/session.ts); the API also takes it as Bearer. */
const SESSION_COOKIE = 'portal-session';

/** Signs `email` (bench@example.com) in through the embedded dev identity service; returns the token. */
async function signIn(base, email = BENCH_EMAIL) {
  const jar = new CookieJar();
  const step = async (label, url, init, expected) => {
    const res = await fetch(new URL(url, base), {
      redirect: 'manual',
      ...init,
      headers: { ...init?.headers, cookie: jar.header() },
    });
    jar.store(res);
    if (res.status !== expected)
      throw new Error(`sign-in ${label}: expected ${expected}, got ${res.status} ${(await res.text()).slice(0, 200)}`);
    const location = res.headers.get('location');
    if (!location) throw new Error(`sign-in ${label}: no Location header`);
    return new URL(location, base);
  };

  // OpenID Connect (the default mode): the authorization endpoint shows the dev sign-in form.
  const authorize = await step('GET /api/v1/user/signin', '/api/v1/user/signin?locale=en', {}, 302);
  if (!jar.cookies.has('idc-state')) throw new Error('sign-in: no idc-state cookie');
  const signinPage = await step('GET /dev-identity/authorize', authorize, {}, 302);
  if (signinPage.pathname !== '/dev-identity/signin') throw new Error(`sign-in: unexpected identity URL ${signinPage}`);
  const form = new URLSearchParams(signinPage.searchParams);
  form.set('email', email);
  form.set('name', 'Bench');
  const callback = await step(
    'POST /dev-identity/signin',
    '/dev-identity/signin',
    { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base } },
    303,
  );
  if (callback.pathname !== '/api/v1/user/callback') throw new Error(`sign-in: the form redirected to ${callback}`);
  await step('GET /api/v1/user/callback', callback, {}, 302);
  const token = jar.cookies.get(SESSION_COOKIE);
  if (!token) throw new Error(`sign-in: the callback set no ${SESSION_COOKIE} cookie`);

  const me = await fetch(`${base}/api/v1/user/me`, { headers: { authorization: `Bearer ${token}` } });
  if (me.status !== 200) throw new Error(`sign-in: GET /api/v1/user/me answered ${me.status}`);
  return decodeURIComponent(token);
}

// ---- page weight ------------------------------------------------------------------------------

const attr = (tag, name) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined);
const decodeEntities = (s) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** The JS a page ships: external URLs and inline script bodies. */
function scriptsOf(html) {
  const urls = new Set();
  const inline = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const tag = `<script ${match[1]}>`;
    const type = (attr(tag, 'type') ?? '').toLowerCase();
    if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue; // JSON, templates
    const src = attr(tag, 'src');
    if (src) urls.add(decodeEntities(src));
    else if (match[2].trim()) inline.push(match[2]);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if ((attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/).includes('modulepreload') && attr(tag, 'href'))
      urls.add(decodeEntities(attr(tag, 'href')));
  }
  const styles = new Set();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if ((attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/).includes('stylesheet') && attr(tag, 'href'))
      styles.add(decodeEntities(attr(tag, 'href')));
  }
  const islands = [...html.matchAll(/<astro-island\b[^>]*>/gi)].map(([tag]) => tag);
  for (const tag of islands) {
    for (const name of ['component-url', 'renderer-url'])
      if (attr(tag, name)) urls.add(decodeEntities(attr(tag, name)));
  }
  return { urls, inline, styles, islands: islands.length };
}

/** Fetches an asset once: its size, gzip size, the encoding it is served with, its static imports. */
async function fetchAsset(url, assetCache) {
  if (!assetCache.has(url)) {
    const plain = await rawGet(url, { 'accept-encoding': 'identity' });
    const compressed = await rawGet(url, { 'accept-encoding': 'br, gzip' });
    const body = plain.body.toString('utf8');
    const js = /\.m?js(\?|$)/.test(new URL(url).pathname);
    const resolve = (m) => new URL(m[1], url).toString();
    const imports = js ? [...body.matchAll(/\b(?:from|import)\s*["']([^"']+\.m?js)["']/g)].map(resolve) : [];
    // `import("./Uploader.x.js")`, minified with any quote (Rolldown writes template literals).
    const lazyImports = js ? [...body.matchAll(/\bimport\(\s*["'`]([^"'`]+\.m?js)["'`]\s*\)/g)].map(resolve) : [];
    assetCache.set(url, {
      url,
      status: plain.status,
      bytes: plain.body.length,
      gzip: gzipSize(plain.body),
      type: String(plain.headers['content-type'] ?? ''),
      encoding: compressed.headers['content-encoding'] ?? 'none',
      imports,
      lazyImports,
    });
  }
  return assetCache.get(url);
}

/**
 * Fetches JS files and the chunks they import statically (`lazy` false: what the page loads up
 * front), or also the chunks reachable through dynamic `import()` and their static imports
 * (`lazy` true: everything the page can ever load).
 */
async function measureScripts(base, pageUrl, urls, assetCache, lazy = false) {
  const queue = [...urls].map((u) => new URL(u, pageUrl).toString());
  const seen = new Set();
  const files = [];
  while (queue.length && seen.size < 200) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    seen.add(url);
    if (new URL(url).origin !== base) {
      files.push({ url, status: 'external', bytes: 0, gzip: 0 });
      continue;
    }
    const file = await fetchAsset(url, assetCache);
    files.push(file);
    queue.push(...file.imports);
    if (lazy) queue.push(...file.lazyImports);
  }
  return files;
}

async function measurePage(base, page, token, assetCache) {
  const url = `${base}${page.path}`;
  const cookie = page.signedIn ? { cookie: `${SESSION_COOKIE}=${encodeURIComponent(page.token ?? token)}` } : {};
  const plain = await rawGet(url, { ...cookie, 'accept-encoding': 'identity' });
  const compressed = await rawGet(url, { ...cookie, 'accept-encoding': 'br, gzip' });
  const html = plain.body.toString('utf8');
  const { urls, inline, styles, islands } = scriptsOf(html);
  const files = await measureScripts(base, url, urls, assetCache);
  const allFiles = await measureScripts(base, url, urls, assetCache, true);
  const loaded = new Set(files.map((f) => f.url));
  const css = [];
  for (const href of styles) {
    const cssUrl = new URL(href, url);
    if (cssUrl.origin === base) css.push(await fetchAsset(cssUrl.toString(), assetCache));
  }
  const inlineGzip = inline.reduce((sum, body) => sum + gzipSize(Buffer.from(body)), 0);
  return {
    path: page.path,
    status: plain.status,
    expectedStatus: page.status,
    location: plain.headers.location ?? null,
    htmlBytes: plain.body.length,
    htmlGzip: gzipSize(plain.body),
    wireBytes: compressed.body.length,
    contentEncoding: compressed.headers['content-encoding'] ?? 'none',
    jsFiles: files.map(({ url: u, status, bytes, gzip, encoding }) => ({
      url: u.replace(base, ''),
      status,
      bytes,
      gzip,
      encoding,
    })),
    inlineScripts: inline.length,
    cssFiles: css.map(({ url: u, status, bytes, gzip, encoding }) => ({
      url: u.replace(base, ''),
      status,
      bytes,
      gzip,
      encoding,
    })),
    cssGzip: css.reduce((sum, f) => sum + f.gzip, 0),
    jsGzip: files.reduce((sum, f) => sum + f.gzip, 0) + inlineGzip,
    /** Page load plus every lazily loaded chunk. */
    jsTotalGzip: allFiles.reduce((sum, f) => sum + f.gzip, 0) + inlineGzip,
    lazyJsFiles: allFiles
      .filter((f) => !loaded.has(f.url))
      .map(({ url: u, status, bytes, gzip, encoding }) => ({
        url: u.replace(base, ''),
        status,
        bytes,
        gzip,
        encoding,
      })),
    islands,
    reactRuntime: islands > 0,
  };
}

// ---- Lighthouse -------------------------------------------------------------------------------

/** The audits that cost a category points: weighted, scored, and below a perfect score. */
function failingAudits(lhr, categoryId) {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  return category.auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < (categoryId === 'performance' ? 0.9 : 1))
    .map(({ ref, audit }) => ({
      id: ref.id,
      title: audit.title,
      score: audit.score,
      displayValue: audit.displayValue ?? null,
    }));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** One Lighthouse run in a fresh Chromium (and profile). */
async function lighthouseRun(url, options) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  // A fresh browser per run: Chromium sends the cookies of its own jar (the portal sets a locale
  // cookie on every page) in place of a Cookie given in extraHeaders, which would sign the orders
  // pages out and measure the home page instead.
  if (stopping) throw new Error('stopped');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
    handleSIGINT: false,
  });
  activeChrome = chrome;
  try {
    if (stopping) throw new Error('stopped');
    const { lhr } = await lighthouse(url, {
      ...options,
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    return lhr;
  } finally {
    activeChrome = undefined;
    await chrome.kill();
  }
}

async function lighthouseAll(base, token) {
  const results = [];
  const only = flags['lighthouse-only'] ? new RegExp(flags['lighthouse-only']) : null;
  for (const page of PAGES) {
    if (only && !only.test(page.path)) continue;
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const options = {};
      if (page.signedIn)
        options.extraHeaders = { Cookie: `${SESSION_COOKIE}=${encodeURIComponent(page.token ?? token)}` };
      // Lighthouse refuses to score a document answered 4xx/5xx unless told the status is expected.
      if (page.status !== 200) options.ignoreStatusCode = true;
      const lhr = await lighthouseRun(`${base}${page.path}`, options);
      const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
      runs.push({
        performance: score('performance'),
        accessibility: score('accessibility'),
        runtimeError: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
        // A redirect (e.g. to the home page when signed out) would measure another page.
        finalUrl: lhr.finalDisplayedUrl,
        warnings: lhr.runWarnings ?? [],
        metrics: Object.fromEntries(
          [
            'first-contentful-paint',
            'largest-contentful-paint',
            'total-blocking-time',
            'cumulative-layout-shift',
            'speed-index',
          ].map((id) => [id, lhr.audits[id]?.displayValue ?? null]),
        ),
        failing: { performance: failingAudits(lhr, 'performance'), accessibility: failingAudits(lhr, 'accessibility') },
        // What moved, when the page shifted (Lighthouse's layout-shifts audit: element and score).
        layoutShifts: (lhr.audits['layout-shifts']?.details?.items ?? []).map((item) => ({
          element: item.node?.snippet ?? item.node?.selector ?? null,
          score: item.score,
        })),
      });
      process.stdout.write(
        `  lighthouse ${page.path} run ${i + 1}/${RUNS}: performance ${runs.at(-1).performance}, accessibility ${runs.at(-1).accessibility}\n`,
      );
    }
    // The median run by performance score stands for the page.
    const perf = median(runs.map((r) => r.performance ?? -1));
    const chosen = runs.find((r) => (r.performance ?? -1) === perf);
    results.push({ path: page.path, ...chosen, runs: runs.length });
  }
  return results;
}

// ---- load -------------------------------------------------------------------------------------

/** CPU seconds (user + system) process `pid` has used, from /proc (Linux); null elsewhere. */
function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** One autocannon run; with `cpuOf`, also the server's CPU time spent during it. */
async function cannon(url, headers, duration, cpuOf) {
  const { default: autocannon } = await import('autocannon');
  const before = cpuOf ? cpuSecondsOf(cpuOf) : null;
  // As a browser asks: the answers are compressed (br), the static baseline's too.
  const result = await autocannon({
    url,
    headers: { 'accept-encoding': 'br, gzip', ...headers },
    connections: CONNECTIONS,
    duration,
  });
  const after = cpuOf ? cpuSecondsOf(cpuOf) : null;
  return { result, cpu: before !== null && after !== null ? after - before : null };
}

const loadRow = (title, result, cpu) => ({
  target: title,
  'req/s (avg)': Math.round(result.requests.average),
  'latency p50 ms': result.latency.p50,
  'latency p99 ms': result.latency.p99,
  requests: result.requests.total,
  '2xx': result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  ...(cpu !== null
    ? { 'server CPU ms/req': Number(((cpu * 1000) / Math.max(1, result.requests.total)).toFixed(2)) }
    : {}),
});

async function load(title, url, headers) {
  if (stopping) throw new Error('stopped');
  process.stdout.write(`  autocannon ${title}: ${CONNECTIONS} connections, ${DURATION} s…\n`);
  const { result } = await cannon(url, headers, DURATION);
  return loadRow(title, result, null);
}

/**
 * Two targets measured in alternation (4 rounds of DURATION/4 s each), so a machine shared with
 * other work slows both alike; the server's CPU time per request is measured too (from /proc),
 * the figure least disturbed by other processes.
 */
async function loadPair(a, b, pid) {
  const rounds = 4;
  const slice = Math.max(2, Math.round(DURATION / rounds));
  process.stdout.write(`  autocannon ${a.title} / ${b.title}: ${rounds} alternating rounds of ${slice} s…\n`);
  const sum = [a, b].map(() => ({ requests: 0, seconds: 0, cpu: 0, results: [] }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of [a, b].entries()) {
      if (stopping) throw new Error('stopped');
      const { result, cpu } = await cannon(t.url, t.headers, slice, pid);
      sum[i].requests += result.requests.total;
      sum[i].seconds += result.duration;
      sum[i].cpu += cpu ?? NaN;
      sum[i].results.push(result);
    }
  }
  return [a, b].map((t, i) => {
    const last = sum[i].results.at(-1);
    const merged = {
      ...last,
      requests: { ...last.requests, average: sum[i].requests / sum[i].seconds, total: sum[i].requests },
      '2xx': sum[i].results.reduce((n, x) => n + x['2xx'], 0),
      non2xx: sum[i].results.reduce((n, x) => n + x.non2xx, 0),
      errors: sum[i].results.reduce((n, x) => n + x.errors, 0),
      timeouts: sum[i].results.reduce((n, x) => n + x.timeouts, 0),
    };
    return loadRow(t.title, merged, Number.isNaN(sum[i].cpu) ? null : sum[i].cpu);
  });
}

/**
 * `urls.length` requests, CONNECTIONS at a time over keep-alive sockets, each with its own headers
 * (the cold case: one distinct user per request). Answers the figures of a loadRow.
 */
async function distinctRequests(items, pid) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies = [];
  let next = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let wireBytes = 0;
  const one = ({ url, headers }) =>
    new Promise((resolve) => {
      const startedAt = performance.now();
      const req = http.get(
        url,
        { agent, headers: { 'accept-encoding': 'br, gzip', ...headers }, timeout: 30_000 },
        (res) => {
          let bytes = 0;
          res.on('data', (c) => (bytes += c.length));
          res.on('end', () => {
            latencies.push(performance.now() - startedAt);
            wireBytes += bytes;
            if (res.statusCode >= 200 && res.statusCode < 300) ok++;
            else non2xx++;
            resolve();
          });
          res.on('error', () => (errors++, resolve()));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => (errors++, resolve()));
    });
  const cpuBefore = pid ? cpuSecondsOf(pid) : null;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CONNECTIONS, items.length) }, async () => {
      while (next < items.length && !stopping) await one(items[next++]);
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuAfter = pid ? cpuSecondsOf(pid) : null;
  agent.destroy();
  return {
    requests: items.length,
    seconds,
    latencies,
    ok,
    non2xx,
    errors,
    wireBytes,
    cpu: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
  };
}

/**
 * The cold case: each of `tokens` asks for its orders page once (nothing in the page cache), in
 * COLD_ROUNDS rounds, each followed by as many requests for the static file. Two loadRows.
 */
async function loadCold(base, tokens, pid) {
  process.stdout.write(
    `  cold orders pages: ${tokens.length} distinct users, each asked once, ${COLD_ROUNDS} rounds alternating with the static file…\n`,
  );
  const per = Math.ceil(tokens.length / COLD_ROUNDS);
  const runs = { cold: [], static: [] };
  for (let r = 0; r < COLD_ROUNDS; r++) {
    const slice = tokens.slice(r * per, (r + 1) * per);
    if (!slice.length) break;
    if (stopping) throw new Error('stopped');
    runs.cold.push(
      await distinctRequests(
        slice.map((t) => ({
          url: `${base}/en/account/orders`,
          headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(t)}` },
        })),
        pid,
      ),
    );
    runs.static.push(
      await distinctRequests(
        slice.map(() => ({ url: `${base}/${STATIC_BASELINE_PATH}`, headers: {} })),
        pid,
      ),
    );
  }
  const row = (title, list) => {
    const sum = (k) => list.reduce((n, x) => n + x[k], 0);
    const latencies = list.flatMap((x) => x.latencies).sort((a, b) => a - b);
    const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
    const cpu = list.some((x) => x.cpu === null) ? null : sum('cpu');
    return {
      target: title,
      'req/s (avg)': Math.round(sum('requests') / sum('seconds')),
      'latency p50 ms': at(0.5),
      'latency p99 ms': at(0.99),
      requests: sum('requests'),
      '2xx': sum('ok'),
      non2xx: sum('non2xx'),
      errors: sum('errors'),
      timeouts: 0,
      ...(cpu !== null
        ? { 'server CPU ms/req': Number(((cpu * 1000) / Math.max(1, sum('requests'))).toFixed(2)) }
        : {}),
      'wire KB/req': Number((sum('wireBytes') / Math.max(1, sum('requests')) / 1024).toFixed(1)),
    };
  };
  return [
    row('GET /en/account/orders, cold (distinct users)', runs.cold),
    row('same HTML as a static file (cold pair)', runs.static),
  ];
}

// ---- main -------------------------------------------------------------------------------------

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

let server;
let dataDir;
let activeChrome;
let stopping = false;
let database;
const cleanup = async () => {
  if (activeChrome) await activeChrome.kill().catch(() => {});
  activeChrome = undefined;
  await stopServer(server);
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
  rmSync(dirname(STATIC_BASELINE), { recursive: true, force: true });
  await database?.drop();
  database = undefined;
};
// Last resort if something calls process.exit() before the asynchronous cleanup has run.
process.once('exit', () => {
  try {
    if (activeChrome?.pid) process.kill(activeChrome.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopping = true;
    console.error(`\n${signal}: stopping the server and removing the temporary data directory`);
    // main() then fails at its next step and its finally cleans up; the exit hook is the backstop.
    stopServer(server).catch(() => {});
    setTimeout(() => process.exit(130), 20_000).unref();
  });
}

async function main() {
  const started = Date.now();
  if (!flags['no-build']) {
    console.log('▸ building (npx astro build)');
    await run(npx, ['astro', 'build']);
  }

  if (flags.postgres) {
    // A throwaway database on the machine's PostgreSQL (dropped at the end), instead of PGlite.
    const { createDatabase } = await import('./cluster-lib.mjs');
    database = await createDatabase(undefined, 'portal_bench');
    console.log(`▸ PostgreSQL: throwaway database ${database.name}`);
  }
  dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  // The bench always uses the embedded PGlite database and dev identity service.
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    IDENTITY_URL: '',
    SITE_URL: '',
    AUTH_COOKIE_DOMAIN: '',
    NODE_ENV: 'production',
    ORGANISER_EMAILS: BENCH_ORGANISER,
  };
  console.log(`▸ seeding ${ORDER_COUNT} orders for ${BENCH_EMAIL} in ${dataDir}`);
  await run(npx, ['tsx', 'scripts/db.ts', 'demo-orders', '--email', BENCH_EMAIL, '--count', String(ORDER_COUNT)], env);
  // A one-time free-badge link, for the get-badge wizard page (before the server opens the database).
  const linkOut = await capture(npx, ['tsx', 'scripts/badge-link.ts', '--type', 'vip'], env);
  // The cold case's users, each with as many orders as the bench user (before the server starts).
  let coldTokens = [];
  if (!flags['no-load'] && COLD_USERS > 0) {
    console.log(`▸ seeding ${COLD_USERS} users of ${ORDER_COUNT} orders each (the cold case)`);
    const out = join(dataDir, 'cold-users.json');
    await capture(
      npx,
      [
        'tsx',
        'scripts/load-fixtures.ts',
        'orders',
        '--users',
        String(COLD_USERS),
        '--orders',
        String(ORDER_COUNT),
        '--out',
        out,
      ],
      env,
    );
    coldTokens = JSON.parse(readFileSync(out, 'utf8')).tokens;
  }
  if (COLD_ONLY) {
    // Only the orders page is weighed; nothing else is seeded.
    PAGES.splice(0, PAGES.length, ...PAGES.filter((p) => p.path === '/en/account/orders'));
  } else {
    // The exhibitor directory's exhibitors (issue 23), listed, without logos.
    console.log(`▸ seeding ${DIRECTORY_EXHIBITORS} exhibitors for the directory`);
    await run(npx, ['tsx', 'scripts/db.ts', 'demo-exhibitors', '--count', String(DIRECTORY_EXHIBITORS)], env);
    const link = /\/en\/get-badge\/([^/\s]+)\/(\S+)/.exec(linkOut);
    if (!link) throw new Error(`scripts/badge-link.ts printed no link:\n${linkOut}`);
    PAGES.push({ path: link[0], status: 200, signedIn: true, interactive: true });
  }

  const port = flags.port ? positiveInt('port') : await freePort();
  const base = `http://${HOST}:${port}`;
  // The server lists dist/client once at start-up (decision 072): the static baseline's file must
  // be there before it starts; its content (the orders page's HTML) is written in the load step.
  if (!flags['no-load']) {
    mkdirSync(dirname(STATIC_BASELINE), { recursive: true });
    writeFileSync(STATIC_BASELINE, '');
  }
  console.log(`▸ starting node server.mjs on ${base}`);
  server = startServer({ ...env, PORT: String(port), HOST, LOG_LEVEL: 'warn' });
  await waitForServer(base, server);

  console.log('▸ signing in through the dev identity service');
  const token = await signIn(base);

  // One exhibitor's page of the directory.
  if (!COLD_ONLY) {
    const res = await rawGet(`${base}/api/v1/market/exhibitors?limit=1`, { 'accept-encoding': 'identity' });
    const { data, meta } = JSON.parse(res.body.toString('utf8'));
    if (meta?.total !== DIRECTORY_EXHIBITORS)
      throw new Error(`the directory lists ${meta?.total} exhibitors, not ${DIRECTORY_EXHIBITORS}`);
    PAGES.push({ path: `/zh-tw/market/exhibitors/${data[0].id}`, status: 200 });
  }

  // The pay page of an unpaid charged order of the bench user.
  if (!COLD_ONLY) {
    const res = await rawGet(`${base}/api/v1/orders?limit=100`, {
      authorization: `Bearer ${token}`,
      'accept-encoding': 'identity',
    });
    const orders = JSON.parse(res.body.toString('utf8')).data;
    const unpaid = orders.find((o) => o.payment_status === 'pending' && o.amount_cents > 0);
    if (!unpaid) throw new Error('the bench user has no unpaid charged order');
    PAGES.push({
      path: `/en/events/${unpaid.event_slug}/registrations/${unpaid.order_id}/pay`,
      status: 200,
      signedIn: true,
      interactive: true,
    });
  }
  // The badge pay page, of another user (an unpaid badge order sends badges/new to its pay page).
  if (!COLD_ONLY) {
    const badgeToken = await signIn(base, 'bench-badge@example.com');
    const orderId = await createBadgeOrder(base, badgeToken);
    PAGES.push({
      path: `/en/badges/${orderId}/pay`,
      status: 200,
      signedIn: true,
      token: badgeToken,
      interactive: true,
    });
  }
  // The summary of a transfer being checked shows its remittance/invoice editor (PaymentForm):
  // a third user's badge order, paid by a (declared) bank transfer.
  if (!COLD_ONLY) {
    const transferToken = await signIn(base, 'bench-transfer@example.com');
    const orderId = await createBadgeOrder(base, transferToken);
    const res = await fetch(`${base}/api/v1/demonstration_order`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${transferToken}`, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({
        payment: { type: 'TWD', remitter: 'Bench Transfer', sender_bank: 'Bench Bank', last_five_digits: '12345' },
        receipt: { kind: 'personal', invoice_title: '', unified_business_number: '' },
        lang: 'zh-TW',
      }),
    });
    if (res.status !== 200)
      throw new Error(`PUT /api/v1/demonstration_order answered ${res.status}: ${await res.text()}`);
    PAGES.push({
      path: `/zh-tw/events/badge-professional/registrations/${orderId}`,
      status: 200,
      signedIn: true,
      token: transferToken,
      interactive: true,
    });
  }

  // The badge desk (issue 11), an interactive back-office page, for a signed-in organiser; its
  // camera and QR decoder are lazy chunks, counted in its total.
  if (!COLD_ONLY) {
    const organiserToken = await signIn(base, BENCH_ORGANISER);
    PAGES.push({ path: '/en/admin/desk', status: 200, signedIn: true, token: organiserToken, interactive: true });
  }

  console.log('▸ measuring page weight');
  const assetCache = new Map();
  const pages = [];
  for (const page of PAGES) {
    if (stopping) throw new Error('stopped');
    pages.push(await measurePage(base, page, token, assetCache));
  }

  const api = await rawGet(`${base}/api/v1/orders?limit=100`, {
    authorization: `Bearer ${token}`,
    'accept-encoding': 'br, gzip',
  });
  const apiPlain = await rawGet(`${base}/api/v1/orders?limit=100`, {
    authorization: `Bearer ${token}`,
    'accept-encoding': 'identity',
  });
  let apiOrders = null;
  try {
    apiOrders = JSON.parse(apiPlain.body.toString('utf8')).data?.length ?? null;
  } catch {
    // reported as null
  }
  const apiCheck = {
    status: api.status,
    contentEncoding: api.headers['content-encoding'] ?? 'none',
    bytes: apiPlain.body.length,
    wireBytes: api.body.length,
    orders: apiOrders,
  };

  let lighthouse = null;
  if (!flags['no-lighthouse']) {
    console.log(`▸ Lighthouse (mobile preset), ${RUNS} run(s) per page`);
    lighthouse = await lighthouseAll(base, token);
  }

  let loadResults = null;
  let ssrRatio = null;
  let cpuRatio = null;
  let coldResults = null;
  let coldRatio = null;
  let coldCpuRatio = null;
  if (!flags['no-load']) {
    console.log('▸ load');
    // The static baseline (DESIGN §4): the orders page's own HTML as a file the same server
    // serves from dist/client, so both go through the same process, compression and sockets.
    const page = await rawGet(`${base}/en/account/orders`, {
      cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
      'accept-encoding': 'identity',
    });
    writeFileSync(STATIC_BASELINE, page.body);
    const [ssr, baseline] = COLD_ONLY
      ? [null, null]
      : await loadPair(
          {
            title: 'GET /en/account/orders',
            url: `${base}/en/account/orders`,
            headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}` },
          },
          { title: 'same HTML as a static file', url: `${base}/${STATIC_BASELINE_PATH}`, headers: {} },
          server.child.pid,
        );
    if (coldTokens.length) {
      coldResults = await loadCold(base, coldTokens, server.child.pid);
      const [cold, coldStatic] = coldResults;
      coldRatio = coldStatic['req/s (avg)'] > 0 ? cold['req/s (avg)'] / coldStatic['req/s (avg)'] : null;
      coldCpuRatio =
        cold['server CPU ms/req'] && coldStatic['server CPU ms/req']
          ? coldStatic['server CPU ms/req'] / cold['server CPU ms/req']
          : null;
    }
    rmSync(dirname(STATIC_BASELINE), { recursive: true, force: true });
    if (COLD_ONLY) loadResults = coldResults;
    else {
      ssrRatio = baseline['req/s (avg)'] > 0 ? ssr['req/s (avg)'] / baseline['req/s (avg)'] : null;
      cpuRatio =
        ssr['server CPU ms/req'] && baseline['server CPU ms/req']
          ? baseline['server CPU ms/req'] / ssr['server CPU ms/req']
          : null;
      loadResults = [
        ssr,
        baseline,
        ...(coldResults ?? []),
        await load('GET /api/v1/orders?limit=100', `${base}/api/v1/orders?limit=100`, {
          authorization: `Bearer ${token}`,
        }),
        // The exhibitor directory's render with its 300 exhibitors (issue 23): a page of 24, and a
        // search that reads every exhibitor's names, profiles and works.
        await load(
          `GET /en/market/exhibitors (${DIRECTORY_EXHIBITORS} exhibitors)`,
          `${base}/en/market/exhibitors`,
          {},
        ),
        await load(
          'GET /en/market/exhibitors?q=… (a search)',
          `${base}/en/market/exhibitors?q=kitchen&country=TWN`,
          {},
        ),
        await load('GET /api/v1/market/exhibitors?limit=100', `${base}/api/v1/market/exhibitors?limit=100`, {}),
      ];
    }
  }

  // ---- report ---------------------------------------------------------------------------------
  console.log('\nPage weight');
  console.table(
    pages.map((p) => ({
      page: p.path,
      status: p.status,
      'HTML raw': kb(p.htmlBytes),
      'HTML gzip': kb(p.htmlGzip),
      'JS gzip (page load)': kb(p.jsGzip),
      'JS gzip (total, lazy too)': kb(p.jsTotalGzip),
      'JS files': `${p.jsFiles.length} + ${p.lazyJsFiles.length} lazy`,
      'inline scripts': p.inlineScripts,
      'CSS gzip': kb(p.cssGzip),
      React: p.reactRuntime ? 'yes' : 'no',
      encoding: p.contentEncoding,
      'on the wire': kb(p.wireBytes),
    })),
  );
  console.log(
    `API GET /api/v1/orders?limit=100: ${apiCheck.status}, ${apiCheck.orders} orders, ${kb(apiCheck.bytes)} raw, ${kb(apiCheck.wireBytes)} ${apiCheck.contentEncoding}`,
  );

  if (lighthouse) {
    console.log('\nLighthouse (mobile)' + (RUNS > 1 ? `, median of ${RUNS} runs` : ''));
    console.table(
      lighthouse.map((l) => ({
        page: l.path,
        performance: l.performance,
        accessibility: l.accessibility,
        FCP: l.metrics['first-contentful-paint'],
        LCP: l.metrics['largest-contentful-paint'],
        TBT: l.metrics['total-blocking-time'],
        CLS: l.metrics['cumulative-layout-shift'],
      })),
    );
  }
  if (loadResults) {
    console.log(`\nLoad (autocannon, ${CONNECTIONS} connections, ${DURATION} s, accept-encoding: br, gzip)`);
    console.table(loadResults);
    if (ssrRatio !== null)
      console.log(
        `Orders page (${ORDER_COUNT} orders) vs the same HTML as a static file: ${ssrRatio.toFixed(2)}× the requests per second` +
          (cpuRatio !== null ? `; by the server's CPU time per request: ${cpuRatio.toFixed(2)}×` : ''),
      );
    if (coldRatio !== null) {
      const ordersPage = pages.find((p) => p.path === '/en/account/orders');
      console.log(
        `Orders page cold (${coldTokens.length} distinct users of ${ORDER_COUNT} orders, each once) vs the static file: ` +
          `${coldRatio.toFixed(2)}× the requests per second` +
          (coldCpuRatio !== null ? `; by the server's CPU time per request: ${coldCpuRatio.toFixed(2)}×` : '') +
          (ordersPage
            ? `; the page is ${kb(ordersPage.htmlBytes)} of HTML, ${kb(ordersPage.wireBytes)} ${ordersPage.contentEncoding}`
            : ''),
      );
    }
  }

  // ---- budgets --------------------------------------------------------------------------------
  const checks = [];
  const check = (budget, subject, ok, actual) =>
    checks.push({ budget, subject, result: ok === null ? 'SKIP' : ok ? 'PASS' : 'FAIL', actual });
  for (const p of pages) {
    check(
      `status ${p.expectedStatus}`,
      p.path,
      p.status === p.expectedStatus,
      p.location ? `${p.status} → ${p.location}` : String(p.status),
    );
    if (PAGES.find((x) => x.path === p.path)?.interactive) {
      // "In total": what the page loads up front and every chunk it may load later.
      const actual = `${kb(p.jsGzip)} + lazy = ${kb(p.jsTotalGzip)}`;
      const exception = JS_TOTAL_EXCEPTIONS.find((e) => e.path.test(p.path));
      if (p.jsTotalGzip > BUDGET.interactiveJsGzipBytes && exception && p.jsTotalGzip <= exception.ceilingBytes) {
        checks.push({
          budget: 'JS total ≤ 100 KB gzip (wizard/pay)',
          subject: p.path,
          result: 'OVER',
          actual: `${actual} (decision 006: at most ${kb(exception.ceilingBytes)})`,
        });
      } else {
        check('JS total ≤ 100 KB gzip (wizard/pay)', p.path, p.jsTotalGzip <= BUDGET.interactiveJsGzipBytes, actual);
      }
      // A wizard or payment page without its island would be measured light for the wrong reason.
      check('island rendered', p.path, p.islands > 0, `${p.islands} island(s)`);
    } else {
      check('no React', p.path, !p.reactRuntime, `${p.islands} island(s)`);
      check('JS ≤ 5 KB gzip', p.path, p.jsGzip <= BUDGET.jsGzipBytes, kb(p.jsGzip));
    }
    check('compressed', p.path, p.contentEncoding !== 'none', p.contentEncoding);
  }
  for (const asset of assetCache.values()) {
    // compression's threshold is 512 bytes: smaller responses are left as they are.
    const kind = /css/.test(asset.type) ? 'CSS' : 'JS';
    if (asset.bytes >= 1024)
      check(`${kind} compressed (br/gzip)`, asset.url.replace(base, ''), asset.encoding !== 'none', asset.encoding);
  }
  check(
    'API 200 + compressed',
    '/api/v1/orders?limit=100',
    apiCheck.status === 200 && apiCheck.contentEncoding !== 'none',
    `${apiCheck.status} ${apiCheck.contentEncoding}`,
  );
  for (const page of PAGES) {
    const l = lighthouse?.find((r) => r.path === page.path);
    check(
      'LH on this page',
      page.path,
      l ? new URL(l.finalUrl).pathname === page.path : null,
      l ? `ended on ${l.finalUrl.replace(base, '')}` : 'skipped',
    );
    check(
      'LH perf ≥ 95',
      page.path,
      l ? l.performance !== null && l.performance >= BUDGET.performance : null,
      l ? String(l.performance ?? l.runtimeError?.split(':')[0]) : 'skipped',
    );
    check(
      'LH a11y = 100',
      page.path,
      l ? l.accessibility !== null && l.accessibility >= BUDGET.accessibility : null,
      l ? String(l.accessibility ?? l.runtimeError?.split(':')[0]) : 'skipped',
    );
  }
  if (loadResults) {
    if (!COLD_ONLY)
      check(
        'SSR ≥ 0.6× static (orders page)',
        '/en/account/orders',
        ssrRatio !== null && ssrRatio >= BUDGET.ssrToStatic,
        ssrRatio === null ? 'not measured' : `${ssrRatio.toFixed(2)}×`,
      );
    if (coldTokens.length)
      check(
        'SSR cold ≥ 0.6× static (orders page, distinct users)',
        '/en/account/orders',
        coldRatio !== null && coldRatio >= BUDGET.ssrToStatic,
        coldRatio === null ? 'not measured' : `${coldRatio.toFixed(2)}×`,
      );
  }
  for (const r of loadResults ?? []) {
    check(
      'load: only 2xx, no errors',
      r.target,
      r.non2xx === 0 && r.errors === 0 && r.timeouts === 0,
      `${r['2xx']} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors`,
    );
  }

  // One row per page, one column per budget; the remaining checks are listed below it.
  const perPage = new Map();
  const others = [];
  for (const c of checks) {
    if (!PAGES.some((p) => p.path === c.subject)) {
      others.push(c);
      continue;
    }
    const row = perPage.get(c.subject) ?? { page: c.subject };
    row[c.budget.replace(/^status \d+$/, 'status')] = ['FAIL', 'OVER'].includes(c.result)
      ? `${c.result} (${c.actual})`
      : c.result;
    perPage.set(c.subject, row);
  }
  console.log('\nBudgets (DESIGN §4)');
  console.table([...perPage.values()]);
  console.table(others);

  const failedAudits = (lighthouse ?? []).filter(
    (l) => l.performance < BUDGET.performance || l.accessibility < BUDGET.accessibility,
  );
  for (const l of failedAudits) {
    console.log(`\nLighthouse audits below par on ${l.path}:`);
    if (l.runtimeError) console.log(`  runtime error ${l.runtimeError}`);
    for (const shift of l.layoutShifts ?? []) console.log(`  layout shift ${shift.score.toFixed(3)}: ${shift.element}`);
    for (const category of ['performance', 'accessibility']) {
      for (const a of l.failing[category])
        console.log(
          `  [${category}] ${a.id} — ${a.title} (score ${a.score}${a.displayValue ? `, ${a.displayValue}` : ''})`,
        );
    }
  }
  const serverErrors = server.log.filter((line) => /"level":"error"|\b500\b|Error:/.test(line));
  if (serverErrors.length) {
    console.log('\nServer errors logged during the bench:');
    for (const line of serverErrors.slice(-20)) console.log(`  ${line}`);
  }

  const failed = checks.filter((c) => c.result === 'FAIL');
  const over = checks.filter((c) => c.result === 'OVER');
  const results = {
    date: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    options: {
      runs: RUNS,
      duration: DURATION,
      connections: CONNECTIONS,
      build: !flags['no-build'],
      lighthouse: !flags['no-lighthouse'],
      load: !flags['no-load'],
      coldUsers: COLD_USERS,
      coldOnly: COLD_ONLY,
    },
    budgets: BUDGET,
    pages,
    api: apiCheck,
    lighthouse,
    load: loadResults,
    ssrToStatic: ssrRatio,
    ssrToStaticByCpu: cpuRatio,
    coldSsrToStatic: coldRatio,
    coldSsrToStaticByCpu: coldCpuRatio,
    coldUsers: coldTokens.length,
    database: flags.postgres ? 'postgres' : 'pglite',
    checks,
    serverErrors,
    passed: failed.length === 0,
  };
  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench-results', 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(
    `\n${failed.length ? `FAIL: ${failed.length} of ${checks.length} checks failed` : `PASS: ${checks.length - over.length} of ${checks.length} checks passed`}${over.length ? `, ${over.length} over the budget within a recorded exception (decision 006)` : ''} — bench-results/latest.json written`,
  );
  return failed.length === 0;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(stopping ? '\nbench stopped' : `\nbench failed: ${error?.stack ?? error}`);
  if (server?.log.length) console.error(`last server output:\n  ${server.log.slice(-30).join('\n  ')}`);
} finally {
  await cleanup();
}
process.exit(stopping ? 130 : ok ? 0 : 1);
