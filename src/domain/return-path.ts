/** Name of the cookie that holds the path to come back to after sign-in (spec §4). */
export const RETURN_PATH_COOKIE = 'idc-return-path';

/**
 * A same-site relative path (`/…`, not `//host` or `/\host`), or null. Return paths come from
 * query strings and form posts, so anything that could leave the site is refused.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters and backslashes are normalised by browsers in surprising ways.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  try {
    const base = 'https://portal.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return null;
    // Dot segments can normalise to a protocol-relative path (`/.//evil` → `//evil`).
    if (url.pathname.startsWith('//')) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}
