import { $token, handleUnauthorized } from './auth.store';
import { createApiClient } from './api';

/** The API client in an island: same origin, the stored token, the 401 rule of spec §4. */
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
