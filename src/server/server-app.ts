import { Hono } from 'hono';
import { wireRoundTrip } from '@domain/case';
import { expectPayload } from './api/in-process';
import { createApi, type ApiDeps } from './api/app';
import type { Config } from './config';
import { createDevContentSite } from './content/dev-content-site';
import { createHttpContentSource } from './content/http-source';
import type { ContentSource } from './content/works';
import type { Db } from './db/client';
import { createDevIdentity, DEV_ISSUER, loadSigner } from './identity/dev-identity';
import { createIdentityClient } from './identity/identity';
import { withVerifyCache } from './identity/verify-cache';
import { createDevMailbox } from './mail/dev-mailbox';
import type { MpgKeys } from './payments/newebpay';
import { createSandboxGateway } from './payments/sandbox-gateway';
import { s3Storage } from './services/s3-storage';
import { diskStorage, type FileStorage } from './services/storage';

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
};

type ApiLog = NonNullable<ApiDeps['log']>;
/** An in-process answer: the response and, for a JSON success, its data as the client parses it. */
export type InProcessAnswer = { response: Response; data?: unknown };
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/** JSON lines on the console at or above `level` (LOG_LEVEL). */
export function consoleLog(level: keyof typeof LEVELS): ApiLog {
  return (at, message, data) => {
    if (LEVELS[at] >= LEVELS[level]) console[at](JSON.stringify({ level: at, message, ...data }));
  };
}

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
  const log = options.log ?? consoleLog(config.LOG_LEVEL);
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

  let identity;
  if (config.devIdentity) {
    const signer = await loadSigner(options.devIdentityKeyFile);
    const dev = createDevIdentity({
      signer,
      clients: { [config.IDENTITY_CLIENT_ID]: config.IDENTITY_CLIENT_SECRET },
      allowedOrigins: config.SITE_URL ? [new URL(config.SITE_URL).origin] : [],
      tokenTtlSeconds: config.AUTH_TOKEN_TTL_SECONDS,
      ...(options.now ? { now: () => options.now!().getTime() } : {}),
    });
    root.route('/', dev);
    identity = createIdentityClient({
      browserBaseUrl: (origin) => `${origin}/dev-identity`,
      serverBaseUrl: 'http://embedded.invalid/dev-identity',
      clientId: config.IDENTITY_CLIENT_ID,
      clientSecret: config.IDENTITY_CLIENT_SECRET,
      tokenPath: '/oauth/token',
      jwksPath: '/.well-known/jwks.json',
      issuer: DEV_ISSUER,
      fetch: inProcess,
    });
  } else {
    const base = config.IDENTITY_URL!.replace(/\/$/, '');
    identity = createIdentityClient({
      browserBaseUrl: () => base,
      serverBaseUrl: base,
      clientId: config.IDENTITY_CLIENT_ID,
      clientSecret: config.IDENTITY_CLIENT_SECRET,
      tokenPath: config.IDENTITY_TOKEN_PATH,
      jwksPath: config.IDENTITY_JWKS_PATH,
      issuer: config.IDENTITY_ISSUER,
      audience: config.IDENTITY_AUDIENCE,
    });
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
  const gateway = {
    keys,
    url: (origin: string) => config.NEWEBPAY_GATEWAY_URL ?? `${origin}/sandbox-gateway/MPG/mpg_gateway`,
  };
  const storage = options.storage ?? uploadStorage(config);
  // The database outbox as a page, in development only (off with SMTP_URL or IDENTITY_URL).
  if (config.devMailbox) root.route('/', createDevMailbox({ db: options.db, from: config.MAIL_FROM }));

  // The content site (decision 016): the same HTTP client for the real one and the embedded dev
  // content site, which it reaches in-process.
  if (config.devContent) {
    root.route(
      '/',
      createDevContentSite({
        db: options.db,
        identity,
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

  root.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? c.json({ code: 'not_found', message: 'Route not found', error: 'Route not found' }, 404)
      : c.text('Not found', 404),
  );
  const api = createApi({
    db: options.db,
    // Tokens that verified are remembered until they expire (at most 5 min): identity/verify-cache.ts.
    identity: withVerifyCache(identity),
    config,
    storage,
    content,
    gateway,
    log,
    operatorToken: options.operatorToken,
    ...(options.now ? { now: options.now } : {}),
  });
  root.route('/', api);
  return { app: root, identity, inProcessFetch: inProcess, inProcessCall, content };
}
