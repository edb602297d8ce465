import { $token, handleUnauthorized } from './auth.store';
import { createApiClient } from './api';

/**
 * The API client in an island: same origin, the 401 rule of spec §4, and the stored token as
 * Bearer in agency mode. In OIDC mode there is no token a script can read: the browser sends
 * the HttpOnly session cookie with these same-origin requests (decision 019).
 */
export function browserApi(locale: string, homePath: string) {
  return createApiClient({
    token: $token.get() || readCookieToken(),
    locale,
    onUnauthorized: () => handleUnauthorized(homePath),
  });
}

/** The cookie copy of the token, for the first page after sign-in (before the store is synced). */
function readCookieToken(): string | null {
  const match = /(?:^|; )idc-token=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : null;
}
