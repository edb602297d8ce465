import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createIdentityClient, IdentityError } from './identity';

/** A signing key with its public JWK. */
async function key(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}
type Key = Awaited<ReturnType<typeof key>>;

const sign = (k: Key, over: { typ?: string; aud?: string } = {}) =>
  new SignJWT({ sub: 'agency-1', email: 'amy@example.com', name: 'Amy' })
    .setProtectedHeader({ alg: 'ES256', kid: k.kid, typ: over.typ ?? 'at+jwt' })
    .setIssuer('https://id.example.org')
    .setAudience(over.aud ?? 'registration-api')
    .setExpirationTime('1h')
    .sign(k.privateKey);

/** An agency identity client whose JWKS requests are counted, on a clock the test moves. */
function client(published: () => Key[]) {
  let clock = Date.now();
  const fetches: string[] = [];
  const identity = createIdentityClient({
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
    fetch: (url) => {
      fetches.push(url);
      return Promise.resolve(Response.json({ keys: published().map((k) => k.jwk) }));
    },
  });
  return { identity, fetches, advance: (ms: number) => (clock += ms) };
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
});
