import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Provider from 'oidc-provider';

/*
 * Sign-in interop (issue 12): the built portal against `oidc-provider`, the certified OpenID
 * Provider package, in its stock configuration (discovery, its own login and consent pages, opaque
 * access tokens, the `iss` authorization response parameter) with one client that must use PKCE.
 * The only other settings give the account an e-mail and a name, which the portal needs: the
 * stock account has nothing but `sub`.
 *
 * Ports: E2E_PORT + 1 (the provider) and E2E_PORT + 2 (this portal), beside the suite's server.
 */
const BASE_PORT = Number(process.env.E2E_PORT ?? 4399);
const PROVIDER = `http://127.0.0.1:${BASE_PORT + 1}`;
const PORTAL = `http://127.0.0.1:${BASE_PORT + 2}`;
const CLIENT = { id: 'registration-portal', secret: 'interop-client-secret-not-a-secret' };

let provider: Server;
let portal: ChildProcess;
let dataDir: string;
let portalLog = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const oidc = new Provider(PROVIDER, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${PORTAL}/api/v1/user/callback`],
        // Log out comes back to the site root (RP-initiated logout, issue 20).
        post_logout_redirect_uris: [`${PORTAL}/`],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@example.com`, email_verified: true, name: 'Interop Tester' }),
    }),
  });
  provider = oidc.listen(BASE_PORT + 1);
  await new Promise<void>((resolve) => provider.once('listening', () => resolve()));

  dataDir = mkdtempSync(join(tmpdir(), 'portal-interop-'));
  portal = spawn(process.execPath, ['server.mjs'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(BASE_PORT + 2),
      DATA_DIR: dataDir,
      SITE_URL: PORTAL,
      IDENTITY_MODE: 'oidc',
      IDENTITY_ISSUER: PROVIDER,
      IDENTITY_CLIENT_ID: CLIENT.id,
      IDENTITY_CLIENT_SECRET: CLIENT.secret,
      SESSION_SECRET: 'interop-session-secret-not-a-secret-0001',
      PICKUP_CODE_SECRET: 'interop-pickup-secret-0001',
      ALLOW_SANDBOX_GATEWAY: 'true',
      ALLOW_SANDBOX_INVOICE: 'true',
      ALLOW_OUTBOX_MAIL: 'true',
      ALLOW_DEV_CONTENT: 'true',
      DATABASE_URL: '',
      OPERATOR_TOKEN: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  portal.stdout!.on('data', (d: Buffer) => (portalLog += d.toString()));
  portal.stderr!.on('data', (d: Buffer) => (portalLog += d.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (portal.exitCode !== null) throw new Error(`the portal did not start:\n${portalLog}`);
    if (/portal ready/.test(portalLog)) break;
    if (Date.now() > deadline) throw new Error(`the portal did not start in time:\n${portalLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (portal && portal.exitCode === null) {
    portal.kill('SIGTERM');
    await new Promise((r) => portal.once('exit', r));
  }
  await new Promise((r) => provider?.close(r));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('signs in through oidc-provider (discovery, PKCE, opaque access token), shows the orders, logs out of both', async ({
  page,
  context,
}) => {
  await page.goto(`${PORTAL}/en/account/orders`);
  // Signed out: home, with the way back to the order list stored.
  await expect(page).toHaveURL(`${PORTAL}/en/`);
  await page.getByRole('main').getByRole('link', { name: 'Sign in / Register' }).click();

  // The provider's own login page, then its consent page.
  await expect(page).toHaveURL(new RegExp(`^${PROVIDER}/interaction/`));
  await page.getByPlaceholder('Enter any login').fill('interop-user');
  await page.getByPlaceholder('and password').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Back on the portal, signed in, on the page the sign-in started from.
  await expect(page).toHaveURL(`${PORTAL}/en/account/orders`);
  await expect(page.getByRole('heading', { level: 1, name: 'Order list' })).toBeVisible();
  await expect(page.getByRole('banner').locator('summary')).toContainText('Interop Tester');
  const session = (await context.cookies(PORTAL)).find((c) => c.name === 'portal-session');
  expect(session?.httpOnly).toBe(true);

  // Log out: the session ends (on the server too), and at the provider (RP-initiated logout,
  // issue 20): at the venue's shared computers the next person must not find it signed in. The
  // provider asks for confirmation, then sends the browser back to the portal.
  await page.getByRole('banner').locator('summary').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(new RegExp(`^${PROVIDER}/session/end`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${PORTAL}/en/`);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in / Register' })).toBeVisible();
  const replay = await page.request.get(`${PORTAL}/api/v1/user/me`, {
    headers: { cookie: `portal-session=${session!.value}` },
  });
  expect(replay.status()).toBe(401);

  // The provider's session is over too: signing in again asks for the login, not just consent.
  await page.getByRole('main').getByRole('link', { name: 'Sign in / Register' }).click();
  await expect(page).toHaveURL(new RegExp(`^${PROVIDER}/interaction/`));
  await expect(page.getByPlaceholder('Enter any login')).toBeVisible();
  expect(portalLog).not.toMatch(/"level":"error"/);
});
