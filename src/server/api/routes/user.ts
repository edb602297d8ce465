import { randomBytes } from 'node:crypto';
import type { Data, Me, PageVersion, Sendable, SessionEnd, SessionRefresh } from '@domain/contract';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { RETURN_PATH_COOKIE, safeReturnPath } from '@domain/return-path';
import { LOCALE_COOKIE, localePath, toLocale, type Locale } from '@i18n/locales';
import { OidcSignInError } from '../../identity/oidc-client';
import { IdentityUnavailableError } from '../../identity/identity';
import { pageVersion, type UserDirectory } from '../../identity/users';
import { sameOrigin, sessionCookies, TOKEN_COOKIE } from '../authenticate';
import type { ApiApp, RouteContext } from '../context';
import { ApiError, notFound, unauthorized } from '../errors';

const STATE_COOKIE = 'idc-state';
const STATE_PATH = '/api/v1/user';
const STATE_TTL_SECONDS = 600;
/** Provider error codes shown to the user as such (anything else reads "sign-in failed"). */
const PROVIDER_ERROR = /^[a-z0-9_]{1,64}$/;

/**
 * Sign-in, the signed-in user and the session (spec §2, §4; decision 019). Two modes:
 * - agency: the agency's `/signin` page with `login_redirect_uri`; the callback sets the
 *   `idc-token` cookie, which the pages copy to localStorage and send as Bearer;
 * - oidc: standard OpenID Connect through openid-client; the callback starts the portal's own
 *   session (an HttpOnly cookie), which the browser sends and the pages forward as Bearer.
 */
export function userRoutes(app: ApiApp, ctx: RouteContext, directory: UserDirectory) {
  const { deps, log, send, originOf, auth } = ctx;
  const secure = (c: Context) => originOf(c).startsWith('https:');
  const cookies = sessionCookies({ deps, originOf });
  const callbackUri = (c: Context) => `${originOf(c)}/api/v1/user/callback`;
  const signInPage = (locale: Locale, error = 'sign_in_failed', code?: string) =>
    `/${localePath(locale)}/signin?${new URLSearchParams({ error, ...(code ? { code } : {}) }).toString()}`;

  app.get('/user/signin', async (c) => {
    const locale = toLocale(c.req.query('locale')) ?? toLocale(getCookie(c, LOCALE_COOKIE)) ?? 'en';
    const returnTo = safeReturnPath(c.req.query('return_to'));
    const cookie = { path: STATE_PATH, sameSite: 'Lax' as const, secure: secure(c), httpOnly: true };
    let target: string;
    let state: string;
    if (deps.identity.mode === 'agency') {
      const value = randomBytes(16).toString('base64url');
      // The state, and the language the sign-in started in (the callback lands in it).
      state = `${value}.${locale}`;
      target = deps.identity.client.signInUrl(originOf(c), value, locale);
    } else {
      try {
        const { url, pending } = await deps.identity.client.authorizationUrl(originOf(c), callbackUri(c), {
          ui_locales: locale,
        });
        state = await deps.identity.sessions.sealState({ ...pending, locale }, STATE_TTL_SECONDS);
        target = url.href;
      } catch (error) {
        log('error', 'sign-in could not start: the identity provider is unreachable or misconfigured', {
          dependency: 'identity',
          error: String((error as Error).message ?? error),
        });
        return c.redirect(signInPage(locale, 'provider_unavailable'), 302);
      }
    }
    setCookie(c, STATE_COOKIE, state, { ...cookie, maxAge: STATE_TTL_SECONDS });
    if (returnTo) setCookie(c, RETURN_PATH_COOKIE, returnTo, { ...cookie, path: '/', httpOnly: false, maxAge: 3600 });
    return c.redirect(target, 302);
  });

  app.get('/user/callback', async (c) => {
    const query = c.req.query();
    deleteCookie(c, STATE_COOKIE, { path: STATE_PATH, secure: secure(c) });
    if (deps.identity.mode === 'agency') {
      const [expected, startedIn] = (getCookie(c, STATE_COOKIE) ?? '').split('.');
      const locale = toLocale(startedIn) ?? toLocale(getCookie(c, LOCALE_COOKIE)) ?? 'en';
      if (!expected || query.state !== expected) {
        log('warn', 'sign-in callback refused: state mismatch or no sign-in in progress');
        return c.redirect(signInPage(locale), 302);
      }
      if (query.error) return providerRefused(c, locale, query.error, query.error_description);
      if (!query.code) {
        log('warn', 'sign-in callback refused: no code');
        return c.redirect(signInPage(locale), 302);
      }
      try {
        const token = await deps.identity.client.exchangeCode(query.code, callbackUri(c));
        const claims = await deps.identity.client.verify(token.accessToken);
        await directory.fromClaims(claims);
        setCookie(c, TOKEN_COOKIE, token.accessToken, {
          path: '/',
          sameSite: 'Lax',
          secure: secure(c),
          maxAge: token.expiresIn,
          ...(deps.config.AUTH_COOKIE_DOMAIN ? { domain: deps.config.AUTH_COOKIE_DOMAIN } : {}),
        });
      } catch (error) {
        log('warn', 'sign-in callback failed', { error: String((error as Error).message ?? error) });
        return c.redirect(
          signInPage(locale, error instanceof IdentityUnavailableError ? 'provider_unavailable' : undefined),
          302,
        );
      }
      return c.redirect(`/${localePath(locale)}/auth/callback`, 302);
    }

    const { client, sessions } = deps.identity;
    const pending = await sessions.openState(getCookie(c, STATE_COOKIE));
    const locale = toLocale(pending?.locale) ?? toLocale(getCookie(c, LOCALE_COOKIE)) ?? 'en';
    if (!pending?.state || !pending.nonce || !pending.codeVerifier) {
      log('warn', 'sign-in callback refused: no sign-in in progress (state cookie missing, expired or altered)');
      return c.redirect(signInPage(locale), 302);
    }
    // The authorization response as the provider sent it to our redirect URI.
    const current = new URL(callbackUri(c));
    current.search = new URL(c.req.url).search;
    try {
      const { claims, tokens } = await client.completeSignIn(originOf(c), current, {
        state: pending.state,
        nonce: pending.nonce,
        codeVerifier: pending.codeVerifier,
      });
      const user = await directory.fromClaims(claims);
      cookies.set(c, await sessions.create(user, tokens));
    } catch (error) {
      if (error instanceof OidcSignInError && error.providerError) {
        return providerRefused(c, locale, error.providerError, error.providerDescription);
      }
      log('warn', 'sign-in callback failed', { error: String((error as Error).message ?? error) });
      return c.redirect(signInPage(locale), 302);
    }
    return c.redirect(`/${localePath(locale)}/auth/callback`, 302);
  });

  /** The provider answered an error (the user cancelled, or it could not sign them in): say so. */
  function providerRefused(c: Context, locale: Locale, error: string, description?: string) {
    log('warn', 'sign-in refused by the identity provider', {
      error: error.slice(0, 64),
      ...(description ? { description: description.slice(0, 500) } : {}),
    });
    if (error === 'access_denied') return c.redirect(signInPage(locale, 'access_denied'), 302);
    return c.redirect(signInPage(locale, 'provider_error', PROVIDER_ERROR.test(error) ? error : undefined), 302);
  }

  app.get('/user/me', auth, (c) => {
    const { id, email, name } = c.get('user');
    return send(c, { data: { id, email, name } } satisfies Sendable<Data<Me>>);
  });

  // What the signed-in user's pages show, as one version: their data's (bumped by triggers on
  // every change to their orders, payments, receipts, registrations and works, and to their name
  // or e-mail) and the events' (their names, times, places). The pages' cache key (decision 032).
  app.get('/user/page-version', auth, async (c) => {
    const userId = c.get('user').id;
    // A portal session read it already; the agency's token needs the one query.
    const version = c.get('credential').session?.pageVersion ?? (await pageVersion(deps.db, userId));
    if (version === undefined) throw unauthorized();
    return send(c, { data: { userId, version } } satisfies Sendable<Data<PageVersion>>);
  });

  /**
   * OIDC mode: a fresh credential for the session of the Bearer credential, sliding the session
   * (the pages' middleware renews its cookie with it). Bearer only: a script in a page could send
   * the cookie, and must not read a credential in the answer.
   */
  app.post('/user/session/refresh', async (c) => {
    if (deps.identity.mode !== 'oidc') throw notFound('Route');
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer) throw unauthorized();
    const verified = await deps.identity.sessions.verify(bearer);
    const issued = verified && (await deps.identity.sessions.refresh(verified));
    if (!issued) throw unauthorized('Invalid or expired session');
    c.header('cache-control', 'no-store');
    return send(c, { data: { token: issued.token, expiresAt: issued.expiresAt } } satisfies Sendable<
      Data<SessionRefresh>
    >);
  });

  /**
   * Log out: ends the session for good (every instance), and clears its cookie. In OIDC mode, with
   * IDENTITY_END_SESSION and a provider that offers it, the answer also says where to send the
   * browser so the provider's session ends too (RP-initiated logout): at a shared computer, the
   * next person must not be signed in at the provider either. It comes back to the site root.
   */
  app.delete('/user/session', async (c) => {
    let endSessionUrl: string | null = null;
    if (deps.identity.mode === 'oidc') {
      const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
      const token = bearer ?? getCookie(c, cookies.name(c));
      if (!bearer && token && !sameOrigin(c, originOf)) {
        throw new ApiError(403, 'forbidden', 'Cross-site request refused');
      }
      const { sessions, client } = deps.identity;
      const verified = token ? await sessions.verify(token) : null;
      if (verified) {
        const provider = deps.config.IDENTITY_END_SESSION ? await sessions.providerTokens(verified.session.id) : null;
        await sessions.revoke(verified.session.id);
        if (deps.config.IDENTITY_END_SESSION) {
          const url = await client.endSessionUrl(originOf(c), {
            idToken: provider?.idToken,
            postLogoutRedirectUri: `${originOf(c)}/`,
            locale: c.get('locale'),
          });
          endSessionUrl = url?.href ?? null;
        }
      }
      cookies.clear(c);
    }
    return send(c, { data: { signedOut: true, endSessionUrl } } satisfies Sendable<Data<SessionEnd>>);
  });
}
