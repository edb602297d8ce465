import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';

/** The claims the portal needs from an identity token. */
export type IdentityClaims = { sub: string; email: string; name: string | null; exp: number };

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export type IdentityClientOptions = {
  /** Base URL of the identity service as the browser reaches it. */
  browserBaseUrl: (origin: string) => string;
  /** Base URL for server-to-server calls (token, JWKS, user info). */
  serverBaseUrl: string;
  clientId: string;
  clientSecret: string;
  tokenPath: string;
  jwksPath: string;
  issuer?: string | undefined;
  /** Expected `aud`: tokens the identity service issued to other products are refused. */
  audience?: string | undefined;
  /**
   * Expected `typ` header of an access token (`at+jwt`, RFC 9068): an ID token (`JWT`, or none)
   * is never an API credential. Undefined: not checked.
   */
  tokenType?: string | undefined;
  fetch?: FetchLike;
  /** How long a fetched key set is trusted before it is fetched again. */
  jwksTtlMs?: number;
  /** A token whose key is unknown fetches the key set again at most this often (default 60 s). */
  jwksRefetchMs?: number;
  now?: () => number;
};

export class IdentityError extends Error {}

/**
 * Client of the agency's identity service (OAuth2 authorization code flow, spec §2): builds the
 * sign-in redirect, exchanges a code server to server, and verifies access tokens as JWTs
 * against the service's JWKS.
 */
export function createIdentityClient(options: IdentityClientOptions) {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const refetchMs = options.jwksRefetchMs ?? 60_000;
  let keys: { set: ReturnType<typeof createLocalJWKSet>; at: number } | undefined;
  let loading: Promise<ReturnType<typeof createLocalJWKSet>> | undefined;
  /** When the key set was last asked for (successfully or not). */
  let lastFetch = Number.NEGATIVE_INFINITY;

  async function loadKeys(force = false) {
    const ttl = options.jwksTtlMs ?? 10 * 60 * 1000;
    if (!force && keys && now() - keys.at < ttl) return keys.set;
    loading ??= (async () => {
      lastFetch = now();
      const res = await doFetch(options.serverBaseUrl + options.jwksPath, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new IdentityError(`JWKS fetch failed with ${res.status}`);
      const set = createLocalJWKSet((await res.json()) as JSONWebKeySet);
      keys = { set, at: now() };
      return set;
    })().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  return {
    /** The identity service's sign-in page with the query of spec §2. */
    signInUrl(origin: string, state: string, locale: string): string {
      const url = new URL(options.browserBaseUrl(origin) + '/signin');
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('login_redirect_uri', '/authorize');
      url.searchParams.set('redirect_uri', `${origin}/api/v1/user/callback`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('state', state);
      url.searchParams.set('ui_locales', locale);
      return url.toString();
    },

    /** Exchanges an authorization code for an access token (server to server). */
    async exchangeCode(code: string, redirectUri: string): Promise<{ accessToken: string; expiresIn: number }> {
      const res = await doFetch(options.serverBaseUrl + options.tokenPath, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }),
      });
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok || typeof body.access_token !== 'string') {
        throw new IdentityError(`Code exchange failed: ${res.status} ${String(body.error ?? '')}`);
      }
      return { accessToken: body.access_token, expiresIn: Number(body.expires_in) || 3600 };
    },

    /** Verifies a token's signature, expiry and issuer; returns its claims or throws. */
    async verify(token: string): Promise<IdentityClaims> {
      const verifyWith = (set: ReturnType<typeof createLocalJWKSet>) =>
        jwtVerify(token, set, {
          ...(options.issuer ? { issuer: options.issuer } : {}),
          ...(options.audience ? { audience: options.audience } : {}),
          ...(options.tokenType ? { typ: options.tokenType } : {}),
          currentDate: new Date(now()),
        });
      let result;
      try {
        result = await verifyWith(await loadKeys());
      } catch (error) {
        // A key rotation shows up as an unknown key id: fetch the keys again, but at most once a
        // minute, so tokens with made-up key ids cannot make us hammer the identity service.
        if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw new IdentityError(String(error));
        if (!loading && now() - lastFetch < refetchMs) throw new IdentityError('Unknown signing key');
        result = await verifyWith(await loadKeys(true)).catch((e) => {
          throw new IdentityError(String(e));
        });
      }
      const { sub, email, name, exp } = result.payload as Record<string, unknown>;
      if (typeof sub !== 'string' || typeof email !== 'string' || typeof exp !== 'number') {
        throw new IdentityError('Token lacks sub, email or exp');
      }
      return { sub, email, name: typeof name === 'string' && name ? name : null, exp };
    },
  };
}

export type IdentityClient = ReturnType<typeof createIdentityClient>;
