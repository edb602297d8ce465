import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/*
 * Browser tests against the built server (`npm run test:e2e` builds first). Chromium comes from
 * CHROMIUM_PATH, else Debian's /usr/bin/chromium when present, else Playwright's own browser
 * (`npx playwright install chromium` on a machine that can download it).
 */
const PORT = Number(process.env.E2E_PORT ?? 4399);
/** The fresh portal of edition.spec.ts: no seed, no edition, no events. */
// PORT + 1 and + 2 are the OIDC interop spec's, + 7 and + 8 the error-pages and abuse specs'.
const FRESH_PORT = PORT + 5;
const DATA_DIR = process.env.E2E_DATA_DIR ?? join(tmpdir(), `portal-e2e-${process.pid}`);
/** The operator API's token for this run (tests run `npm run orders` / `badge-link` against the server). */
export const OPERATOR_TOKEN = (process.env.E2E_OPERATOR_TOKEN ??= 'e2e-operator-token-not-a-secret-0001');
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // Two workers (files spread over them, a file's tests in order), in CI too: the whole suite
  // passed that way with no retry under a load of 12 on 2 cores (26.5 min against 34 with one).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      // edition.spec.ts runs on the fresh portal below.
      testIgnore: /edition\.spec\.ts$/,
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          ...(executablePath ? { executablePath } : {}),
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
    {
      // A portal that starts empty (no seed, as production with an external identity provider).
      name: 'fresh',
      testMatch: /edition\.spec\.ts$/,
      use: {
        ...devices['Desktop Chrome'],
        baseURL: `http://127.0.0.1:${FRESH_PORT}`,
        launchOptions: { ...(executablePath ? { executablePath } : {}), args: ['--headless', '--no-sandbox'] },
      },
    },
  ],
  webServer: [
    {
      // Demo orders for cards@example.com, and the events contact-deadline.spec.ts may change.
      command: `rm -rf ${DATA_DIR} && npx tsx scripts/db.ts demo-orders --email cards@example.com --count 12 && npx tsx tests/e2e/deadline-events.ts && node server.mjs`,
      url: `http://127.0.0.1:${PORT}/api/v1/events`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        LOG_LEVEL: 'warn',
        OPERATOR_TOKEN,
        // The back office's organisers in the browser tests (the badge desk signs in two desks).
        ORGANISER_EMAILS: 'organiser@example.com, desk-one@example.com, desk-two@example.com',
      },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `rm -rf ${DATA_DIR}-fresh && node server.mjs`,
      url: `http://127.0.0.1:${FRESH_PORT}/api/v1/events`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(FRESH_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: `${DATA_DIR}-fresh`,
        LOG_LEVEL: 'warn',
        SEED: 'false',
        OPERATOR_TOKEN,
        ORGANISER_EMAILS: 'first-admin@example.com',
      },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
