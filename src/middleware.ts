import { defineMiddleware } from 'astro:middleware';
import type { APIContext, AstroCookies, MiddlewareNext } from 'astro';
import { sessionCookieName, sessionRefreshDue } from '@domain/session';
import { hostAllowed } from '@domain/site-host';
import { translator } from '@i18n/i18n';
import { LOCALE_COOKIE, localePath, negotiateLocale, toLocale, type Locale } from '@i18n/locales';
import { apiHref } from '@lib/api';
import { TOKEN_KEY, tokenPayload } from '@lib/auth';
import { refreshSession, serverApi } from '@lib/embedded-api.server';
import { cacheablePage, cachedPage, pageSlot, storePage } from '@lib/page-cache.server';
import { recordPageRequest, servingRequest } from '@lib/ops.server';
import { portalConfig } from '@lib/portal-config.server';
import { NON_PAGE_PREFIXES } from '@lib/routes';
import { withheldError } from '@domain/error-summary';
import { decodeLeniently } from '@domain/validation';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Cross-origin posts the portal accepts: the card gateway's browser return and server notify,
 * which are verified by their TradeSha instead. Everything else that changes state must come
 * from our own pages (Astro's checkOrigin is off because it has no per-path exemption).
 */
const CROSS_ORIGIN_ALLOWED = [apiHref.newebpayNotify, apiHref.newebpayReturn, apiHref.newebpayCustomer];

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
  // No Origin and no Fetch Metadata: not a browser form post. (The API refuses cookie-authenticated
  // writes that do not prove they come from our pages itself.)
  return true;
}

/**
 * Credentials renewed in the last minute, by the credential they replace: a client that does not
 * keep cookies (a load test, a crawler with a fixed Cookie header) would otherwise renew on every
 * request. A bounded cache of this instance only (D14: nothing another instance needs).
 */
const renewed = new Map<string, { token: string; expiresAt: string; until: number }>();

/**
 * The credential the pages forward to the API (decision 019): the portal's session cookie in OIDC
 * mode, renewed here when it is due (the session slides; an ended one is dropped), or the
 * agency's `idc-token` cookie.
 */
async function credential(cookies: AstroCookies, url: URL, locale: Locale, isPage: boolean): Promise<string | null> {
  const config = portalConfig();
  if (config.identityMode === 'agency') return cookies.get(TOKEN_KEY)?.value || null;
  const secure = (config.siteUrl ?? url.origin).startsWith('https:');
  const name = sessionCookieName(secure);
  const token = cookies.get(name)?.value || null;
  if (!token || !isPage) return token;
  const payload = tokenPayload(token);
  const now = Math.floor(Date.now() / 1000);
  const drop = () => {
    cookies.delete(name, { path: '/', secure });
    return null;
  };
  if (typeof payload?.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp <= now) return drop();
  if (!sessionRefreshDue({ iat: payload.iat, exp: payload.exp }, now)) return token;
  const recent = renewed.get(token);
  const fresh = recent && recent.until > Date.now() ? recent : await refreshSession({ token, locale });
  if (fresh === 'ended') return drop();
  if (fresh === 'unavailable') return token;
  if (fresh !== recent) {
    if (renewed.size >= 1000) renewed.delete(renewed.keys().next().value!);
    renewed.set(token, { ...fresh, until: Date.now() + 60_000 });
  }
  const maxAge = Math.max(0, Math.floor((Date.parse(fresh.expiresAt) - Date.now()) / 1000));
  cookies.set(name, fresh.token, { path: '/', httpOnly: true, secure, sameSite: 'lax', maxAge });
  return fresh.token;
}

/** The operations endpoints (decision 040): no host check, locale or credential; they build no links. */
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Every request but the probes runs as one request id (X-Request-Id, or a new one): all its log
 * lines, its page's in-process API calls included, carry it, and the answer sends it back. A
 * page's duration goes to the metrics by route pattern (the API records its own, by its routes).
 */
export const onRequest = defineMiddleware((context, next) => {
  if (OPS_PATHS.has(context.url.pathname)) return next();
  return servingRequest(context.request.headers.get('x-request-id'), async (requestId) => {
    const started = performance.now();
    let status = 500;
    try {
      const response = await handle(context, next);
      status = response.status;
      try {
        response.headers.set('x-request-id', requestId);
      } catch {
        /* immutable headers (a proxied response): leave them */
      }
      return response;
    } finally {
      if (!context.url.pathname.startsWith('/api/'))
        recordPageRequest(context.routePattern, context.request.method, status, (performance.now() - started) / 1000);
    }
  });
});

async function handle(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { request, url, cookies } = context;
  const path = url.pathname;

  // Without SITE_URL the request's Host makes the portal's links: only our own is served.
  const { siteUrl, listen } = portalConfig();
  if (!hostAllowed(request.headers.get('host'), { siteUrl, ...listen })) {
    return withSecurityHeaders(
      new Response('Misdirected request: this server answers only for its own host (or set SITE_URL).\n', {
        status: 421,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      }),
    );
  }

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
    // Astro adds the cookies set through `cookies` to the response it is given: set once.
    return withSecurityHeaders(res);
  }

  // A page path holding a control character once decoded (`/en/events/%00`) names no page: the
  // 404 page, before any loader sends it to the API (which refuses it with a 400).
  if (isPage && /[\u0000-\u001f\u007f]/.test(decodeLeniently(path))) {
    const notFoundLocale = prefixed ? toLocale(first)! : 'en';
    return withSecurityHeaders(await context.rewrite(`/${localePath(notFoundLocale)}/404`));
  }

  const locale =
    (prefixed && toLocale(first)) ||
    negotiateLocale({
      stored: cookies.get(LOCALE_COOKIE)?.value,
      acceptLanguage: request.headers.get('accept-language'),
    });
  context.locals.locale = locale;
  context.locals.t = translator(locale);
  context.locals.token = await credential(cookies, url, locale, isPage);
  // The order list is reused while nothing it shows has changed (decision 032, lib/page-cache).
  const slot =
    isPage && context.locals.token && cacheablePage(request.method, url)
      ? await pageSlot(await serverApi(context.locals), url, locale)
      : null;
  let response: Response | null = slot && cachedPage(slot, request.headers.get('accept-encoding'));
  if (!response) {
    try {
      response = await next();
    } catch (error) {
      // Astro logs a page's error with its message and hands it to the 500 page: a message can
      // embed personal data (a failed query's parameters), so both get a stand-in without it.
      throw withheldError(error);
    }
    if (slot) response = await storePage(slot, response);
  }
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
}
