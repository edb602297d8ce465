import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, SignJWT, generateKeyPair } from 'jose';
import { sessions } from '@server/db/schema';
import { createDevIdentity, loadSigner } from '@server/identity/dev-identity';
import { createOidcClient, OidcSignInError, type FetchLike } from '@server/identity/oidc-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENCY } from './fixtures';
import {
  authCookie,
  bearer,
  createTestApp,
  DATABASES,
  openTestDatabase,
  providerToken,
  setCookies,
  signIn,
  TEST_ORIGIN,
  type TestApp,
  type TestDatabase,
} from './helpers';

const CALLBACK = `${TEST_ORIGIN}/api/v1/user/callback`;
const ISSUER = `${TEST_ORIGIN}/dev-identity`;

/** Log lines of an app, to see what a refused sign-in says. */
function logSink() {
  const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  return {
    lines,
    log: (level: string, message: string, data?: Record<string, unknown>) => lines.push({ level, message, data }),
  };
}

/** The sign-in form's fields for an authorization request the dev provider showed it for. */
async function formFor(app: TestApp, authorizeUrl: URL) {
  const res = await app.request(authorizeUrl.pathname + authorizeUrl.search);
  expect(res.status).toBe(302);
  const signin = new URL(res.headers.get('location')!, TEST_ORIGIN);
  expect(signin.pathname).toBe('/dev-identity/signin');
  return new URLSearchParams(signin.searchParams);
}

describe.each(DATABASES)('sign-in through OpenID Connect, the default mode (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let sink: ReturnType<typeof logSink>;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    sink = logSink();
    app = await createTestApp(database, {}, { log: sink.log });
  });

  /** Starts a sign-in; the authorization request, its state cookie and the form the provider shows. */
  async function start(query = 'locale=en') {
    const res = await app.request(`/api/v1/user/signin?${query}`);
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    const state = setCookies(res)['idc-state']!;
    return { res, url, state, form: await formFor(app, url) };
  }
  /** The provider's answer to the form (its redirect to our callback). */
  async function submit(form: URLSearchParams, email = 'amy@example.com', name = 'Amy') {
    form.set('email', email);
    form.set('name', name);
    const res = await app.request('/dev-identity/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(res.status).toBe(303);
    return new URL(res.headers.get('location')!);
  }
  const callback = (url: URL, state: string) =>
    app.request(url.pathname + url.search, { headers: { cookie: `idc-state=${state}` } });

  it('discovers the provider and sends the browser to its authorization endpoint with PKCE, nonce and scope', async () => {
    const discovery = await (await app.request('/dev-identity/.well-known/openid-configuration')).json();
    expect(discovery).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
    });
    const { res, url, state } = await start('locale=zh-TW&return_to=/zh-tw/account/orders');
    expect(url.origin + url.pathname).toBe(`${ISSUER}/authorize`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe('registration-portal');
    expect(q.get('redirect_uri')).toBe(CALLBACK);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('nonce')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('ui_locales')).toBe('zh-TW');
    // The state cookie is signed and carries what the callback must match, the verifier among them.
    const line = res.headers.getSetCookie().find((l) => l.startsWith('idc-state='))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Path=\/api\/v1\/user/);
    expect(decodeJwt(state)).toMatchObject({ state: q.get('state'), nonce: q.get('nonce'), locale: 'zh-TW' });
    expect(setCookies(res)['idc-return-path']).toBe('/zh-tw/account/orders');
  });

  it('completes the flow: e-mail and name from user-info, the session in an HttpOnly cookie, idc-token unused', async () => {
    const { token, callback: done } = await signIn(app, 'amy@example.com', 'Amy');
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/en/auth/callback');
    const line = done.headers.getSetCookie().find((l) => l.startsWith('portal-session='))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/Max-Age=14400/); // SESSION_IDLE_SECONDS
    expect(line).not.toMatch(/Secure/); // over http
    expect(setCookies(done)['idc-token']).toBeUndefined();
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256', typ: 'session+jwt' });
    for (const init of [bearer(token), { headers: { cookie: authCookie(app, token) } }]) {
      const me = await app.request('/api/v1/user/me', init);
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ data: { email: 'amy@example.com', name: 'Amy' } });
    }
    // The provider's tokens are kept (sealed) with the session, for the content site.
    const [row] = await database.db.select().from(sessions);
    expect(row!.providerTokens).not.toContain((await providerToken(app, token)).slice(0, 20));
  });

  it('serves the session cookie Secure and __Host- prefixed over https', async () => {
    const site = await createTestApp(database, { SITE_URL: 'https://register.example.org' });
    const start = await site.request('/api/v1/user/signin');
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe('https://register.example.org');
    expect(authorize.searchParams.get('redirect_uri')).toBe('https://register.example.org/api/v1/user/callback');
    expect(start.headers.getSetCookie().find((l) => l.startsWith('idc-state='))).toMatch(/Secure/);
    const form = await formFor(site, authorize);
    form.set('email', 'amy@example.com');
    const posted = await site.request('/dev-identity/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const back = new URL(posted.headers.get('location')!);
    const done = await site.request(back.pathname + back.search, {
      headers: { cookie: `idc-state=${setCookies(start)['idc-state']}` },
    });
    const line = done.headers.getSetCookie().find((l) => l.startsWith('__Host-portal-session='))!;
    expect(line).toMatch(/Secure/);
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Domain=/);
  });

  it('a forged Host changes neither the redirect URI nor the issuer when SITE_URL is set', async () => {
    const site = await createTestApp(database, { SITE_URL: 'https://register.example.org' });
    const res = await site.app.request(
      new Request('http://evil.example/api/v1/user/signin', { headers: { host: 'evil.example' } }),
    );
    const url = new URL(res.headers.get('location')!);
    expect(url.origin).toBe('https://register.example.org');
    expect(url.searchParams.get('redirect_uri')).toBe('https://register.example.org/api/v1/user/callback');
  });

  it('refuses a callback with another state, a replayed code, or no state cookie', async () => {
    const { url, state, form } = await start();
    const answer = await submit(form);
    const forged = new URL(answer);
    forged.searchParams.set('state', 'not-the-state');
    const bad = await callback(forged, state);
    expect(bad.headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    expect(setCookies(bad)['portal-session']).toBeUndefined();
    const none = await app.request(answer.pathname + answer.search);
    expect(none.headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    // The refusals above did not spend the code; this does, and its replay fails.
    expect((await callback(answer, state)).headers.get('location')).toBe('/en/auth/callback');
    const replay = await callback(answer, state);
    expect(replay.headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    expect(setCookies(replay)['portal-session']).toBeUndefined();
    expect(url.searchParams.get('state')).toBe(answer.searchParams.get('state'));
  });

  it('refuses an answer whose iss is not the provider, or that lacks the iss the provider promised', async () => {
    const { state, form } = await start();
    const answer = await submit(form);
    expect(answer.searchParams.get('iss')).toBe(ISSUER);
    const foreign = new URL(answer);
    foreign.searchParams.set('iss', 'https://evil.example');
    expect((await callback(foreign, state)).headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    const missing = new URL(answer);
    missing.searchParams.delete('iss');
    expect((await callback(missing, state)).headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    expect(sink.lines.filter((l) => l.message === 'sign-in callback failed')).toHaveLength(2);
    expect(JSON.stringify(sink.lines)).toMatch(/iss/);
  });

  it('logs and shows an error answer of the provider as such, not as a state mismatch', async () => {
    // The user cancels on the provider's page.
    const { state, form } = await start();
    form.set('cancel', '1');
    const denied = await app.request('/dev-identity/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const answer = new URL(denied.headers.get('location')!);
    expect(answer.searchParams.get('error')).toBe('access_denied');
    const res = await callback(answer, state);
    expect(res.headers.get('location')).toBe('/en/signin?error=access_denied');
    expect(sink.lines).toContainEqual({
      level: 'warn',
      message: 'sign-in refused by the identity provider',
      // Every line of a request names it (issue 20).
      data: { requestId: expect.any(String), error: 'access_denied' },
    });
    expect(JSON.stringify(sink.lines)).not.toMatch(/state/i);

    // Another error code is shown with its code.
    const second = await start();
    const other = new URL(CALLBACK);
    other.search = new URLSearchParams({
      error: 'temporarily_unavailable',
      error_description: 'try later',
      state: second.url.searchParams.get('state')!,
      iss: ISSUER,
    }).toString();
    expect((await callback(other, second.state)).headers.get('location')).toBe(
      '/en/signin?error=provider_error&code=temporarily_unavailable',
    );
    // An error answer with another state is not trusted: that one is a failed sign-in.
    other.searchParams.set('state', 'forged');
    expect((await callback(other, second.state)).headers.get('location')).toBe('/en/signin?error=sign_in_failed');
  });

  it('the dev provider requires PKCE with S256 and answers a bad request to the client', async () => {
    const { url } = await start();
    for (const change of [
      { code_challenge: null },
      { code_challenge_method: 'plain' },
      { code_challenge_method: null },
    ]) {
      const bad = new URL(url);
      for (const [k, v] of Object.entries(change))
        if (v === null) bad.searchParams.delete(k);
        else bad.searchParams.set(k, v);
      const res = await app.request(bad.pathname + bad.search);
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(CALLBACK);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('iss')).toBe(ISSUER);
    }
    const foreign = new URL(url);
    foreign.searchParams.set('redirect_uri', 'https://evil.example/api/v1/user/callback');
    expect((await app.request(foreign.pathname + foreign.search)).status).toBe(400);
  });

  it('an ID token or the provider access token is never an API credential', async () => {
    const { token } = await signIn(app, 'amy@example.com');
    const access = await providerToken(app, token);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sid: '00000000-0000-4000-8000-000000000000', email: 'x@example.com' })
      .setProtectedHeader({ alg: 'ES256', typ: 'session+jwt' })
      .setExpirationTime('1h')
      .sign(privateKey);
    for (const credential of [access, forged, 'nonsense']) {
      expect((await app.request('/api/v1/orders', bearer(credential))).status).toBe(401);
      expect((await app.request('/api/v1/orders', { headers: { cookie: authCookie(app, credential) } })).status).toBe(
        401,
      );
    }
    // An agency-mode credential (the idc-token cookie) does not count in OIDC mode.
    expect((await app.request('/api/v1/files/x', { headers: { cookie: `idc-token=${access}` } })).status).toBe(401);
  });

  it('a cookie-authenticated write must come from our own pages; Bearer needs no origin', async () => {
    const { token } = await signIn(app, 'amy@example.com');
    const put = (headers: Record<string, string>) =>
      app.request('/api/v1/demonstration?code=nope', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const cookie = authCookie(app, token);
    for (const headers of [
      { cookie } as Record<string, string>,
      { cookie, origin: 'https://evil.example' },
      { cookie, 'sec-fetch-site': 'same-site' },
    ]) {
      const res = await put(headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'forbidden' });
    }
    // From our page (or with Bearer) the request reaches the route, which judges the body.
    expect((await put({ cookie, origin: TEST_ORIGIN })).status).not.toBe(403);
    expect((await put({ authorization: `Bearer ${token}` })).status).not.toBe(403);
  });
});

describe.each(DATABASES)('the portal session (%s)', (kind) => {
  let database: TestDatabase;
  let clock: Date;
  const HOUR = 3600_000;
  const env = { SESSION_IDLE_SECONDS: '3600', SESSION_ABSOLUTE_SECONDS: '10800' };
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    clock = new Date();
  });
  const at = (ms: number) => () => new Date(clock.getTime() + ms);
  /** Another instance over the same database, its clock `ms` after sign-in. */
  const instance = (ms = 0) => createTestApp(database, env, { sessionNow: at(ms) });
  const me = (app: TestApp, token: string, init: 'cookie' | 'bearer' = 'bearer') =>
    app.request('/api/v1/user/me', init === 'bearer' ? bearer(token) : { headers: { cookie: authCookie(app, token) } });

  it('ends after the idle time without requests, and slides while in use, never past the absolute end', async () => {
    const { token } = await signIn(await instance(), 'amy@example.com');
    expect((await me(await instance(HOUR - 1000), token)).status).toBe(200);
    expect((await me(await instance(HOUR + 1000), token)).status).toBe(401);

    // In use (the browser's cookie): renewed after five minutes, the cookie with it.
    let current = token;
    for (const step of [0.5, 1.25, 2, 2.75]) {
      const app = await instance(step * HOUR);
      const res = await me(app, current, 'cookie');
      expect(res.status).toBe(200);
      const renewed = setCookies(res)['portal-session'];
      expect(renewed).toBeTruthy();
      const line = res.headers.getSetCookie().find((l) => l.startsWith('portal-session='))!;
      // An hour of idle time, but never past the absolute end (3 h after sign-in).
      expect(line).toContain(`Max-Age=${Math.min(3600, Math.round((3 - step) * 3600))}`);
      current = renewed!;
    }
    // 3 h after sign-in the session is over, however fresh its credential.
    expect((await me(await instance(3 * HOUR + 1000), current, 'cookie')).status).toBe(401);
    const [row] = await database.db.select().from(sessions);
    expect(row!.expiresAt.getTime()).toBe(row!.absoluteExpiresAt.getTime());
  });

  it('a refused session cookie is cleared; one not due for renewal is left alone', async () => {
    const app = await instance();
    const { token } = await signIn(app, 'amy@example.com');
    const fresh = await me(app, token, 'cookie');
    expect(fresh.headers.getSetCookie()).toEqual([]);
    const late = await me(await instance(2 * HOUR), token, 'cookie');
    expect(late.status).toBe(401);
    expect(late.headers.getSetCookie().find((l) => l.startsWith('portal-session='))).toMatch(/Max-Age=0/);
  });

  it('log out ends the session on every instance; the pages renew theirs through /user/session/refresh', async () => {
    const a = await instance();
    const b = await instance();
    const { token } = await signIn(a, 'amy@example.com', 'Amy');
    expect((await me(b, token)).status).toBe(200);

    // The pages' middleware (Bearer only: a page's script must not read a credential).
    const later = await instance(10 * 60_000);
    expect(
      (
        await later.request('/api/v1/user/session/refresh', {
          method: 'POST',
          headers: { cookie: authCookie(later, token), origin: TEST_ORIGIN },
        })
      ).status,
    ).toBe(401);
    const refreshed = await later.request('/api/v1/user/session/refresh', { method: 'POST', ...bearer(token) });
    expect(refreshed.status).toBe(200);
    const { data } = await refreshed.json();
    expect(decodeJwt(data.token)).toMatchObject({ email: 'amy@example.com', name: 'Amy' });
    expect(new Date(data.expires_at).getTime()).toBe(clock.getTime() + 10 * 60_000 + HOUR);

    // A cookie log out from another site is refused; from our page it ends the session.
    expect(
      (await a.request('/api/v1/user/session', { method: 'DELETE', headers: { cookie: authCookie(a, token) } })).status,
    ).toBe(403);
    const out = await a.request('/api/v1/user/session', {
      method: 'DELETE',
      headers: { cookie: authCookie(a, token), origin: TEST_ORIGIN },
    });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((l) => l.startsWith('portal-session='))).toMatch(/Max-Age=0/);
    for (const app of [a, b])
      for (const credential of [token, data.token]) expect((await me(app, credential)).status).toBe(401);
    const [row] = await database.db.select().from(sessions);
    expect(row!.revokedAt).not.toBeNull();
  });
});

describe('the OpenID Connect client against the dev provider (openid-client)', () => {
  const CLIENT = { id: 'registration-portal', secret: 'dev-identity-secret' };

  async function setup(authMethod: 'client_secret_basic' | 'client_secret_post') {
    const signer = await loadSigner();
    const provider = createDevIdentity({ signer, clients: { [CLIENT.id]: CLIENT.secret }, tokenTtlSeconds: 600 });
    const calls: { url: string; method: string; headers: Headers; body: string }[] = [];
    const fetch: FetchLike = async (input, init) => {
      const request = new Request(input, init);
      calls.push({
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: await request.clone().text(),
      });
      return provider.request(request);
    };
    const client = createOidcClient({
      issuer: (origin) => `${origin}/dev-identity`,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      authMethod,
      scope: 'openid email profile',
      fetch,
    });
    /** The provider's answer after `email` signs in on its form. */
    const answer = async (url: URL, email = 'amy@example.com') => {
      const shown = await provider.request(url.href);
      const form = new URLSearchParams(new URL(shown.headers.get('location')!, TEST_ORIGIN).searchParams);
      form.set('email', email);
      form.set('name', 'Amy');
      const posted = await provider.request(`${TEST_ORIGIN}/dev-identity/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      return new URL(posted.headers.get('location')!);
    };
    return { client, calls, answer };
  }

  it.each(['client_secret_basic', 'client_secret_post'] as const)(
    'authenticates at the token endpoint with %s',
    async (method) => {
      const { client, calls, answer } = await setup(method);
      const { url, pending } = await client.authorizationUrl(TEST_ORIGIN, CALLBACK);
      const { claims, tokens } = await client.completeSignIn(TEST_ORIGIN, await answer(url), pending);
      expect(claims).toMatchObject({ email: 'amy@example.com', name: 'Amy' });
      expect(tokens.accessToken).toBeTruthy();
      const token = calls.find((c) => c.url.endsWith('/dev-identity/token'))!;
      const body = new URLSearchParams(token.body);
      expect(body.get('code_verifier')).toBe(pending.codeVerifier);
      if (method === 'client_secret_basic') {
        expect(token.headers.get('authorization')).toMatch(/^Basic /);
        expect(body.get('client_secret')).toBeNull();
      } else {
        expect(token.headers.get('authorization')).toBeNull();
        expect(body.get('client_secret')).toBe(CLIENT.secret);
      }
      // The e-mail and name came from user-info (the ID token names only the user).
      expect(calls.some((c) => c.url.endsWith('/dev-identity/userinfo'))).toBe(true);
    },
  );

  it('refuses a wrong nonce and a wrong PKCE verifier', async () => {
    const { client, answer } = await setup('client_secret_basic');
    const first = await client.authorizationUrl(TEST_ORIGIN, CALLBACK);
    const badNonce = client.completeSignIn(TEST_ORIGIN, await answer(first.url), { ...first.pending, nonce: 'other' });
    await expect(badNonce).rejects.toBeInstanceOf(OidcSignInError);
    await expect(badNonce).rejects.toThrow(/nonce/);
    const second = await client.authorizationUrl(TEST_ORIGIN, CALLBACK);
    const verifier = 'x'.repeat(43);
    const badVerifier = client.completeSignIn(TEST_ORIGIN, await answer(second.url), {
      ...second.pending,
      codeVerifier: verifier,
    });
    await expect(badVerifier).rejects.toThrow(/invalid_grant/);
  });
});

describe.each(DATABASES)('sign-in and API auth, agency mode (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    app = await createTestApp(database, AGENCY);
  });

  it('redirects to the identity service with the query of spec §2 and remembers state', async () => {
    const res = await app.request('/api/v1/user/signin?locale=zh-TW&return_to=/zh-tw/account/orders');
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(url.pathname).toBe('/dev-identity/signin');
    expect(url.searchParams.get('client_id')).toBe('registration-portal');
    expect(url.searchParams.get('login_redirect_uri')).toBe('/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe('http://portal.test/api/v1/user/callback');
    expect(url.searchParams.get('response_type')).toBe('code');
    const cookies = setCookies(res);
    // The state cookie carries the state and the language the sign-in started in.
    expect(cookies['idc-state']).toBe(`${url.searchParams.get('state')}.zh-TW`);
    expect(cookies['idc-return-path']).toBe('/zh-tw/account/orders');
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'never stores a return path that leaves the site: %s',
    async (returnTo) => {
      const res = await app.request(`/api/v1/user/signin?return_to=${encodeURIComponent(returnTo)}`);
      expect(setCookies(res)['idc-return-path']).toBeUndefined();
    },
  );

  it('lands in the language the sign-in started in', async () => {
    const start = await app.request('/api/v1/user/signin?locale=zh-TW');
    const state = setCookies(start)['idc-state']!;
    const bad = await app.request(`/api/v1/user/callback?code=x&state=nope`, {
      headers: { cookie: `idc-state=${state}` },
    });
    expect(bad.headers.get('location')).toBe('/zh-tw/signin?error=sign_in_failed');
  });

  it('completes the code flow: sets the idc-token cookie (Lax, path /) and goes to auth/callback', async () => {
    const { token, callback } = await signIn(app, 'amy@example.com', 'Amy');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/en/auth/callback');
    const line = callback.headers.getSetCookie().find((l) => l.startsWith('idc-token='))!;
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/SameSite=Lax/);
    expect(token.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(token).typ).toBe('at+jwt');
    const me = await app.request('/api/v1/user/me', bearer(token));
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ data: { email: 'amy@example.com', name: 'Amy' } });
  });

  it('shows an error answer of the identity service as such', async () => {
    const start = await app.request('/api/v1/user/signin');
    const state = setCookies(start)['idc-state']!;
    const value = state.split('.')[0]!;
    const res = await app.request(`/api/v1/user/callback?error=access_denied&state=${value}`, {
      headers: { cookie: `idc-state=${state}` },
    });
    expect(res.headers.get('location')).toBe('/en/signin?error=access_denied');
  });

  it('refuses a callback whose state does not match, and a code used twice', async () => {
    const { callbackUrl, startCookies } = await signIn(app, 'amy@example.com');
    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'not-the-state');
    const bad = await app.request(forged.pathname + forged.search, {
      headers: { cookie: `idc-state=${startCookies['idc-state']}` },
    });
    expect(bad.headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    expect(setCookies(bad)['idc-token']).toBeUndefined();
    // The code was already exchanged by signIn(): replaying it must fail.
    const replay = await app.request(callbackUrl.pathname + callbackUrl.search, {
      headers: { cookie: `idc-state=${startCookies['idc-state']}` },
    });
    expect(replay.headers.get('location')).toBe('/en/signin?error=sign_in_failed');
    expect(setCookies(replay)['idc-token']).toBeUndefined();
  });

  it('answers 401 in the error shape without a token, with garbage, with a foreign-signed token or an ID token', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT({ sub: 'x', email: 'x@example.com' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setIssuer('dev-identity')
      .setExpirationTime('1h')
      .sign(privateKey);
    // An ID token of the same provider, signed with its key: `typ` says it is not an access token.
    const keyFile = join(mkdtempSync(join(tmpdir(), 'idp-')), 'key.json');
    const keyed = await createTestApp(database, AGENCY, { devIdentityKeyFile: keyFile });
    const signer = await loadSigner(keyFile);
    const idToken = await new SignJWT({ sub: 'dev-x', email: 'x@example.com', aud: 'other-client' })
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'JWT' })
      .setIssuer('dev-identity')
      .setExpirationTime('1h')
      .sign(signer.privateKey);
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer nonsense' },
      { authorization: `Bearer ${foreign}` },
      { authorization: `Bearer ${idToken}` },
      { authorization: 'Basic abc' },
    ]) {
      const res = await keyed.request('/api/v1/orders', { headers });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'unauthorized' });
      expect(typeof body.message).toBe('string');
      expect(typeof body.error).toBe('string');
    }
  });

  it('refuses an expired token signed with the right key', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'idp-')), 'key.json');
    const keyed = await createTestApp(database, AGENCY, { devIdentityKeyFile: keyFile });
    const signer = await loadSigner(keyFile);
    const sign = (exp: number) =>
      new SignJWT({ sub: 'dev-x', email: 'old@example.com' })
        .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' })
        .setIssuer('dev-identity')
        .setExpirationTime(exp)
        .sign(signer.privateKey);
    const now = Math.floor(Date.now() / 1000);
    expect((await keyed.request('/api/v1/orders', bearer(await sign(now + 60)))).status).toBe(200);
    expect((await keyed.request('/api/v1/orders', bearer(await sign(now - 60)))).status).toBe(401);
  });

  it('the dev identity service publishes a JWKS and answers user info for its access tokens only', async () => {
    const { token } = await signIn(app, 'amy@example.com', 'Amy');
    const jwks = await (await app.request('/dev-identity/.well-known/jwks.json')).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256' });
    expect(jwks.keys[0].d).toBeUndefined();
    const info = await app.request('/dev-identity/userinfo', bearer(token));
    expect(await info.json()).toMatchObject({ email: 'amy@example.com', name: 'Amy' });
    expect((await app.request('/dev-identity/userinfo', bearer('x.y.z'))).status).toBe(401);
  });

  it('the dev sign-in page rejects unknown clients and foreign redirect URIs', async () => {
    const base = {
      client_id: 'registration-portal',
      login_redirect_uri: '/authorize',
      response_type: 'code',
      state: 's',
    };
    const foreign = new URLSearchParams({ ...base, redirect_uri: 'https://evil.example/api/v1/user/callback' });
    expect((await app.request(`/dev-identity/signin?${foreign}`)).status).toBe(400);
    const unknown = new URLSearchParams({
      ...base,
      client_id: 'other',
      redirect_uri: 'http://portal.test/api/v1/user/callback',
    });
    expect((await app.request(`/dev-identity/signin?${unknown}`)).status).toBe(400);
    const ok = new URLSearchParams({
      ...base,
      redirect_uri: 'http://portal.test/api/v1/user/callback',
      ui_locales: 'zh-TW',
    });
    const page = await app.request(`/dev-identity/signin?${ok}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('電子郵件');
    expect(html).toContain('開發用');
  });
});
