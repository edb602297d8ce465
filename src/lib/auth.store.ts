import { persistentAtom } from '@nanostores/persistent';
import { RETURN_PATH_COOKIE } from '@domain/return-path';
import { expiredTokenCookies, TOKEN_KEY } from './auth';

/** The identity token in the browser (localStorage `idc-token`), mirrored from the cookie by the layout. */
export const $token = persistentAtom<string>(TOKEN_KEY, '');

/**
 * The 401 rule in the browser (spec §4): forget the token (store and cookie), remember where
 * the user was, and go home to sign in.
 */
export function handleUnauthorized(homePath: string): void {
  $token.set('');
  // The shared cookie's domain comes from the layout (`data-auth-cookie-domain`, portal config).
  const domain = document.body?.dataset.authCookieDomain || undefined;
  for (const cookie of expiredTokenCookies(domain, location.protocol === 'https:')) document.cookie = cookie;
  const here = location.pathname + location.search;
  document.cookie = `${RETURN_PATH_COOKIE}=${encodeURIComponent(here)}; Path=/; Max-Age=3600; SameSite=Lax`;
  location.assign(homePath);
}
