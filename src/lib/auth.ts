/** Identity token helpers that need no I/O. */
import { apiHref } from './api/endpoints';

export const TOKEN_KEY = 'idc-token';

/**
 * The payload of a JWT, unverified: for display and timing only (the API verifies tokens; this
 * never decides access). Null for anything that is not a readable JWT.
 */
export function tokenPayload(token: string | null): Record<string, unknown> | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const bytes = Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const json: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The e-mail and name in a token's payload (the agency's access token, or the portal's session
 * credential), for display only. Null for anything that is not a readable JWT with an e-mail.
 */
export function displayIdentity(token: string | null): { email: string; name: string | null } | null {
  const json = tokenPayload(token);
  if (!json || typeof json.email !== 'string') return null;
  return { email: json.email, name: typeof json.name === 'string' && json.name ? json.name : null };
}

/** The sign-in endpoint, carrying the locale and (when given) the path to come back to. */
export function signInHref(locale: string, returnTo?: string): string {
  const q = new URLSearchParams({ locale });
  if (returnTo) q.set('return_to', returnTo);
  return apiHref.signin(q);
}

/**
 * The `document.cookie` writes that remove the identity cookie in the browser: the shared one of
 * the configured domain (`AUTH_COOKIE_DOMAIN`, as the sign-in callback set it) and a host-only
 * copy. A cookie is only removed with the domain it was set with.
 */
export function expiredTokenCookies(domain: string | undefined, secure = false): string[] {
  const base = `${TOKEN_KEY}=; Path=/; Max-Age=0; SameSite=Lax${secure ? '; Secure' : ''}`;
  return domain ? [base, `${base}; Domain=${domain}`] : [base];
}
