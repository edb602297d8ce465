import * as oidc from 'openid-client';
import type { IdentityClaims } from './identity';
import type { ProviderTokens } from '../sessions/sessions';

/*
 * The portal as a standard OpenID Connect relying party (decision 019), through `openid-client`
 * (built on oauth4webapi): discovery, the authorization code flow with PKCE (S256), state and
 * nonce, the `iss` of the authorization response (RFC 9207, required when the provider says it
 * sends one), client_secret_basic or client_secret_post, and the user's e-mail and name from the
 * validated ID token and the user-info endpoint. No protocol code of our own.
 */

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export type OidcClientOptions = {
  /**
   * The issuer identifier for a request from `origin`: IDENTITY_ISSUER, or the embedded
   * development provider at `{origin}/dev-identity`.
   */
  issuer: (origin: string) => string;
  clientId: string;
  clientSecret: string;
  authMethod: 'client_secret_basic' | 'client_secret_post';
  scope: string;
  /** Reaches the provider (the embedded one in-process); default: fetch. */
  fetch?: FetchLike;
  /** Seconds per request to the provider; default 10. */
  timeoutSeconds?: number;
  /**
   * A sign-in starts only with a provider that answered its discovery within this long (10 s):
   * else it is asked again first, so a provider that went down is not where browsers are sent.
   */
  recheckMs?: number;
  /** The clock of those checks (tests move it). */
  now?: () => number;
};

/** What the callback must find again: kept in the signed state cookie between the two legs. */
export type PendingSignIn = { state: string; nonce: string; codeVerifier: string };

/** A sign-in that did not complete; `providerError` when the provider itself answered an error. */
export class OidcSignInError extends Error {
  constructor(
    message: string,
    readonly providerError?: string,
    readonly providerDescription?: string,
  ) {
    super(message);
  }
}

/**
 * The provider does not answer (its discovery failed or timed out): the browser is not sent
 * there; the portal's sign-in page says so instead (decision 041).
 */
export class OidcProviderUnavailable extends Error {}

/** After a failed check, sign-ins are refused without asking again for this long. */
const FAILED_CHECK_MS = 5_000;

/** Provider error codes are shown to the user: only the RFC 6749 §4.1.2.1 alphabet, bounded. */
const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

export function createOidcClient(options: OidcClientOptions) {
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? 10_000;
  const configurations = new Map<string, Promise<oidc.Configuration>>();
  /** Per issuer: when its discovery last answered, last failed, and a check in flight. */
  const checks = new Map<string, { answeredAt: number; failedAt: number; pending?: Promise<oidc.Configuration> }>();

  /** Discovery of `issuer`'s configuration, within `timeoutSeconds`. */
  function discover(issuer: string, timeoutSeconds: number): Promise<oidc.Configuration> {
    const url = new URL(issuer);
    const auth =
      options.authMethod === 'client_secret_post'
        ? oidc.ClientSecretPost(options.clientSecret)
        : oidc.ClientSecretBasic(options.clientSecret);
    return oidc.discovery(url, options.clientId, undefined, auth, {
      timeout: timeoutSeconds,
      ...(options.fetch ? { [oidc.customFetch]: options.fetch as oidc.CustomFetch } : {}),
      // Config allows http only for a provider on this machine (and the embedded one).
      ...(url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  }

  /** The provider's configuration by discovery, once per issuer (a failure is retried next time). */
  function configuration(origin: string): Promise<oidc.Configuration> {
    const issuer = options.issuer(origin);
    let pending = configurations.get(issuer);
    if (!pending) {
      pending = discover(issuer, options.timeoutSeconds ?? 10);
      configurations.set(issuer, pending);
      checks.set(issuer, { answeredAt: now(), failedAt: 0 });
      pending.catch(() => configurations.delete(issuer));
    }
    return pending;
  }

  /**
   * The configuration of a provider that answers now: the cached one when its discovery answered
   * within `recheckMs`, else a fresh discovery (kept for next time). Throws OidcProviderUnavailable
   * when the provider does not answer (and for FAILED_CHECK_MS after, without asking again).
   */
  async function liveConfiguration(origin: string): Promise<oidc.Configuration> {
    const issuer = options.issuer(origin);
    const check = checks.get(issuer);
    if (!check || !configurations.has(issuer)) {
      try {
        return await configuration(origin);
      } catch (error) {
        throw new OidcProviderUnavailable(describe(error));
      }
    }
    if (now() - check.answeredAt < recheckMs) return configuration(origin);
    if (now() - check.failedAt < FAILED_CHECK_MS) throw new OidcProviderUnavailable('the provider did not answer');
    check.pending ??= discover(issuer, Math.min(options.timeoutSeconds ?? 10, 5)).finally(() => {
      check.pending = undefined;
    });
    try {
      const fresh = await check.pending;
      configurations.set(issuer, Promise.resolve(fresh));
      check.answeredAt = now();
      return fresh;
    } catch (error) {
      check.failedAt = now();
      throw new OidcProviderUnavailable(describe(error));
    }
  }

  const providerTokens = (tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers, at: number) => {
    const expiresIn = tokens.expiresIn();
    return {
      accessToken: tokens.access_token,
      expiresAt: expiresIn === undefined ? undefined : at + expiresIn * 1000,
      refreshToken: tokens.refresh_token,
    } satisfies ProviderTokens;
  };

  return {
    /** The authorization request to send the browser to, and what its callback must match. */
    async authorizationUrl(
      origin: string,
      redirectUri: string,
      extra: Record<string, string> = {},
    ): Promise<{ url: URL; pending: PendingSignIn }> {
      // Never send the browser to a provider that does not answer (a cached discovery says
      // nothing about now): OidcProviderUnavailable, and the portal's sign-in page says so.
      const config = await liveConfiguration(origin);
      const pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        ...extra,
        redirect_uri: redirectUri,
        scope: options.scope,
        response_type: 'code',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, pending };
    },

    /**
     * Checks the authorization response at `callbackUrl` (the redirect URI with the provider's
     * query), redeems the code, and reads who signed in from the ID token and the user-info
     * endpoint. Throws OidcSignInError.
     */
    async completeSignIn(
      origin: string,
      callbackUrl: URL,
      pending: PendingSignIn,
    ): Promise<{ claims: IdentityClaims; tokens: ProviderTokens }> {
      let config: oidc.Configuration;
      let tokens;
      try {
        config = await configuration(origin);
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        if (error instanceof oidc.AuthorizationResponseError) {
          const code = ERROR_CODE.test(error.error) ? error.error : 'invalid_error';
          throw new OidcSignInError(`the provider answered ${code}`, code, error.error_description?.slice(0, 500));
        }
        throw new OidcSignInError(describe(error));
      }
      const at = Date.now();
      const id = tokens.claims()!;
      let info: oidc.UserInfoResponse | undefined;
      if (config.serverMetadata().userinfo_endpoint) {
        try {
          info = await oidc.fetchUserInfo(config, tokens.access_token, id.sub);
        } catch (error) {
          throw new OidcSignInError(`user-info: ${describe(error)}`);
        }
      }
      const email = info?.email ?? id.email;
      const verified = info?.email_verified ?? id.email_verified;
      const name = info?.name ?? id.name;
      if (typeof email !== 'string' || !email) throw new OidcSignInError('the provider gave no e-mail address');
      // The portal keys badges and one-time links on the e-mail: one the provider says it has not
      // verified would let anyone claim another person's address.
      if (verified === false) throw new OidcSignInError('the provider says the e-mail address is not verified');
      return {
        claims: { sub: id.sub, email, name: typeof name === 'string' && name ? name : null, exp: id.exp },
        // The ID token is kept for log out (RP-initiated logout's id_token_hint).
        tokens: { ...providerTokens(tokens, at), ...(tokens.id_token ? { idToken: tokens.id_token } : {}) },
      };
    },

    /** Who an access token of the provider belongs to, by its user-info endpoint. */
    async userInfo(origin: string, accessToken: string): Promise<IdentityClaims> {
      const config = await configuration(origin);
      const info = await oidc.fetchUserInfo(config, accessToken, oidc.skipSubjectCheck);
      if (typeof info.email !== 'string' || !info.email) throw new OidcSignInError('user-info has no e-mail');
      const name = typeof info.name === 'string' && info.name ? info.name : null;
      return { sub: info.sub, email: info.email, name, exp: Math.floor(Date.now() / 1000) + 60 };
    },

    /** New provider tokens for a refresh token (the ID token kept unless a new one comes). */
    async refresh(origin: string, refreshToken: string, idToken?: string): Promise<ProviderTokens> {
      const config = await configuration(origin);
      const at = Date.now();
      const tokens = await oidc.refreshTokenGrant(config, refreshToken);
      const latestIdToken = tokens.id_token ?? idToken;
      return {
        ...providerTokens(tokens, at),
        refreshToken: tokens.refresh_token ?? refreshToken,
        ...(latestIdToken ? { idToken: latestIdToken } : {}),
      };
    },

    /**
     * Where to send the browser after the portal's own log out, so the provider's session ends
     * too (RP-initiated logout): its end_session_endpoint with the ID token as a hint and where to
     * come back. Undefined when the provider offers none, or does not answer now (the portal's
     * session is over either way; a dead provider page helps nobody).
     */
    async endSessionUrl(
      origin: string,
      logout: { idToken?: string | undefined; postLogoutRedirectUri: string; locale: string },
    ): Promise<URL | undefined> {
      let config: oidc.Configuration;
      try {
        config = await liveConfiguration(origin);
      } catch {
        return undefined;
      }
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return oidc.buildEndSessionUrl(config, {
        post_logout_redirect_uri: logout.postLogoutRedirectUri,
        ui_locales: logout.locale,
        ...(logout.idToken ? { id_token_hint: logout.idToken } : {}),
      });
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

/**
 * A short reason for the log: the library's message, the check that failed (its cause) and the
 * provider's error code if any. Never a token.
 */
function describe(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return `${error.message} (${error.status} ${error.error})`;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? `: ${error.cause.message}` : '';
  return error.message + cause;
}
