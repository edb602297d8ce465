import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sessionCookieName, sessionRefreshDue } from '@domain/session';
import type { IssuedSession, VerifiedSession } from '../sessions/sessions';
import type { UserDirectory } from '../identity/users';
import { IdentityUnavailableError } from '../identity/identity';
import { countDependencyFailure } from '../ops/metrics';
import { DomainError } from '@domain/errors';
import type { ApiDeps, Env } from './context';
import { ApiError, unauthorized } from './errors';

/** The agency's identity cookie (spec §9: `idc-token`). */
export const TOKEN_COOKIE = 'idc-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AuthHelpers = {
  deps: ApiDeps;
  directory: UserDirectory;
  originOf: (c: Context) => string;
  log: NonNullable<ApiDeps['log']>;
};

/** The portal's session cookie (OIDC mode): its name and attributes follow the public origin. */
export function sessionCookies({ deps, originOf }: Pick<AuthHelpers, 'deps' | 'originOf'>) {
  const secure = (c: Context) => originOf(c).startsWith('https:');
  const now = () => (deps.identity.mode === 'oidc' ? deps.identity.sessions.now() : new Date());
  return {
    name: (c: Context) => sessionCookieName(secure(c)),
    /** Sets the cookie of a freshly issued credential: it lasts as long as the credential. */
    set(c: Context, issued: IssuedSession) {
      setCookie(c, sessionCookieName(secure(c)), issued.token, {
        path: '/',
        httpOnly: true,
        secure: secure(c),
        sameSite: 'Lax',
        maxAge: Math.max(0, Math.ceil((issued.expiresAt.getTime() - now().getTime()) / 1000)),
      });
    },
    clear(c: Context) {
      deleteCookie(c, sessionCookieName(secure(c)), { path: '/', secure: secure(c) });
    },
  };
}

/**
 * A cookie-authenticated request that changes something must come from our own pages: a browser
 * sends the cookie along with requests other sites make it send (decision 002 keeps the rule in
 * the pages' middleware; the API checks it again for callers that reach it directly).
 */
export function sameOrigin(c: Context, originOf: (c: Context) => string): boolean {
  const origin = c.req.header('origin');
  if (origin) return origin === originOf(c) || origin === new URL(c.req.url).origin;
  return c.req.header('sec-fetch-site') === 'same-origin';
}

/**
 * The API's authentication: who is asking, from the credential of the identity mode (decision
 * 019), never another kind.
 * - agency: `Authorization: Bearer <the agency's access token>` (or, with `cookie`, the
 *   `idc-token` cookie on a GET), verified as a JWT (signature, expiry, issuer, audience, typ);
 * - oidc: the portal's session, as `Authorization: Bearer <session credential>` (the pages' server
 *   side) or the HttpOnly session cookie (the browser). A session cookie that is no longer good
 *   is cleared; one past its refresh time is renewed (the session slides).
 */
export function createAuthenticate(helpers: AuthHelpers) {
  const { deps, directory, originOf, log } = helpers;
  const cookies = sessionCookies(helpers);

  return (options: { cookie: boolean; optional?: boolean }): MiddlewareHandler<Env> =>
    async (c, next) => {
      const header = c.req.header('authorization') ?? '';
      const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      const identity = deps.identity;

      if (identity.mode === 'agency') {
        const token = bearer ?? (options.cookie && !header ? getCookie(c, TOKEN_COOKIE) : undefined);
        if (!token && options.optional && !header) return next();
        if (!token) throw unauthorized();
        let claims;
        try {
          claims = await identity.client.verify(token);
        } catch (error) {
          // The identity service cannot be asked (its key set): we cannot tell, so the token is
          // not refused, nor is its cookie cleared by the pages (decision 041).
          if (error instanceof IdentityUnavailableError) {
            countDependencyFailure('identity');
            log('warn', 'identity service unavailable: token not verified', { dependency: 'identity' });
            throw new DomainError('identity_unavailable');
          }
          throw unauthorized('Invalid or expired token');
        }
        c.set('user', await directory.fromClaims(claims));
        c.set('credential', { token, upstreamToken: () => Promise.resolve(token) });
        return next();
      }

      const fromCookie = header ? undefined : getCookie(c, cookies.name(c));
      const token = bearer ?? fromCookie;
      if (!token && options.optional && !header) return next();
      if (!token) throw unauthorized();
      if (!bearer && !SAFE_METHODS.has(c.req.method) && !sameOrigin(c, originOf)) {
        throw new ApiError(403, 'forbidden', 'Cross-site request refused');
      }
      const verified = await identity.sessions.verify(token);
      if (!verified) {
        if (!bearer) cookies.clear(c);
        throw unauthorized('Invalid or expired session');
      }
      c.set('user', verified.user);
      c.set('credential', {
        token,
        session: verified,
        upstreamToken: () => upstreamToken(c, verified),
      });
      if (!bearer && sessionRefreshDue(verified, Math.floor(identity.sessions.now().getTime() / 1000))) {
        const issued = await identity.sessions.refresh(verified);
        if (issued) cookies.set(c, issued);
      }
      return next();
    };

  /**
   * The provider's access token kept with the session, refreshed first when it has expired and
   * the provider gave a refresh token; '' when there is none.
   */
  async function upstreamToken(c: Context, verified: VerifiedSession): Promise<string> {
    if (deps.identity.mode !== 'oidc') return '';
    const { sessions, client } = deps.identity;
    const tokens = await sessions.providerTokens(verified.session.id);
    if (!tokens) return '';
    if (tokens.refreshToken && tokens.expiresAt !== undefined && tokens.expiresAt <= Date.now() + 30_000) {
      try {
        const fresh = await client.refresh(originOf(c), tokens.refreshToken, tokens.idToken);
        await sessions.storeProviderTokens(verified.session.id, fresh);
        return fresh.accessToken;
      } catch (error) {
        log('warn', 'provider token refresh failed', { error: String((error as Error).message ?? error) });
      }
    }
    return tokens.accessToken;
  }
}
