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

/** Provider error codes are shown to the user: only the RFC 6749 §4.1.2.1 alphabet, bounded. */
const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

export function createOidcClient(options: OidcClientOptions) {
  const configurations = new Map<string, Promise<oidc.Configuration>>();

  /** The provider's configuration by discovery, once per issuer (a failure is retried next time). */
  function configuration(origin: string): Promise<oidc.Configuration> {
    const issuer = options.issuer(origin);
    let pending = configurations.get(issuer);
    if (!pending) {
      const url = new URL(issuer);
      const auth =
        options.authMethod === 'client_secret_post'
          ? oidc.ClientSecretPost(options.clientSecret)
          : oidc.ClientSecretBasic(options.clientSecret);
      pending = oidc.discovery(url, options.clientId, undefined, auth, {
        timeout: options.timeoutSeconds ?? 10,
        ...(options.fetch ? { [oidc.customFetch]: options.fetch as oidc.CustomFetch } : {}),
        // Config allows http only for a provider on this machine (and the embedded one).
        ...(url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      configurations.set(issuer, pending);
      pending.catch(() => configurations.delete(issuer));
    }
    return pending;
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
      const config = await configuration(origin);
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
        tokens: providerTokens(tokens, at),
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

    /** New provider tokens for a refresh token. */
    async refresh(origin: string, refreshToken: string): Promise<ProviderTokens> {
      const config = await configuration(origin);
      const at = Date.now();
      const tokens = await oidc.refreshTokenGrant(config, refreshToken);
      return { ...providerTokens(tokens, at), refreshToken: tokens.refresh_token ?? refreshToken };
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
