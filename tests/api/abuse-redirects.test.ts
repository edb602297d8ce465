import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETURN_PATH_COOKIE } from '@domain/return-path';
import { seed } from '@server/db/seed';
import { applyBadge, keysOf, postForm, signedCallback } from './fixtures';
import {
  createTestApp,
  openTestDatabase,
  setCookies,
  signIn,
  TEST_ORIGIN,
  type TestApp,
  type TestDatabase,
} from './helpers';

/**
 * Abuse suite, part 4 (issue 12): no open redirect on the API's return paths: the sign-in start's
 * `return_to` (and the return-path cookie it stores), the sign-in callback, the gateway's return,
 * and the development identity service's redirect URIs. The pages' return paths (the stored
 * cookie on /auth/callback, `fromPath` of log out) are checked by tests/e2e/abuse.spec.ts.
 */
export const HOSTILE_RETURN_PATHS = [
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\/evil.example',
  '/\t/evil.example',
  '/%2F%2Fevil.example',
  '%2F%2Fevil.example',
  '/.//evil.example',
  '/./\\evil.example',
  ' //evil.example',
  'https://evil.example/',
  'http:evil.example',
  'javascript:alert(1)',
  'data:text/html,hi',
  '/\u0000//evil.example',
  '/\u3000/evil.example',
  '/%09/evil.example',
  '/..//evil.example',
];

/** Where a redirect goes, resolved against our origin: it must be our origin. */
export const staysHome = (location: string | null, origin = TEST_ORIGIN) =>
  location !== null && new URL(location, origin).origin === origin;

describe('abuse: open redirects on the API’s return paths', () => {
  let database: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database);
  });
  afterAll(() => database.close());

  it('the sign-in start keeps only a same-site return path, whatever `return_to` holds', async () => {
    for (const hostile of HOSTILE_RETURN_PATHS) {
      const res = await app.request(`/api/v1/user/signin?return_to=${encodeURIComponent(hostile)}`);
      // Refused outright (a NUL), or sent to the identity service (the embedded one, on this origin).
      if (res.status === 400) continue;
      expect(res.status, hostile).toBe(302);
      expect(staysHome(res.headers.get('location')), hostile).toBe(true);
      const stored = setCookies(res)[RETURN_PATH_COOKIE];
      if (stored !== undefined)
        expect(staysHome(stored) && !stored.startsWith('//'), `${hostile} → ${stored}`).toBe(true);
    }
  });

  it('the full sign-in with a hostile return_to lands on our own page', async () => {
    for (const hostile of HOSTILE_RETURN_PATHS.slice(0, 6)) {
      const { callback } = await signIn(app, 'redirect@example.com', '', { returnTo: hostile });
      expect(staysHome(callback.headers.get('location')), hostile).toBe(true);
    }
  });

  it('the sign-in callback sends the browser home whatever its query and cookies hold', async () => {
    const cases: [string, string][] = [
      ['/api/v1/user/callback?code=x&state=y', 'idc-state=y.//evil.example'],
      ['/api/v1/user/callback?error=access_denied&state=y', 'idc-state=y.https://evil.example'],
      ['/api/v1/user/callback?state=y&code=x&redirect=https://evil.example', `idc-state=y.en; locale=//evil.example`],
      ['/api/v1/user/callback', `locale=${encodeURIComponent('/\\evil.example')}`],
    ];
    for (const [path, cookie] of cases) {
      const res = await app.request(path, { headers: { cookie } });
      expect(res.status, path).toBe(302);
      expect(staysHome(res.headers.get('location')), `${path} → ${res.headers.get('location')}`).toBe(true);
    }
  });

  it('the gateway’s return sends the browser home, whatever its lang and body hold', async () => {
    const { token } = await signIn(app, 'return@example.com');
    const order = await applyBadge(app, token);
    const genuine = signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000 });
    for (const lang of ['//evil.example', 'https://evil.example', '/\\evil', 'en']) {
      for (const body of [genuine, { ...genuine, TradeSha: 'A'.repeat(64) }, { ReturnURL: 'https://evil.example' }]) {
        const res = await postForm(app, `/api/v1/payment/newebpay/return?lang=${encodeURIComponent(lang)}`, body);
        if (res.status >= 300 && res.status < 400)
          expect(staysHome(res.headers.get('location')), `${lang} → ${res.headers.get('location')}`).toBe(true);
        else expect(res.status).toBe(400);
      }
    }
  });

  it('the development identity service redirects only to the portal’s own origin', async () => {
    for (const hostile of ['https://evil.example/api/v1/user/callback', '//evil.example/cb', 'javascript:alert(1)']) {
      const query = new URLSearchParams({
        client_id: app.config.IDENTITY_CLIENT_ID,
        redirect_uri: hostile,
        response_type: 'code',
        state: 's',
        login_redirect_uri: hostile,
      });
      for (const path of [`/dev-identity/authorize?${query}`, `/dev-identity/signin?${query}`]) {
        const res = await app.request(path);
        const location = res.headers.get('location');
        if (location) expect(staysHome(location), `${path} → ${location}`).toBe(true);
      }
    }
  });
});
