import type { AstroGlobal } from 'astro';
import { RETURN_PATH_COOKIE, safeReturnPath } from '@domain/return-path';
import { sessionCookieName } from '@domain/session';
import { localized } from '@lib/routes';
import { portalConfig } from '@lib/portal-config.server';
import { TOKEN_KEY } from '@lib/auth';

type Ctx = Pick<AstroGlobal, 'cookies' | 'url' | 'locals' | 'redirect'>;

const cookieDomain = () => {
  const domain = portalConfig().authCookieDomain;
  return domain ? { domain } : {};
};

/** Remembers where to come back to after sign-in (a same-site path only). */
export function storeReturnPath(ctx: Ctx, path: string): void {
  const safe = safeReturnPath(path);
  if (safe)
    ctx.cookies.set(RETURN_PATH_COOKIE, safe, {
      path: '/',
      sameSite: 'lax',
      maxAge: 60 * 60,
      secure: ctx.url.protocol === 'https:',
    });
}

/**
 * Forgets the credential: the agency's identity cookie (the layout script clears the browser's
 * copy) and the portal's session cookie (OIDC mode).
 */
export function clearToken(ctx: Ctx): void {
  const config = portalConfig();
  if (config.identityMode === 'agency') {
    ctx.cookies.delete(TOKEN_KEY, { path: '/', ...cookieDomain() });
    return;
  }
  const secure = (config.siteUrl ?? ctx.url.origin).startsWith('https:');
  ctx.cookies.delete(sessionCookieName(secure), { path: '/', secure });
}

/**
 * The 401 rule for pages (spec §4): clear the token, store the current path as return path and
 * send the visitor home, where they are asked to sign in.
 */
export function signInRedirect(ctx: Ctx): Response {
  storeReturnPath(ctx, ctx.url.pathname + ctx.url.search);
  clearToken(ctx);
  return ctx.redirect(localized(ctx.locals.locale, '/'), 302);
}
