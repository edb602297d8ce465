import { defineMiddleware } from 'astro:middleware';
import { translator } from '@i18n/i18n';
import { LOCALE_COOKIE, localePath, negotiateLocale, toLocale } from '@i18n/locales';
import { NON_PAGE_PREFIXES } from '@lib/routes';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Cross-origin posts the portal accepts: the card gateway's browser return and server notify,
 * which are verified by their TradeSha instead. Everything else that changes state must come
 * from our own pages (Astro's checkOrigin is off because it has no per-path exemption).
 */
const CROSS_ORIGIN_ALLOWED = ['/api/v1/payment/newebpay/notify', '/api/v1/payment/newebpay/return'];

/** The badge desk reads badges' QR codes with the camera (issue 11); no other page may use it. */
const CAMERA_PAGES = /^\/(en|zh-tw)\/admin\/desk\/?$/;

function withSecurityHeaders(response: Response, path = ''): Response {
  // Responses of fetch() may have immutable headers; copy when needed.
  let res = response;
  try {
    res.headers.set('x-content-type-options', 'nosniff');
  } catch {
    res = new Response(response.body, response);
    res.headers.set('x-content-type-options', 'nosniff');
  }
  // A page may be stricter (the one-time badge link sends no referrer to other sites).
  if (!res.headers.has('referrer-policy')) res.headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  res.headers.set('x-frame-options', 'DENY');
  // Astro's CSP header carries script-src/style-src; frame-ancestors can only come as a header.
  res.headers.append('content-security-policy', "frame-ancestors 'none'");
  const camera = CAMERA_PAGES.test(path) ? 'camera=(self)' : 'camera=()';
  res.headers.set('permissions-policy', `${camera}, microphone=(), geolocation=()`);
  return res;
}

/** Our public origin behind a TLS proxy (the request URL shows the proxy's plain-HTTP side). */
const SITE_ORIGIN = (() => {
  try {
    return process.env.SITE_URL ? new URL(process.env.SITE_URL).origin : null;
  } catch {
    return null;
  }
})();

function isSameOrigin(request: Request, url: URL): boolean {
  const origin = request.headers.get('origin');
  if (origin) return origin === url.origin || origin === SITE_ORIGIN;
  const site = request.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  // No Origin and no Fetch Metadata: not a browser form post; API calls carry Bearer tokens.
  return true;
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, url, cookies } = context;
  const path = url.pathname;

  if (UNSAFE.has(request.method) && !CROSS_ORIGIN_ALLOWED.includes(path) && !isSameOrigin(request, url)) {
    return withSecurityHeaders(
      new Response(
        JSON.stringify({
          code: 'forbidden',
          message: 'Cross-site request refused',
          error: 'Cross-site request refused',
        }),
        {
          status: 403,
          headers: { 'content-type': 'application/json' },
        },
      ),
    );
  }

  const first = path.split('/')[1] ?? '';
  const prefixed = toLocale(first) && (first === 'en' || first === 'zh-tw');
  const isPage = !NON_PAGE_PREFIXES.some((p) => path.startsWith(p)) && !/\.[a-z0-9]+$/i.test(path);

  // A locale prefix in another case or form (`/zh-TW/…`, `/ZH-tw/…`, `/EN/…`, `/zh-Hant/…`): the
  // canonical path of that locale, for good (the language is in the URL, no negotiation).
  const named = toLocale(first);
  if (isPage && named && !prefixed) {
    const rest = path.slice(first.length + 1) || '/';
    const res = new Response(null, {
      status: 301,
      headers: { location: `/${localePath(named)}${rest}${url.search}`, 'cache-control': 'public, max-age=3600' },
    });
    return withSecurityHeaders(res);
  }

  if (isPage && !prefixed) {
    // A spec route without a locale: redirect by ?locale= → stored preference → browser → en.
    const locale = negotiateLocale({
      query: url.searchParams.get('locale'),
      stored: cookies.get(LOCALE_COOKIE)?.value,
      acceptLanguage: request.headers.get('accept-language'),
    });
    if (url.searchParams.has('locale')) {
      cookies.set(LOCALE_COOKIE, locale, { path: '/', maxAge: 60 * 60 * 24 * 365, sameSite: 'lax' });
    }
    const query = new URLSearchParams(url.search);
    query.delete('locale');
    const search = query.toString();
    const target = `/${localePath(locale)}${path === '/' ? '/' : path}${search ? `?${search}` : ''}`;
    const res = new Response(null, {
      status: 302,
      headers: { location: target, vary: 'Accept-Language, Cookie', 'cache-control': 'no-store' },
    });
    for (const header of cookies.headers()) res.headers.append('set-cookie', header);
    return withSecurityHeaders(res);
  }

  const locale =
    (prefixed && toLocale(first)) ||
    negotiateLocale({
      stored: cookies.get(LOCALE_COOKIE)?.value,
      acceptLanguage: request.headers.get('accept-language'),
    });
  context.locals.locale = locale;
  context.locals.t = translator(locale);
  context.locals.token = cookies.get('idc-token')?.value || null;
  const response = await next();
  // Caching of pages: those seen signed in carry personal data and are never stored, whatever
  // the page set. Public pages (home, event info) opt in themselves, only when the visitor is
  // signed out, with `public, max-age=60, stale-while-revalidate=300` and `Vary: Cookie`
  // (features/events/event-info.ts markPublic); every other page keeps the default (no header).
  if (isPage && context.locals.token) {
    try {
      response.headers.set('cache-control', 'private, no-store');
    } catch {
      /* immutable headers (a proxied response): leave them */
    }
  }
  return withSecurityHeaders(response, path);
});
