/**
 * The portal's own session after an OpenID Connect sign-in (decision 019): what the API that
 * issues it and the pages that carry it must agree on. No I/O.
 */

/** The session cookie over plain http (development, tests). */
export const SESSION_COOKIE = 'portal-session';
/**
 * The session cookie when the portal is served over https: the `__Host-` prefix makes the browser
 * refuse it unless it is `Secure`, host-only and `Path=/`, so a sibling subdomain cannot plant one.
 */
export const SECURE_SESSION_COOKIE = '__Host-portal-session';

/** The session cookie's name for a portal served over https (`secure`) or not. */
export const sessionCookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** A session credential is exchanged for a fresh one at most this often (seconds) while in use. */
export const SESSION_REFRESH_AFTER_SECONDS = 300;

/**
 * Whether a credential issued at `iat` and valid until `exp` (seconds) is due for a fresh one
 * at `now`: after five minutes, or a quarter of its lifetime when that is shorter.
 */
export function sessionRefreshDue(times: { iat: number; exp: number }, now: number): boolean {
  const after = Math.min(SESSION_REFRESH_AFTER_SECONDS, Math.max(1, Math.floor((times.exp - times.iat) / 4)));
  return now - times.iat >= after;
}
