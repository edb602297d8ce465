import { randomBytes } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { object, optional, string, type Struct } from 'superstruct';
import { camelize, snakeize } from '@domain/case';
import { RETURN_PATH_COOKIE, safeReturnPath } from '@domain/return-path';
import { check, QueryInt } from '@domain/validation';
import { LOCALE_COOKIE, localePath, negotiateLocale, toLocale } from '@i18n/locales';
import { DomainError } from '@domain/errors';
import { findEventBySlug, listEvents } from '../services/events';
import { expireOverdueOrders } from '../services/order-state';
import { findOrder, listOrders } from '../services/orders';
import { listPickupSlots } from '../services/pickup-schedule';
import { createUserDirectory } from '../services/users';
import type { ApiDeps, Env, RouteContext } from './context';
import { ApiError, badRequest, errorBody, fromDomain, notFound, unauthorized } from './errors';
import { eventView, orderView, pickupSlotView } from './views';
import { nulGuard } from './nul-guard';
import { handOver } from './in-process';
import { isDatabaseUnavailable } from '../services/db-errors';
import { badgeRoutes } from './routes/badges';
import { contentRoutes } from './routes/contents';
import { fileRoutes } from './routes/files';
import { orderRoutes } from './routes/orders';
import { operatorRoutes } from './routes/operator';
import { paymentRoutes } from './routes/payments';
import { referenceRoutes } from './routes/reference';
import { registrationRoutes } from './routes/registrations';

export const TOKEN_COOKIE = 'idc-token';
const STATE_COOKIE = 'idc-state';

export type { ApiDeps };

/**
 * Answers `payload` as snake_case JSON; to an SSR page's in-process call, as the object itself
 * (the page's client turns it into exactly what it would have parsed: in-process.ts).
 */
const send = (c: Context, payload: unknown, status: 200 | 201 = 200) =>
  handOver(c, payload) ? c.body(null, status) : c.json(snakeize(payload), status);

/** The registration API (DESIGN D3), mounted at /api/v1. Every dependency comes in as an argument. */
export function createApi(deps: ApiDeps) {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((level, message, data) => console[level](JSON.stringify({ level, message, ...data })));
  const directory = createUserDirectory(deps.db);
  const app = new Hono<Env>().basePath('/api/v1');

  const originOf = (c: Context) => deps.config.SITE_URL?.replace(/\/$/, '') ?? new URL(c.req.url).origin;
  const secure = (c: Context) => originOf(c).startsWith('https:');

  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(errorBody(error), error.status);
    if (error instanceof DomainError) {
      const mapped = fromDomain(error);
      return c.json(errorBody(mapped), mapped.status);
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down or restarting: a clear, retryable answer (the pool reconnects by itself).
      log('warn', 'database unavailable', { path: c.req.path, error: String((error as Error)?.message ?? error) });
      c.header('retry-after', '5');
      return c.json(errorBody(fromDomain(new DomainError('service_unavailable'))), 503);
    }
    log('error', 'unhandled API error', { path: c.req.path, error: String((error as Error).stack ?? error) });
    return c.json(errorBody(new ApiError(500, 'internal_error', 'An unexpected error has occurred')), 500);
  });
  app.notFound((c) => c.json(errorBody(notFound('Route')), 404));

  app.use('*', async (c, next) => {
    // Uploads have their own, larger limit (checked per purpose in the files service).
    if (c.req.path === '/api/v1/files/upload') return next();
    return bodyLimit({
      maxSize: deps.config.API_BODY_LIMIT_BYTES,
      onError: (ctx) =>
        ctx.json(
          errorBody(badRequest('payload_too_large', `Request body exceeds ${deps.config.API_BODY_LIMIT_BYTES} bytes`)),
          400,
        ),
    })(c, next);
  });
  app.use('*', nulGuard);
  // The language of localised fields: ?lang=, then Accept-Language.
  app.use('*', async (c, next) => {
    c.set('locale', negotiateLocale({ query: c.req.query('lang'), acceptLanguage: c.req.header('accept-language') }));
    await next();
  });

  /**
   * Verifies the Bearer token against the identity service's keys and loads the user. With
   * `cookie`, a GET may instead carry the identity cookie (links the browser opens directly).
   */
  const authenticate =
    (options: { cookie: boolean; optional?: boolean }): MiddlewareHandler<Env> =>
    async (c, next) => {
      const header = c.req.header('authorization') ?? '';
      const token =
        /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? (options.cookie && !header ? getCookie(c, TOKEN_COOKIE) : undefined);
      if (!token && options.optional && !header) return next();
      if (!token) throw unauthorized();
      let claims;
      try {
        claims = await deps.identity.verify(token);
      } catch {
        throw unauthorized('Invalid or expired token');
      }
      c.set('user', await directory.fromClaims(claims));
      await next();
    };
  const auth = authenticate({ cookie: false });
  const authOrCookie = authenticate({ cookie: true });
  const optionalAuth = authenticate({ cookie: false, optional: true });

  const invalid = (issues: { path: string; message: string }[]) => {
    const wire = issues.map((i) => ({
      path: i.path
        .split('.')
        .map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase())
        .join('.'),
      message: i.message,
    }));
    return badRequest('validation_failed', wire.map((i) => `${i.path}: ${i.message}`).join('; '), { issues: wire });
  };
  const validQuery = <T, S>(c: Context, struct: Struct<T, S>): T => {
    const result = check(c.req.query(), struct);
    if (!result.ok) throw invalid(result.issues);
    return result.value;
  };
  const readJson = async <T, S>(c: Context, struct: Struct<T, S>): Promise<T> => {
    if (!(c.req.header('content-type') ?? '').toLowerCase().includes('application/json')) {
      throw badRequest('unsupported_media_type', 'Expected a JSON body (content-type: application/json)');
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      throw badRequest('invalid_json', 'The request body is not valid JSON');
    }
    let body: unknown;
    try {
      body = camelize(raw);
    } catch {
      throw badRequest('invalid_json', 'The request body is nested too deeply');
    }
    const result = check(body, struct);
    if (!result.ok) throw invalid(result.issues);
    return result.value;
  };
  const orderCtx = () => ({
    now: now(),
    paymentDays: deps.config.PAYMENT_EXPIRES_DAYS,
    pickupSecret: deps.config.PICKUP_CODE_SECRET,
    orderPrefix: deps.config.ORDER_PREFIX,
  });
  const ctx: RouteContext = {
    deps,
    now,
    log,
    auth,
    authOrCookie,
    optionalAuth,
    readJson,
    validQuery,
    send,
    originOf,
    orderCtx,
  };
  // Unpaid orders past their deadline become overdue (and give their seats back) before anyone
  // reads, pays or registers; at most every 10 s per instance.
  let lastExpiry = 0;
  const expire: MiddlewareHandler<Env> = async (_c, next) => {
    if (Date.now() - lastExpiry > 10_000) {
      lastExpiry = Date.now();
      await expireOverdueOrders(deps.db, now());
    }
    await next();
  };
  for (const path of ['/orders', '/orders/*', '/demonstration', '/demonstration_order', '/payment/*'])
    app.use(path, expire);

  // ---- Sign-in (spec §2, §4) -------------------------------------------------------------
  app.get('/user/signin', (c) => {
    const locale = toLocale(c.req.query('locale')) ?? toLocale(getCookie(c, LOCALE_COOKIE)) ?? 'en';
    const returnTo = safeReturnPath(c.req.query('return_to'));
    const state = randomBytes(16).toString('base64url');
    const cookie = { path: '/', sameSite: 'Lax' as const, secure: secure(c), httpOnly: true };
    // The state, and the language the sign-in started in (the callback lands in it).
    setCookie(c, STATE_COOKIE, `${state}.${locale}`, { ...cookie, path: '/api/v1/user', maxAge: 600 });
    if (returnTo) setCookie(c, RETURN_PATH_COOKIE, returnTo, { ...cookie, httpOnly: false, maxAge: 3600 });
    return c.redirect(deps.identity.signInUrl(originOf(c), state, locale), 302);
  });

  app.get('/user/callback', async (c) => {
    const [expected, startedIn] = (getCookie(c, STATE_COOKIE) ?? '').split('.');
    const locale = toLocale(startedIn) ?? toLocale(getCookie(c, LOCALE_COOKIE)) ?? 'en';
    const failed = () => c.redirect(`/${localePath(locale)}/signin?error=sign_in_failed`, 302);
    deleteCookie(c, STATE_COOKIE, { path: '/api/v1/user' });
    const { code, state } = c.req.query();
    if (!code || !state || !expected || state !== expected) {
      log('warn', 'sign-in callback refused: state mismatch or missing code');
      return failed();
    }
    try {
      const token = await deps.identity.exchangeCode(code, `${originOf(c)}/api/v1/user/callback`);
      const claims = await deps.identity.verify(token.accessToken);
      await directory.fromClaims(claims);
      setCookie(c, TOKEN_COOKIE, token.accessToken, {
        path: '/',
        sameSite: 'Lax',
        secure: secure(c),
        maxAge: token.expiresIn,
        ...(deps.config.AUTH_COOKIE_DOMAIN ? { domain: deps.config.AUTH_COOKIE_DOMAIN } : {}),
      });
    } catch (error) {
      log('warn', 'sign-in callback failed', { error: String(error) });
      return failed();
    }
    return c.redirect(`/${localePath(locale)}/auth/callback`, 302);
  });

  app.get('/user/me', auth, (c) => {
    const { id, email, name } = c.get('user');
    return send(c, { data: { id, email, name } });
  });

  // ---- Events ------------------------------------------------------------------------------
  app.get('/events', async (c) => {
    const rows = await listEvents(deps.db);
    return send(c, { data: rows.map((r) => eventView(r, c.get('locale'), now())) });
  });

  app.get('/events/:eventId', async (c) => {
    const row = await findEventBySlug(deps.db, c.req.param('eventId'));
    if (!row) throw notFound('Event');
    return send(c, { data: eventView(row, c.get('locale'), now()) });
  });

  // ---- Badge pick-up schedule (spec §9) ---------------------------------------------------
  app.get('/pickup-schedule', async (c) => {
    const rows = await listPickupSlots(deps.db);
    return send(c, { data: rows.map((r) => pickupSlotView(r, c.get('locale'))) });
  });

  // ---- Orders ------------------------------------------------------------------------------
  const OrderListQuery = object({
    limit: optional(QueryInt(1, 100)),
    page: optional(QueryInt(1, 100_000)),
    lang: optional(string()),
  });
  app.get('/orders', auth, async (c) => {
    const query = validQuery(c, OrderListQuery);
    const limit = query.limit ?? 20;
    const page = query.page ?? 1;
    const { items, total } = await listOrders(deps.db, c.get('user').id, { limit, page });
    return send(c, { data: items.map((o) => orderView(o, c.get('locale'))), meta: { page, limit, total } });
  });

  app.get('/orders/:orderId', auth, async (c) => {
    const order = await findOrder(deps.db, c.get('user').id, c.req.param('orderId'));
    if (!order) throw notFound('Order');
    return send(c, { data: orderView(order, c.get('locale')) });
  });

  orderRoutes(app, ctx);
  registrationRoutes(app, ctx);
  badgeRoutes(app, ctx);
  paymentRoutes(app, ctx);
  fileRoutes(app, ctx);
  contentRoutes(app, ctx);
  operatorRoutes(app, ctx, deps.operatorToken);
  referenceRoutes(app, ctx);

  return app;
}

export type Api = ReturnType<typeof createApi>;
