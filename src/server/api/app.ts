import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { routePath } from 'hono/route';
import { object, optional, string, type Struct } from 'superstruct';
import { camelize, snakeize } from '@domain/case';
import { check, QueryInt } from '@domain/validation';
import { negotiateLocale } from '@i18n/locales';
import { DomainError } from '@domain/errors';
import { errorSummary } from '@domain/error-summary';
import { findEventBySlug, listEvents, publiclyVisible } from '../events/events';
import { expireOverdueOrders } from '../orders/order-state';
import { findOrder, listOrders } from '../orders/orders';
import { listPickupSlots } from '../badges/pickup-schedule';
import { findEditionBySlug } from '../editions/editions';
import { createUserDirectory } from '../identity/users';
import { createRateLimiter, memoryRateLimitStore, type RateRule } from '../security/rate-limit';
import { parseRateRule } from '../config';
import type { ApiDeps, Env, RouteContext } from './context';
import { ApiError, badRequest, errorBody, fromDomain, notFound, rateLimited } from './errors';
import { createAuthenticate } from './authenticate';
import { eventView, orderView, pickupSlotView } from './views';
import { nulGuard } from '../security/nul-guard';
import { handOver, isInProcessCall } from './in-process';
import { isDatabaseUnavailable, isStatementTimeout } from '../db/db-errors';
import { databaseHealth } from '../db/client';
import { StorageError } from '../files/storage';
import { countDependencyFailure, countRateLimitRefusal, recordRequest } from '../ops/metrics';
import { currentRequestId, requestIdFrom, withRequestId } from '../ops/request-context';
import { consoleLog, withRequestIds } from '../ops/log';
import { badgeRoutes } from './routes/badges';
import { contentRoutes } from './routes/contents';
import { fileRoutes } from './routes/files';
import { orderRoutes } from './routes/orders';
import { operatorRoutes } from './routes/operator';
import { paymentRoutes } from './routes/payments';
import { referenceRoutes } from './routes/reference';
import { registrationRoutes } from './routes/registrations';
import { adminRoutes, organiserOnly } from './routes/admin';
import { userRoutes } from './routes/user';
import { adminBadgeLinkRoutes } from './routes/admin-badge-links';
import { adminEventRoutes } from './routes/admin-events';
import { adminEditionRoutes } from './routes/admin-editions';
import { eventImageRoutes } from './routes/event-images';
import { marketExhibitorRoutes } from './routes/market-exhibitors';
import { adminExportRoutes } from './routes/admin-exports';
import { adminDeskRoutes } from './routes/admin-desk';
import { adminApprovalRoutes } from './routes/admin-approvals';
import { adminTransferRoutes } from './routes/admin-transfers';
import { adminTeamRoutes } from './routes/admin-team';
import { adminInvoiceRoutes } from './routes/admin-invoices';
import { orderInvoice } from '../invoices/invoices';
import { meetingRoutes } from './routes/meetings';
import { adminMeetingRoutes } from './routes/admin-meetings';

export { TOKEN_COOKIE } from './authenticate';

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
  const log = withRequestIds(deps.log ?? consoleLog('info'));
  const directory = createUserDirectory(deps.db);
  const app = new Hono<Env>().basePath('/api/v1');

  const originOf = (c: Context) => deps.config.SITE_URL?.replace(/\/$/, '') ?? new URL(c.req.url).origin;

  const health = databaseHealth(deps.db);
  /** 503 `service_unavailable` with Retry-After: the database is away or overloaded (decision 024, 041). */
  const databaseUnavailable = (c: Context) => {
    countDependencyFailure('database');
    c.header('retry-after', '5');
    return c.json(errorBody(fromDomain(new DomainError('service_unavailable'))), 503);
  };

  app.onError((raw, c) => {
    if (raw instanceof StorageError) {
      // The object store or the disk failed, not the database: said as such (decision 041).
      countDependencyFailure('storage');
      log(raw.code === 'insufficient_storage' ? 'error' : 'warn', 'storage unavailable', {
        dependency: 'storage',
        operation: raw.operation,
        reason: raw.reason,
        route: routePath(c, -1),
      });
      c.header('retry-after', raw.code === 'insufficient_storage' ? '60' : '5');
    }
    const error = raw instanceof DomainError ? fromDomain(raw) : raw;
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(errorBody(error), error.status);
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down, restarting or silent: a clear, retryable answer; its availability
      // is probed, and further requests are refused at once while it stays away.
      health?.availability.report(error);
      log('warn', 'database unavailable', {
        dependency: 'database',
        route: routePath(c, -1),
        ...errorSummary(error),
      });
      return databaseUnavailable(c);
    }
    if (isStatementTimeout(error)) {
      // A statement the server cancelled for taking too long (DB_STATEMENT_TIMEOUT_MS): overloaded.
      log('warn', 'database statement timed out', { dependency: 'database', route: routePath(c, -1) });
      return databaseUnavailable(c);
    }
    // No message and no URL: a failed query's message holds its parameters (names, phones), a
    // query string may hold a link code. The request id ties the line to what the client saw.
    const requestId = c.get('requestId');
    log('error', 'unhandled API error', {
      method: c.req.method,
      route: routePath(c, -1),
      ...errorSummary(error),
    });
    return c.json(
      errorBody(new ApiError(500, 'internal_error', 'An unexpected error has occurred', { request_id: requestId })),
      500,
    );
  });
  app.notFound((c) => c.json(errorBody(notFound('Route')), 404));

  // The request id (decision 040): the page's that called in-process, or the one the proxy in
  // front sent when plausible, else a new one; echoed back and on every log line of the request.
  // The request's duration goes to the metrics by route pattern (a page's own calls are part of
  // the page's).
  app.use('*', async (c, next) => {
    const started = performance.now();
    const current = currentRequestId();
    const id = current ?? requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.header('x-request-id', id);
    try {
      await (current ? next() : withRequestId(id, next));
    } finally {
      if (!isInProcessCall(c.req.raw))
        recordRequest(routePath(c), c.req.method, c.res.status, (performance.now() - started) / 1000);
    }
  });

  // While the database is known to be away, refuse at once (503) instead of waiting out the
  // pool's timeouts; while a probe is deciding, wait for it (decision 041).
  app.use('*', async (c, next) => {
    const availability = health?.availability;
    if (availability && availability.state() !== 'up' && (await availability.settled()) === 'down') {
      return databaseUnavailable(c);
    }
    await next();
  });

  app.use('*', async (c, next) => {
    // Uploads have their own, larger limit (checked per purpose in the files service), the
    // gateway's posts a smaller one: each route applies its own, so neither is read twice.
    if (c.req.path === '/api/v1/files/upload' || c.req.path.startsWith('/api/v1/payment/newebpay/')) return next();
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

  // Who is asking, from the credential of the identity mode (decision 019).
  const authenticate = createAuthenticate({ deps, directory, originOf, log });
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
  // ---- Rate limits (decision 021) ----------------------------------------------------------
  const limiter = deps.rateLimiter ?? createRateLimiter(memoryRateLimitStore(), { log });
  const rule = (value: string) => parseRateRule(value)!;
  const rules = {
    signin: rule(deps.config.RATE_LIMIT_SIGNIN),
    uploads: rule(deps.config.RATE_LIMIT_UPLOADS),
    orders: rule(deps.config.RATE_LIMIT_ORDERS),
    paymentRejects: rule(deps.config.RATE_LIMIT_PAYMENT_REJECTS),
  };
  const clientAddress = (c: Context<Env>) => c.env?.clientAddress || 'unknown';
  const rateLimit = async (bucket: string, subject: string, limitRule: RateRule) => {
    const result = await limiter.check(bucket, subject, limitRule);
    if (!result.allowed) {
      countRateLimitRefusal(bucket);
      throw rateLimited(result.retryAfterSeconds);
    }
  };
  const perUser =
    (bucket: 'orders' | 'uploads'): MiddlewareHandler<Env> =>
    async (c, next) => {
      await rateLimit(bucket, c.get('user').id, rules[bucket]);
      await next();
    };
  const perAddress =
    (bucket: string, limitRule: RateRule): MiddlewareHandler<Env> =>
    async (c, next) => {
      await rateLimit(bucket, clientAddress(c), limitRule);
      await next();
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
    organiser: organiserOnly({ deps, auth, authOrCookie }),
    optionalAuth,
    readJson,
    validQuery,
    send,
    originOf,
    orderCtx,
    limits: { orders: perUser('orders'), uploads: perUser('uploads') },
    rateLimit,
    limiter,
    rules,
    clientAddress,
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

  // ---- Sign-in (spec §2, §4), the signed-in user and the session --------------------------
  // Per client address (decision 021), before anything else of the sign-in runs.
  app.use('/user/signin', perAddress('signin', rules.signin));
  app.use('/user/callback', perAddress('signin-callback', rules.signin));
  userRoutes(app, ctx, directory);

  // ---- Events ------------------------------------------------------------------------------
  app.get('/events', async (c) => {
    const rows = await listEvents(deps.db);
    return send(c, { data: rows.map((r) => eventView(r, c.get('locale'), now())) });
  });

  app.get('/events/:eventId', async (c) => {
    const row = await findEventBySlug(deps.db, c.req.param('eventId'));
    // A draft is the back office's alone: 404 here, as for no event (decision 054).
    if (!row || !publiclyVisible(row)) throw notFound('Event');
    return send(c, { data: eventView(row, c.get('locale'), now()) });
  });

  eventImageRoutes(app, ctx);
  marketExhibitorRoutes(app, ctx);

  // ---- Badge pick-up schedule (spec §9) ---------------------------------------------------
  // `?edition={slug}`: that edition's (a past edition's badge keeps its own schedule); 404 for no such edition.
  app.get('/pickup-schedule', async (c) => {
    const slug = c.req.query('edition');
    const edition = slug ? await findEditionBySlug(deps.db, slug) : undefined;
    if (slug && !edition) throw notFound('Edition');
    const rows = await listPickupSlots(deps.db, edition?.id);
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
    return send(c, {
      data: { ...orderView(order, c.get('locale')), invoice: await orderInvoice(deps.db, order.order.id) },
    });
  });

  orderRoutes(app, ctx);
  registrationRoutes(app, ctx);
  badgeRoutes(app, ctx);
  paymentRoutes(app, ctx);
  fileRoutes(app, ctx);
  contentRoutes(app, ctx);
  operatorRoutes(app, ctx, deps.operatorToken);
  referenceRoutes(app, ctx);
  adminRoutes(app, ctx);
  adminBadgeLinkRoutes(app, ctx);
  adminEventRoutes(app, ctx);
  adminEditionRoutes(app, ctx);
  adminExportRoutes(app, ctx);
  adminDeskRoutes(app, ctx);
  // After adminRoutes: its /admin/* organiser gate runs before these.
  adminApprovalRoutes(app, ctx);
  adminTransferRoutes(app, ctx);
  adminTeamRoutes(app, ctx);
  adminInvoiceRoutes(app, ctx);
  meetingRoutes(app, ctx);
  adminMeetingRoutes(app, ctx);

  return app;
}

export type Api = ReturnType<typeof createApi>;
