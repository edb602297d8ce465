import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/*
 * When the registration API fails, pages say so with a 5xx status (not 200 or 404, so no cache or
 * search engine keeps them) and show only the status, never the API's address or error text,
 * which the log keeps. A second portal, built the same, whose pages call an API_BASE_URL where
 * nothing listens.
 */

const PORT = Number(process.env.E2E_PORT ?? 4399) + 7;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const API_BASE_URL = 'http://127.0.0.1:9/internal-registration-api';

let server: ChildProcess;
let dataDir: string;
let log = '';

test.beforeAll(async () => {
  // A fresh data directory: migrations and the seed run first, slow on a loaded machine.
  test.setTimeout(150_000);
  dataDir = mkdtempSync(join(tmpdir(), 'portal-error-pages-'));
  server = spawn(process.execPath, ['server.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_BASE_URL,
      REQUEST_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (log += String(d)));
  server.stderr!.on('data', (d) => (log += String(d)));
  for (let i = 0; i < 600 && !/portal ready/.test(log); i++) await new Promise((r) => setTimeout(r, 200));
  expect(log, 'the second portal started').toMatch(/portal ready/);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dataDir, { recursive: true, force: true });
});

for (const locale of ['en', 'zh-tw'] as const) {
  test(`pages whose API call failed answer 502 and hide the API's address (${locale})`, async ({ request }) => {
    const phrase = locale === 'en' ? 'Bad Gateway' : '報名服務暫時無法回應';
    for (const path of [`/${locale}/`, `/${locale}/events/opening-forum`, `/${locale}/badges/new`]) {
      const before = log.length;
      const res = await request.get(`${ORIGIN}${path}`, { maxRedirects: 0 });
      expect(res.status(), path).toBe(502);
      const html = await res.text();
      expect(html, path).not.toContain('127.0.0.1:9');
      expect(html, path).not.toContain('internal-registration-api');
      expect(html, path).not.toMatch(/ECONNREFUSED|fetch failed/);
      expect(html, path).toContain('<meta name="robots" content="noindex">');
      expect(res.headers()['cache-control'] ?? '', path).not.toContain('public');
      if (path !== `/${locale}/`) expect(html, path).toContain(phrase);
      // The log keeps what happened, with the address.
      await expect.poll(() => log.slice(before)).toContain('internal-registration-api');
    }
  });
}
