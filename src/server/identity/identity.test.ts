import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createIdentityClient, IdentityError, IdentityUnavailableError, type FetchLike } from './identity';

/** A signing key with its public JWK. */
async function key(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}
type Key = Awaited<ReturnType<typeof key>>;

const sign = (k: Key, over: { typ?: string; aud?: string; iat?: number } = {}) =>
  new SignJWT({ sub: 'agency-1', email: 'amy@example.com', name: 'Amy' })
    .setProtectedHeader({ alg: 'ES256', kid: k.kid, typ: over.typ ?? 'at+jwt' })
    .setIssuer('https://id.example.org')
    .setAudience(over.aud ?? 'registration-api')
    .setIssuedAt(over.iat)
    .setExpirationTime('1h')
    .sign(k.privateKey);

/** An agency identity client whose JWKS requests are counted, on a clock the test moves. */
function client(published: () => Key[], options: { fetch?: FetchLike; jwksTimeoutMs?: number } = {}) {
  let clock = Date.now();
  const fetches: string[] = [];
  const logged: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  const identity = createIdentityClient({
    log: (level, message, data) => logged.push({ level, message, data }),
    ...(options.jwksTimeoutMs ? { jwksTimeoutMs: options.jwksTimeoutMs } : {}),
    browserBaseUrl: () => 'https://id.example.org',
    serverBaseUrl: 'https://id.example.org',
    clientId: 'registration-portal',
    clientSecret: 's',
    tokenPath: '/oauth/token',
    jwksPath: '/.well-known/jwks.json',
    issuer: 'https://id.example.org',
    audience: 'registration-api',
    tokenType: 'at+jwt',
    now: () => clock,
    fetch: (url, init) => {
      fetches.push(url);
      return options.fetch
        ? options.fetch(url, init)
        : Promise.resolve(Response.json({ keys: published().map((k) => k.jwk) }));
    },
  });
  return { identity, fetches, logged, advance: (ms: number) => (clock += ms) };
}

describe('agency identity client (decision 019)', () => {
  it('a token with an unknown kid fetches the keys again at most once a minute', async () => {
    const current = await key('current');
    const next = await key('next');
    let keys = [current];
    const { identity, fetches, advance } = client(() => keys);
    expect((await identity.verify(await sign(current))).email).toBe('amy@example.com');
    expect(fetches).toHaveLength(1);

    // A burst of tokens with a key id the provider does not publish: no refetch within the minute.
    const stranger = await key('made-up');
    for (let i = 0; i < 20; i++)
      await expect(identity.verify(await sign(stranger))).rejects.toBeInstanceOf(IdentityError);
    expect(fetches).toHaveLength(1);

    // After a minute, one refetch, then quiet again.
    advance(61_000);
    await expect(identity.verify(await sign(stranger))).rejects.toBeInstanceOf(IdentityError);
    await expect(identity.verify(await sign(stranger))).rejects.toBeInstanceOf(IdentityError);
    expect(fetches).toHaveLength(2);

    // A real rotation: the new key is picked up by the first token after the minute.
    keys = [current, next];
    await expect(identity.verify(await sign(next))).rejects.toBeInstanceOf(IdentityError);
    advance(61_000);
    expect((await identity.verify(await sign(next))).sub).toBe('agency-1');
    expect(fetches).toHaveLength(3);
  });

  it('accepts only access tokens meant for the API: typ at+jwt and its audience', async () => {
    const k = await key('k');
    const { identity } = client(() => [k]);
    expect((await identity.verify(await sign(k))).name).toBe('Amy');
    // An ID token (typ JWT), one issued to another client, one without typ.
    await expect(identity.verify(await sign(k, { typ: 'JWT' }))).rejects.toBeInstanceOf(IdentityError);
    await expect(identity.verify(await sign(k, { aud: 'other-client' }))).rejects.toBeInstanceOf(IdentityError);
    const untyped = await new SignJWT({ sub: 'x', email: 'x@example.com' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setIssuer('https://id.example.org')
      .setAudience('registration-api')
      .setExpirationTime('1h')
      .sign(k.privateKey);
    await expect(identity.verify(untyped)).rejects.toBeInstanceOf(IdentityError);
  });

  it('refuses a token issued in the future, beyond a minute of clock skew', async () => {
    const k = await key('k');
    const { identity } = client(() => [k]);
    const now = Math.floor(Date.now() / 1000);
    await expect(identity.verify(await sign(k, { iat: now + 3600 }))).rejects.toThrow(/issued in the future/);
    await expect(identity.verify(await sign(k, { iat: now + 120 }))).rejects.toBeInstanceOf(IdentityError);
    expect((await identity.verify(await sign(k, { iat: now + 30 }))).sub).toBe('agency-1');
    expect((await identity.verify(await sign(k, { iat: now - 600 }))).sub).toBe('agency-1');
  });
});

describe('agency identity client, identity service unreachable (issue 20, decision 041)', () => {
  /** A key set endpoint that can be taken down: it then fails like a refused connection. */
  function service(k: Key) {
    let down = false;
    const fetch: FetchLike = () =>
      down ? Promise.reject(new TypeError('fetch failed')) : Promise.resolve(Response.json({ keys: [k.jwk] }));
    return { fetch, setDown: (value: boolean) => (down = value) };
  }

  it('a fresh instance that cannot fetch the key set cannot tell: IdentityUnavailableError, never IdentityError (401)', async () => {
    const k = await key('k');
    const idp = service(k);
    idp.setDown(true);
    const { identity, logged } = client(() => [k], { fetch: idp.fetch });
    const refused = identity.verify(await sign(k));
    await expect(refused).rejects.toBeInstanceOf(IdentityUnavailableError);
    await expect(refused).rejects.not.toBeInstanceOf(IdentityError);
    expect(logged).toEqual([
      {
        level: 'error',
        message: 'identity key set could not be fetched',
        data: { dependency: 'identity', reason: 'fetch failed', keptKeySetAgeSeconds: null },
      },
    ]);
    // Back up: the same token verifies.
    idp.setDown(false);
    expect((await identity.verify(await sign(k))).sub).toBe('agency-1');
  });

  it('keeps the last good key set, however old, while the service is down; asks again at most once a minute', async () => {
    const k = await key('k');
    const idp = service(k);
    const { identity, fetches, logged, advance } = client(() => [k], { fetch: idp.fetch });
    expect((await identity.verify(await sign(k))).sub).toBe('agency-1');
    idp.setDown(true);
    // Past the key set's 10 minutes: it is refetched in the background; the token still verifies.
    advance(11 * 60_000);
    for (let i = 0; i < 5; i++) expect((await identity.verify(await sign(k))).sub).toBe('agency-1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetches).toHaveLength(2);
    expect(logged.at(-1)).toMatchObject({
      level: 'warn',
      data: { dependency: 'identity', keptKeySetAgeSeconds: 660 },
    });
    advance(61_000);
    expect((await identity.verify(await sign(k))).sub).toBe('agency-1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetches).toHaveLength(3);
    // A token signed with a key the kept set lacks cannot be told either (a rotation, maybe).
    advance(61_000);
    const rotated = await key('rotated');
    await expect(identity.verify(await sign(rotated))).rejects.toBeInstanceOf(IdentityUnavailableError);
  });

  it('a key set request that gets no answer gives up after its timeout', async () => {
    const k = await key('k');
    const hanging: FetchLike = (_url, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    const { identity } = client(() => [k], { fetch: hanging, jwksTimeoutMs: 200 });
    const started = Date.now();
    await expect(identity.verify(await sign(k))).rejects.toBeInstanceOf(IdentityUnavailableError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
