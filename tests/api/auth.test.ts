import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, generateKeyPair } from 'jose';
import { loadSigner } from '@server/identity/dev-identity';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DATABASES,
  openTestDatabase,
  setCookies,
  signIn,
  type TestApp,
  type TestDatabase,
  bearer,
} from './helpers';

describe.each(DATABASES)('sign-in and API auth (%s)', (kind) => {
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
    const me = await app.request('/api/v1/user/me', bearer(token));
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ data: { email: 'amy@example.com', name: 'Amy' } });
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

  it('answers 401 in the error shape without a token, with garbage, and with a foreign-signed token', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT({ sub: 'x', email: 'x@example.com' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('dev-identity')
      .setExpirationTime('1h')
      .sign(privateKey);
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer nonsense' },
      { authorization: `Bearer ${foreign}` },
      { authorization: 'Basic abc' },
    ]) {
      const res = await app.request('/api/v1/orders', { headers });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'unauthorized' });
      expect(typeof body.message).toBe('string');
      expect(typeof body.error).toBe('string');
    }
  });

  it('refuses an expired token signed with the right key', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'idp-')), 'key.json');
    const keyed = await createTestApp(database, {}, { devIdentityKeyFile: keyFile });
    const signer = await loadSigner(keyFile);
    const sign = (exp: number) =>
      new SignJWT({ sub: 'dev-x', email: 'old@example.com' })
        .setProtectedHeader({ alg: 'ES256', kid: signer.kid })
        .setIssuer('dev-identity')
        .setExpirationTime(exp)
        .sign(signer.privateKey);
    const now = Math.floor(Date.now() / 1000);
    expect((await keyed.request('/api/v1/orders', bearer(await sign(now + 60)))).status).toBe(200);
    expect((await keyed.request('/api/v1/orders', bearer(await sign(now - 60)))).status).toBe(401);
  });

  it('the dev identity service publishes a JWKS and answers user info for its tokens only', async () => {
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
