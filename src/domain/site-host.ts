/**
 * Which Host a request may name (issue 12). Links the portal builds from a request (the sign-in
 * redirect, canonical and hreflang URLs of publicly cached pages, e-mail links) use its origin, so
 * without a configured public origin (SITE_URL) only the host the server listens on is accepted:
 * a forged Host header must not choose them. With SITE_URL every such URL comes from it and the
 * Host header (a proxy's, say) is not used. No I/O.
 */

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
/** Listening on these means "this machine": the loopback names reach it. */
const ANY_OR_LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0', '::', '[::]']);

/** The Host header values a portal listening on `host`:`port` answers (lower case). */
export function allowedHosts(host: string, port: number): Set<string> {
  const name = host.toLowerCase();
  const names = ANY_OR_LOOPBACK.has(name) ? LOOPBACK : [name.includes(':') ? `[${name}]` : name];
  const out = new Set<string>();
  for (const n of names) {
    out.add(`${n}:${port}`);
    if (port === 80) out.add(n);
  }
  return out;
}

/** Whether a request naming `hostHeader` may be served (always, when a public origin is configured). */
export function hostAllowed(
  hostHeader: string | null | undefined,
  settings: { siteUrl: string | undefined; host: string; port: number },
): boolean {
  if (settings.siteUrl) return true;
  if (!hostHeader) return false;
  return allowedHosts(settings.host, settings.port).has(hostHeader.trim().toLowerCase());
}
