import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevIdentity, loadSigner } from '@server/identity/dev-identity';
import { createOidcClient, OidcProviderUnavailable, type FetchLike } from '@server/identity/oidc-client';
import { createTestApp, openTestDatabase, TEST_ORIGIN, type TestDatabase } from './helpers';

/*
 * OpenID Connect when the provider misbehaves, and log out at the provider (issue 20, decision
 * 041): a warm instance (discovery cached) never sends the browser to a provider that stopped
 * answering, the portal's sign-in page says so; log out ends the provider's session too through
 * its end_session_endpoint when it offers one. (The whole log out against oidc-provider, in a
 * browser: tests/e2e/oidc-interop.spec.ts.)
 */

const CALLBACK = `${TEST_ORIGIN}/api/v1/user/callback`;
const CLIENT = { id: 'registration-portal', secret: 'dev-identity-secret' };

/** The dev provider behind a fetch that can be taken down, and whose discovery can offer end_session_endpoint. */
async function provider(options: { endSession?: boolean } = {}) {
  const signer = await loadSigner();
  const dev = createDevIdentity({ signer, clients: { [CLIENT.id]: CLIENT.secret }, tokenTtlSeconds: 600 });
  let down = false;
  const calls: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    calls.push(new URL(request.url).pathname);
    if (down) throw new TypeError('fetch failed');
    const res = await dev.request(request);
    if (options.endSession && request.url.endsWith('/.well-known/openid-configuration')) {
      const metadata = (await res.json()) as Record<string, unknown>;
      return Response.json({ ...metadata, end_session_endpoint: `${metadata.issuer as string}/logout` });
    }
    return res;
  };
  let clock = Date.now();
  const client = createOidcClient({
    issuer: (origin) => `${origin}/dev-identity`,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    authMethod: 'client_secret_basic',
    scope: 'openid email profile',
    fetch,
    now: () => clock,
  });
  /** The provider's answer after `email` signs in on its form. */
  const answer = async (url: URL, email = 'amy@example.com') => {
    const shown = await dev.request(url.href);
    const form = new URLSearchParams(new URL(shown.headers.get('location')!, TEST_ORIGIN).searchParams);
    form.set('email', email);
    form.set('name', 'Amy');
    const posted = await dev.request(`${TEST_ORIGIN}/dev-identity/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    return new URL(posted.headers.get('location')!);
  };
  return {
    client,
    calls,
    answer,
    setDown: (value: boolean) => (down = value),
    advance: (ms: number) => (clock += ms),
  };
}

const discoveries = (calls: string[]) => calls.filter((c) => c.endsWith('/openid-configuration')).length;

describe('the OpenID Connect client when the provider stops answering', () => {
  it('a warm instance asks the provider again before sending a browser there: unavailable, not a dead page', async () => {
    const idp = await provider();
    await idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK);
    expect(discoveries(idp.calls)).toBe(1);
    // Within ten seconds of an answer, the cached discovery is used as is.
    idp.advance(5_000);
    await idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK);
    expect(discoveries(idp.calls)).toBe(1);

    idp.setDown(true);
    idp.advance(6_000);
    await expect(idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK)).rejects.toBeInstanceOf(OidcProviderUnavailable);
    expect(discoveries(idp.calls)).toBe(2);
    // The failure is remembered a few seconds: a rush of sign-ins does not each wait on it.
    await expect(idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK)).rejects.toBeInstanceOf(OidcProviderUnavailable);
    expect(discoveries(idp.calls)).toBe(2);

    idp.setDown(false);
    idp.advance(5_001);
    const { url } = await idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK);
    expect(url.pathname).toBe('/dev-identity/authorize');
    expect(discoveries(idp.calls)).toBe(3);
  });

  it('a cold instance whose provider does not answer: unavailable', async () => {
    const idp = await provider();
    idp.setDown(true);
    await expect(idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK)).rejects.toBeInstanceOf(OidcProviderUnavailable);
  });
});

describe('log out at the provider (RP-initiated logout)', () => {
  it('builds the end_session_endpoint URL with the ID token of the sign-in, the client and where to come back', async () => {
    const idp = await provider({ endSession: true });
    const { url, pending } = await idp.client.authorizationUrl(TEST_ORIGIN, CALLBACK);
    const { tokens } = await idp.client.completeSignIn(TEST_ORIGIN, await idp.answer(url), pending);
    expect(tokens.idToken).toMatch(/^ey/);
    const logout = await idp.client.endSessionUrl(TEST_ORIGIN, {
      idToken: tokens.idToken,
      postLogoutRedirectUri: `${TEST_ORIGIN}/`,
      locale: 'zh-TW',
    });
    expect(logout?.origin + logout!.pathname).toBe(`${TEST_ORIGIN}/dev-identity/logout`);
    expect(Object.fromEntries(logout!.searchParams)).toEqual({
      client_id: CLIENT.id,
      id_token_hint: tokens.idToken,
      post_logout_redirect_uri: `${TEST_ORIGIN}/`,
      ui_locales: 'zh-TW',
    });
  });

  it('none when the provider offers no end_session_endpoint, or does not answer now', async () => {
    const plain = await provider();
    expect(
      await plain.client.endSessionUrl(TEST_ORIGIN, { postLogoutRedirectUri: `${TEST_ORIGIN}/`, locale: 'en' }),
    ).toBeUndefined();
    const offering = await provider({ endSession: true });
    offering.setDown(true);
    expect(
      await offering.client.endSessionUrl(TEST_ORIGIN, { postLogoutRedirectUri: `${TEST_ORIGIN}/`, locale: 'en' }),
    ).toBeUndefined();
  });
});

describe('sign-in start with an external provider that does not answer', () => {
  let database: TestDatabase;
  let closed: string;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    // A port that refuses connections: the provider is down.
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closed = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
  });
  afterAll(() => database.close());

  it("sends the browser to the portal's sign-in page saying the service cannot be reached, and logs it", async () => {
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
    const app = await createTestApp(
      database,
      {
        IDENTITY_ISSUER: closed,
        IDENTITY_CLIENT_SECRET: 'client-secret',
        SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
        SITE_URL: 'http://127.0.0.1:4321',
        PICKUP_CODE_SECRET: 'a-long-enough-pickup-secret',
        ALLOW_SANDBOX_GATEWAY: 'true',
        ALLOW_SANDBOX_INVOICE: 'true',
        ALLOW_OUTBOX_MAIL: 'true',
        ALLOW_DEV_CONTENT: 'true',
      },
      { log: (level, message, data) => lines.push({ level, message, data }) },
    );
    const res = await app.request('/api/v1/user/signin?locale=zh-tw');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/zh-tw/signin?error=provider_unavailable');
    expect(lines.find((l) => l.message.startsWith('sign-in could not start'))).toMatchObject({
      level: 'error',
      data: { dependency: 'identity' },
    });
  });
});
