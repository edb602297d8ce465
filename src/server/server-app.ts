import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { sessionCookieName } from '@domain/session';
import { wireRoundTrip } from '@domain/case';
import { expectPayload } from './api/in-process';
import { createApi, type ApiDeps } from './api/app';
import type { IdentityDeps } from './api/context';
import type { Config } from './config';
import { createDevContentSite } from './content/dev-content-site';
import { createHttpContentSource } from './content/http-source';
import type { ContentSource } from './content/works';
import type { Db } from './db/client';
import { createDevIdentity, DEV_ISSUER, loadSigner } from './identity/dev-identity';
import { createIdentityClient, type IdentityClaims } from './identity/identity';
import { createOidcClient } from './identity/oidc-client';
import { withVerifyCache } from './identity/verify-cache';
import { createDevMailbox } from './mail/dev-mailbox';
import type { MpgKeys } from './payments/newebpay';
import { createSandboxGateway } from './payments/sandbox-gateway';
import { createEzpayClient } from './invoices/ezpay';
import { createSandboxInvoice } from './invoices/sandbox-invoice';
import { cardApi } from './payments/newebpay-api';
import { setAtmDefault } from './payments/vacc';
import { s3Storage } from './files/s3-storage';
import { createSessionStore } from './sessions/sessions';
import { consoleLog, withRequestIds } from './ops/log';
import { observeDatabase } from './ops/metrics';
import { opsRoutes } from './ops/ops-routes';
import { diskStorage, type FileStorage } from './files/storage';
import {
  createRateLimiter,
  memoryRateLimitStore,
  postgresRateLimitStore,
  redisRateLimitStore,
  type RateLimiter,
} from './security/rate-limit';

export type ServerAppOptions = {
  db: Db;
  config: Config;
  /** Where the dev identity service keeps its signing key; undefined = ephemeral. */
  devIdentityKeyFile?: string | undefined;
  /** Token of the operator API (undefined = closed). */
  operatorToken?: string | undefined;
  /** Upload storage; default: files under DATA_DIR/uploads (or UPLOAD_DIR). */
  storage?: FileStorage;
  now?: () => Date;
  /** Structured log sink; default: JSON lines on the console, filtered by LOG_LEVEL. */
  log?: ApiLog;
  /** Replaces the content site (tests); default: CONTENT_SITE_URL, else the embedded dev content site. */
  content?: ContentSource;
  /**
   * The sessions' clock (tests of their lifetime). Real time by default, like the validity of the
   * agency's tokens: `now` moves business time (deadlines), not sign-in.
   */
  sessionNow?: () => Date;
  /** Replaces the rate limiter (tests); default: the store RATE_LIMIT_STORE names (decision 021). */
  rateLimiter?: RateLimiter;
};

type ApiLog = NonNullable<ApiDeps['log']>;
/** An in-process answer: the response and, for a JSON success, its data as the client parses it. */
export type InProcessAnswer = { response: Response; data?: unknown };

/** Where uploads live: the S3 bucket when S3_BUCKET is set (several instances), else the disk. */
export function uploadStorage(config: Config): FileStorage {
  if (config.S3_BUCKET) {
    return s3Storage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: config.S3_PREFIX,
      timeoutMs: config.S3_TIMEOUT_MS,
    });
  }
  return diskStorage(config.UPLOAD_DIR ?? `${config.dataDir}/uploads`);
}

/**
 * Everything the portal serves besides pages: the registration API and, when no external one is
 * configured, the embedded development identity service (and the dev mailbox without SMTP). One Hono app, so in-process callers
 * (SSR pages, tests) and the network see the same routes.
 */
export async function createServerApp(options: ServerAppOptions) {
  const { config } = options;
  // Every line written while a request is served names it (decision 040).
  const log = withRequestIds(options.log ?? consoleLog(config.LOG_LEVEL));
  const root = new Hono();
  // Server-to-server calls to an embedded service stay in-process: no socket, same protocol.
  const inProcess = (input: string, init?: RequestInit) => Promise.resolve(root.fetch(new Request(input, init)));
  /**
   * The SSR pages' calls: the same routes, and a JSON success comes back as the data the client
   * would have parsed (wireRoundTrip), without serialising it (api/in-process.ts).
   */
  const inProcessCall = async (request: Request): Promise<InProcessAnswer> => {
    const slot = expectPayload(request);
    const response = await root.fetch(request);
    return slot.handed ? { response, data: wireRoundTrip(slot.payload) } : { response };
  };

  // Sign-in (decision 019): the embedded development provider speaks both protocols; the client
  // of the configured mode talks to it exactly as it would to a real one (in-process).
  const siteOrigin = config.SITE_URL ? new URL(config.SITE_URL).origin : undefined;
  if (config.devIdentity) {
    const signer = await loadSigner(options.devIdentityKeyFile);
    const dev = createDevIdentity({
      signer,
      clients: { [config.IDENTITY_CLIENT_ID]: config.IDENTITY_CLIENT_SECRET },
      allowedOrigins: siteOrigin ? [siteOrigin] : [],
      ...(siteOrigin ? { issuer: () => `${siteOrigin}/dev-identity` } : {}),
      tokenTtlSeconds: config.AUTH_TOKEN_TTL_SECONDS,
      ...(options.now ? { now: () => options.now!().getTime() } : {}),
    });
    root.route('/', dev);
  }
  let identity: IdentityDeps;
  /** Who a user token of the identity provider belongs to (the dev content site's protocol API). */
  let verifyUserToken: (token: string) => Promise<IdentityClaims>;
  const sessions = createSessionStore({
    db: options.db,
    secret: config.SESSION_SECRET,
    idleSeconds: config.SESSION_IDLE_SECONDS,
    absoluteSeconds: config.SESSION_ABSOLUTE_SECONDS,
    ...(options.sessionNow ? { now: options.sessionNow } : {}),
  });
  if (config.IDENTITY_MODE === 'agency') {
    const base = config.devIdentity ? undefined : config.IDENTITY_URL!.replace(/\/$/, '');
    // Tokens that verified are remembered until they expire (at most 5 min): identity/verify-cache.ts.
    // (The OIDC mode's sessions are read on every request instead: a log out ends them at once.)
    const client = withVerifyCache(
      createIdentityClient({
        browserBaseUrl: (origin) => base ?? `${origin}/dev-identity`,
        serverBaseUrl: base ?? 'http://embedded.invalid/dev-identity',
        clientId: config.IDENTITY_CLIENT_ID,
        clientSecret: config.IDENTITY_CLIENT_SECRET,
        tokenPath: base ? config.IDENTITY_TOKEN_PATH : '/oauth/token',
        jwksPath: base ? config.IDENTITY_JWKS_PATH : '/.well-known/jwks.json',
        issuer: base ? config.IDENTITY_ISSUER : DEV_ISSUER,
        audience: base ? config.IDENTITY_AUDIENCE : undefined,
        tokenType: config.IDENTITY_TOKEN_TYPE,
        log,
        ...(base ? {} : { fetch: inProcess }),
      }),
    );
    identity = { mode: 'agency', client };
    verifyUserToken = (token) => client.verify(token);
  } else {
    const client = createOidcClient({
      issuer: config.devIdentity ? (origin) => `${origin}/dev-identity` : () => config.IDENTITY_ISSUER!,
      clientId: config.IDENTITY_CLIENT_ID,
      clientSecret: config.IDENTITY_CLIENT_SECRET,
      authMethod: config.IDENTITY_TOKEN_AUTH_METHOD,
      scope: config.IDENTITY_SCOPE,
      ...(config.devIdentity ? { fetch: inProcess } : {}),
    });
    identity = { mode: 'oidc', client, sessions };
    // The provider's access tokens may be opaque: its user-info endpoint says whose they are.
    verifyUserToken = (token) => client.userInfo(siteOrigin ?? 'http://embedded.invalid', token);
  }

  const keys: MpgKeys = {
    merchantId: config.NEWEBPAY_MERCHANT_ID,
    hashKey: config.NEWEBPAY_HASH_KEY,
    hashIv: config.NEWEBPAY_HASH_IV,
  };
  if (config.sandboxGateway) {
    // The sandbox's notify reaches our notify endpoint in-process when it is ours (same routes).
    const sandbox = createSandboxGateway({
      keys,
      fetch: (url, init) => inProcess(url, init),
      ...(options.now ? { now: () => options.now!().getTime() } : {}),
      log: (message, data) => log('info', message, data as Record<string, unknown> | undefined),
    });
    root.route('/', sandbox);
  }
  setAtmDefault(config.ATM_VIRTUAL_ACCOUNTS);
  const gateway = {
    keys,
    url: (origin: string) => config.NEWEBPAY_GATEWAY_URL ?? `${origin}/sandbox-gateway/MPG/mpg_gateway`,
    // The card APIs (cancel, refund, query) are on the gateway's host; the sandbox's in-process.
    api: cardApi(
      config.NEWEBPAY_GATEWAY_URL
        ? { base: new URL(config.NEWEBPAY_GATEWAY_URL).origin, keys, fetch: (url, init) => fetch(url, init) }
        : { base: 'http://sandbox.invalid/sandbox-gateway', keys, fetch: (url, init) => inProcess(url, init) },
    ),
  };
  // E-invoices (issue 22): ezPay, or the embedded sandbox speaking its protocol, reached in-process.
  const ezpayKeys = {
    merchantId: config.EZPAY_MERCHANT_ID,
    hashKey: config.EZPAY_HASH_KEY,
    hashIv: config.EZPAY_HASH_IV,
  };
  if (config.sandboxInvoice)
    root.route(
      '/',
      createSandboxInvoice({ keys: ezpayKeys, ...(options.now ? { now: () => options.now!().getTime() } : {}) }),
    );
  const invoices = {
    client: createEzpayClient({
      keys: ezpayKeys,
      baseUrl: config.EZPAY_URL ?? 'http://embedded.invalid/sandbox-invoice',
      ...(config.sandboxInvoice ? { fetch: inProcess } : {}),
    }),
    sandbox: config.sandboxInvoice,
  };
  const storage = options.storage ?? uploadStorage(config);
  const rateLimiter = options.rateLimiter ?? createRateLimiter(rateLimitStore(config, options.db), { log });
  // The database outbox as a page, in development only (off with SMTP_URL or IDENTITY_URL).
  if (config.devMailbox) root.route('/', createDevMailbox({ db: options.db, from: config.MAIL_FROM }));

  // The content site (decision 016): the same HTTP client for the real one and the embedded dev
  // content site, which it reaches in-process.
  if (config.devContent) {
    root.route(
      '/',
      createDevContentSite({
        db: options.db,
        identity: { verify: verifyUserToken },
        ...(identity.mode === 'oidc'
          ? {
              // Its pages see who is signed in to the portal by the portal's session cookie.
              signedIn: async (c) => {
                const token = getCookie(c, sessionCookieName(siteOrigin?.startsWith('https:') ?? false));
                const verified = token ? await sessions.verify(token) : null;
                return verified ? { sub: verified.user.subject, email: verified.user.email } : null;
              },
            }
          : {}),
        clients: { [config.CONTENT_SITE_CLIENT_ID]: config.CONTENT_SITE_CLIENT_SECRET },
        allowedOrigins: config.SITE_URL ? [new URL(config.SITE_URL).origin] : [],
      }),
    );
  }
  const content =
    options.content ??
    createHttpContentSource({
      baseUrl: config.devContent ? 'http://embedded.invalid/dev-content' : config.CONTENT_SITE_URL!,
      clientId: config.CONTENT_SITE_CLIENT_ID,
      clientSecret: config.CONTENT_SITE_CLIENT_SECRET,
      timeoutMs: config.CONTENT_SITE_TIMEOUT_MS,
      ...(config.devContent ? { fetch: inProcess } : {}),
      log: (level, message, data) => log(level, message, data),
    });

  // Probes and metrics at the site root (decision 040).
  observeDatabase(options.db);
  root.route(
    '/',
    opsRoutes({
      db: options.db,
      storage,
      metricsToken: config.METRICS_TOKEN,
    }),
  );

  root.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? c.json({ code: 'not_found', message: 'Route not found', error: 'Route not found' }, 404)
      : c.text('Not found', 404),
  );
  const api = createApi({
    db: options.db,
    identity,
    config,
    storage,
    content,
    gateway,
    invoices,
    log,
    operatorToken: options.operatorToken,
    rateLimiter,
    ...(options.now ? { now: options.now } : {}),
  });
  root.route('/', api);
  return {
    app: root,
    identity,
    sessions,
    inProcessFetch: inProcess,
    inProcessCall,
    content,
    storage,
    rateLimiter,
    invoices,
  };
}

/** The rate-limit store of the configuration: Redis, PostgreSQL, or this process's memory. */
function rateLimitStore(config: Config, db: Db) {
  if (config.rateLimitStore === 'redis')
    return redisRateLimitStore({ url: config.REDIS_URL!, prefix: config.REDIS_KEY_PREFIX });
  if (config.rateLimitStore === 'postgres') return postgresRateLimitStore(db);
  return memoryRateLimitStore();
}
