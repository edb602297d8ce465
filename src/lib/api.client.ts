import { $token, handleUnauthorized } from './auth.store';
import { createTransport, publicClientOver } from './api';

/**
 * The API's transport in an island: same origin, the 401 rule of spec §4, and the stored token
 * as Bearer in agency mode. In OIDC mode there is no token a script can read: the browser sends
 * the HttpOnly session cookie with these same-origin requests (decision 019).
 */
export function browserTransport(locale: string, homePath: string) {
  return createTransport({
    token: $token.get() || readCookieToken(),
    locale,
    onUnauthorized: () => handleUnauthorized(homePath),
  });
}

/**
 * The API client in a registrant's island (wizards, pay pages, account): the registrants'
 * endpoints only. The back-office islands use @lib/admin-api.client, which adds `admin`; keeping
 * those out of here keeps them out of the registrants' pages (DESIGN §4, decision 062).
 */
export function browserApi(locale: string, homePath: string) {
  return publicClientOver(browserTransport(locale, homePath));
}

/** The cookie copy of the token, for the first page after sign-in (before the store is synced). */
function readCookieToken(): string | null {
  const match = /(?:^|; )idc-token=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : null;
}
