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
  /** One request for the key set gives up after this long (default 5 s). */
  jwksTimeoutMs?: number;
  now?: () => number;
  /** Where a key set that could not be fetched is told. */
  log?: (level: 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;
};

/** A token that is not good: expired, forged, for another audience… (401). */
export class IdentityError extends Error {}

/**
 * The identity service cannot say whether a token is good: its key set cannot be fetched and no
 * key set was ever fetched (or the token names a key not in the last good one). Never a reason to
 * sign anyone out: 503 (decision 041).
 */
export class IdentityUnavailableError extends Error {}

/** A token issued this far in the future is still taken (clocks differ a little); later, refused. */
export const CLOCK_SKEW_SECONDS = 60;

/**
 * Client of the agency's identity service (OAuth2 authorization code flow, spec §2): builds the
 * sign-in redirect, exchanges a code server to server, and verifies access tokens as JWTs
 * against the service's JWKS.
 */
export function createIdentityClient(options: IdentityClientOptions) {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const refetchMs = options.jwksRefetchMs ?? 60_000;
  const ttl = options.jwksTtlMs ?? 10 * 60 * 1000;
  /** The last key set fetched: kept however old while the identity service cannot be reached. */
  let keys: { set: ReturnType<typeof createLocalJWKSet>; at: number } | undefined;
  let loading: Promise<ReturnType<typeof createLocalJWKSet>> | undefined;
  /** When the key set was last asked for (successfully or not), and whether that failed. */
  let lastFetch = Number.NEGATIVE_INFINITY;
  let lastFailed = false;

  /** Fetches the key set now (one request at a time); rejects with IdentityUnavailableError. */
  function fetchKeys(): Promise<ReturnType<typeof createLocalJWKSet>> {
    loading ??= (async () => {
      lastFetch = now();
      try {
        const res = await doFetch(options.serverBaseUrl + options.jwksPath, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(options.jwksTimeoutMs ?? 5_000),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const set = createLocalJWKSet((await res.json()) as JSONWebKeySet);
        keys = { set, at: now() };
        lastFailed = false;
        return set;
      } catch (error) {
        lastFailed = true;
        const reason = String((error as Error)?.message ?? error).slice(0, 200);
        options.log?.(keys ? 'warn' : 'error', 'identity key set could not be fetched', {
          dependency: 'identity',
          reason,
          keptKeySetAgeSeconds: keys ? Math.round((now() - keys.at) / 1000) : null,
        });
        throw new IdentityUnavailableError(`The identity service's key set could not be fetched: ${reason}`);
      }
    })().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  /**
   * The key set to verify with. A fresh one as is; an old one (past its TTL) as well, while a
   * new one is fetched in the background, so an identity service that is down signs nobody out;
   * none yet: fetched now (IdentityUnavailableError when it cannot be).
   */
  async function loadKeys(): Promise<ReturnType<typeof createLocalJWKSet>> {
    if (!keys) return fetchKeys();
    const due = now() - keys.at >= ttl && (!lastFailed || now() - lastFetch >= refetchMs);
    if (due && !loading) fetchKeys().catch(() => {});
    return keys.set;
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
        signal: AbortSignal.timeout(10_000),
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
      const set = await loadKeys();
      try {
        result = await verifyWith(set);
      } catch (error) {
        // A key rotation shows up as an unknown key id: fetch the keys again, but at most once a
        // minute, so tokens with made-up key ids cannot make us hammer the identity service.
        // (Fetching them then fails with IdentityUnavailableError: we cannot tell, so 503.)
        if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw new IdentityError(String(error));
        if (!loading && now() - lastFetch < refetchMs) {
          throw lastFailed
            ? new IdentityUnavailableError('Unknown signing key, and the key set could not be fetched')
            : new IdentityError('Unknown signing key');
        }
        const fresh = await fetchKeys();
        result = await verifyWith(fresh).catch((e) => {
          throw new IdentityError(String(e));
        });
      }
      const { sub, email, name, exp, iat } = result.payload as Record<string, unknown>;
      if (typeof sub !== 'string' || typeof email !== 'string' || typeof exp !== 'number') {
        throw new IdentityError('Token lacks sub, email or exp');
      }
      // Issued in the future (beyond clock skew): not a token the identity service gave out now.
      if (typeof iat === 'number' && iat > now() / 1000 + CLOCK_SKEW_SECONDS) {
        throw new IdentityError('Token issued in the future');
      }
      return { sub, email, name: typeof name === 'string' && name ? name : null, exp };
    },
  };
}

export type IdentityClient = ReturnType<typeof createIdentityClient>;
