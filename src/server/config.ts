import { resolve } from 'node:path';
import {
  create,
  defaulted,
  enums,
  integer,
  object,
  optional,
  pattern,
  refine,
  size,
  string,
  StructError,
  type Infer,
} from 'superstruct';
import { boolean, coerce, number } from 'superstruct';

/**
 * Configuration: read once from the environment, validated, and frozen. Every variable is
 * documented in .env.example and the README. An invalid value stops start-up with a message
 * naming the variable (DESIGN D13).
 */
/** A URL with one of `protocols` (and, with `needsHost`, a host name) as a config value. */
const urlWith = (name: string, protocols: string[], needsHost: boolean) =>
  refine(string(), name, (value) => {
    try {
      const u = new URL(value);
      return protocols.includes(u.protocol) && (!needsHost || u.hostname !== '');
    } catch {
      return false;
    }
  });
const Url = urlWith('url', ['http:', 'https:', 'postgres:', 'postgresql:'], false);
const SmtpUrl = urlWith('smtp url', ['smtp:', 'smtps:'], true);
const RedisUrl = urlWith('redis url', ['redis:', 'rediss:'], true);
/** A rate limit as `<count>/<window>`: `600/10m` = 600 per 10 minutes (s, m or h; up to 24 h). */
const RateRuleText = refine(string(), 'rate limit', (value) => {
  const rule = parseRateRule(value);
  return rule ? true : 'Expected <count>/<window> such as 600/10m (count 1–1000000, window 1s–24h)';
});

/** A rate limit: at most `limit` hits per fixed window of `windowMs`. */
export type RateRule = { limit: number; windowMs: number };

/** Parses `600/10m` (s, m or h); null when malformed or out of range. */
export function parseRateRule(value: string): RateRule | null {
  const match = /^(\d{1,7})\/(\d{1,5})(s|m|h)$/.exec(value.trim());
  if (!match) return null;
  const limit = Number(match[1]);
  const windowMs = Number(match[2]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[3] as 's' | 'm' | 'h'];
  if (limit < 1 || limit > 1_000_000 || windowMs < 1000 || windowMs > 86_400_000) return null;
  return { limit, windowMs };
}

/** `addr@example.org` or `Name <addr@example.org>`, on one line. */
const MailAddress = pattern(string(), /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/);
const Int = coerce(integer(), string(), (v) => Number(v));
const Bool = coerce(boolean(), string(), (v) => v === 'true' || v === '1');
const Num = coerce(number(), string(), (v) => Number(v));

const ConfigStruct = object({
  HOST: defaulted(string(), 'localhost'),
  PORT: defaulted(Int, 4321),
  /** Public origin of the portal; derived from each request when unset. */
  SITE_URL: optional(Url),
  DATA_DIR: defaulted(string(), '.data'),
  DATABASE_URL: optional(Url),
  /** PostgreSQL: connections per instance (size max_connections for instances × this). */
  DB_POOL_SIZE: defaulted(Int, 10),
  /** PostgreSQL: opening a connection (TCP and start-up) gives up after this long. */
  DB_CONNECT_TIMEOUT_MS: defaulted(Int, 3_000),
  /** PostgreSQL: the server cancels a statement after this long; the client drops a connection silent 1 s longer. */
  DB_STATEMENT_TIMEOUT_MS: defaulted(Int, 5_000),
  /** PostgreSQL: the server ends a session left idle inside a transaction this long (its locks go). */
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: defaulted(Int, 10_000),
  CONFERENCE_HOME_URL: defaulted(Url, 'https://tccf.taicca.tw/'),
  MEMBER_CENTRE_URL: optional(Url),
  VENUE_MAP_URL: defaulted(Url, 'https://tccf.taicca.tw/venue'),
  AUTH_COOKIE_DOMAIN: optional(string()),
  AUTH_TOKEN_TTL_SECONDS: defaulted(Int, 60 * 60 * 12),
  IDENTITY_URL: optional(Url),
  IDENTITY_CLIENT_ID: defaulted(string(), 'registration-portal'),
  IDENTITY_CLIENT_SECRET: defaulted(string(), 'dev-identity-secret'),
  IDENTITY_TOKEN_PATH: defaulted(string(), '/oauth/token'),
  IDENTITY_JWKS_PATH: defaulted(string(), '/.well-known/jwks.json'),
  IDENTITY_USERINFO_PATH: defaulted(string(), '/userinfo'),
  IDENTITY_ISSUER: optional(string()),
  /** Expected token audience (`aud`), when the identity service sets one per product. */
  IDENTITY_AUDIENCE: optional(string()),
  /**
   * `oidc` (standard OpenID Connect, the default) or `agency` (the agency identity service's
   * flow of spec §2, IDENTITY_URL). Decision 019.
   */
  IDENTITY_MODE: defaulted(enums(['oidc', 'agency']), 'oidc'),
  /** OIDC: the scope asked for. */
  IDENTITY_SCOPE: defaulted(
    pattern(string(), /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/),
    'openid email profile',
  ),
  /**
   * OIDC: Log out also ends the session at the provider (RP-initiated logout, its
   * end_session_endpoint) when the provider offers one; false: only the portal's session ends.
   */
  IDENTITY_END_SESSION: defaulted(Bool, true),
  /** OIDC: how the client authenticates at the token endpoint. */
  IDENTITY_TOKEN_AUTH_METHOD: defaulted(enums(['client_secret_basic', 'client_secret_post']), 'client_secret_basic'),
  /** Agency mode: the `typ` header an access token must carry (RFC 9068 `at+jwt`); ID tokens never do. */
  IDENTITY_TOKEN_TYPE: defaulted(size(string(), 1, 100), 'at+jwt'),
  /** Signs the portal's session cookies (OIDC mode) and the sign-in state; 32–256 characters. */
  SESSION_SECRET: defaulted(size(string(), 32, 256), 'development-session-secret-not-for-production-use'),
  /** A session ends after this long without a request (sliding), and ... */
  SESSION_IDLE_SECONDS: defaulted(Int, 4 * 60 * 60),
  /** ... in any case this long after sign-in. */
  SESSION_ABSOLUTE_SECONDS: defaulted(Int, 12 * 60 * 60),
  API_BASE_URL: optional(Url),
  API_BODY_LIMIT_BYTES: defaulted(Int, 1024 * 1024),
  PAYMENT_EXPIRES_DAYS: defaulted(Num, 3),
  /** Seed the conference's events at start. Default: on for the embedded development setup only. */
  SEED: optional(Bool),
  LOG_LEVEL: defaulted(enums(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  REQUEST_TIMEOUT_MS: defaulted(Int, 10_000),
  ORDER_PREFIX: defaulted(pattern(string(), /^[A-Z]{1,4}$/), 'TC'),
  /** NewebPay MPG. Without NEWEBPAY_GATEWAY_URL the embedded sandbox gateway takes payments. */
  NEWEBPAY_GATEWAY_URL: optional(Url),
  NEWEBPAY_MERCHANT_ID: defaulted(pattern(string(), /^[A-Za-z0-9_]{1,20}$/), 'MS_SANDBOX'),
  NEWEBPAY_HASH_KEY: defaulted(pattern(string(), /^.{32}$/), 'sandboxHashKey000000000000000000'),
  NEWEBPAY_HASH_IV: defaulted(pattern(string(), /^.{16}$/), 'sandboxHashIV000'),
  NEWEBPAY_VERSION: defaulted(string(), '2.0'),
  /** ezPay e-invoices (issue 22). Without EZPAY_URL the embedded sandbox e-invoice service issues them. */
  EZPAY_URL: optional(Url),
  /** The invoice merchant's own id and keys (not the payment gateway's). */
  EZPAY_MERCHANT_ID: defaulted(pattern(string(), /^[A-Za-z0-9_]{1,20}$/), 'EZ_SANDBOX'),
  EZPAY_HASH_KEY: defaulted(pattern(string(), /^.{32}$/), 'sandboxInvoiceKey000000000000000'),
  EZPAY_HASH_IV: defaulted(pattern(string(), /^.{16}$/), 'sandboxInvoIV000'),
  /** ATM transfers through NewebPay virtual accounts (VACC, issue 22) for editions that do not say. */
  ATM_VIRTUAL_ACCOUNTS: defaulted(Bool, false),
  /** Signs the pick-up codes in badge QR codes (the badge desk verifies them). */
  PICKUP_CODE_SECRET: defaulted(size(string(), 16, 256), 'development-pickup-code-secret'),
  UPLOAD_DIR: optional(string()),
  /** Uploads in an S3-compatible bucket instead of UPLOAD_DIR (decision 023): required for several instances. */
  S3_BUCKET: optional(pattern(string(), /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)),
  /** Endpoint of an S3-compatible store (MinIO, R2 …); unset = AWS S3 in S3_REGION. */
  S3_ENDPOINT: optional(Url),
  S3_REGION: defaulted(string(), 'us-east-1'),
  /** Static credentials; unset = the AWS SDK's default chain (AWS_* variables, instance role). */
  S3_ACCESS_KEY_ID: optional(string()),
  S3_SECRET_ACCESS_KEY: optional(string()),
  /** Path-style URLs (endpoint/bucket/key), as most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: defaulted(Bool, false),
  /** Prepended to every object key (e.g. `portal/`). */
  S3_PREFIX: optional(pattern(string(), /^[A-Za-z0-9/_-]{0,200}$/)),
  /** One call to the bucket (its retry included) gives up after this long: 503 storage_unavailable. */
  S3_TIMEOUT_MS: defaulted(Int, 5_000),
  /** Bearer token /metrics asks for (Prometheus' `authorization` credentials); unset: /metrics is open. */
  METRICS_TOKEN: optional(size(string(), 16, 256)),
  /** Bearer token of the operator API (npm run orders / badge-link). Unset: a random one in DATA_DIR in development, closed otherwise. */
  OPERATOR_TOKEN: optional(size(string(), 24, 256)),
  /** Transfer instructions on the pay page. */
  BANK_NAME: defaulted(string(), 'Bank of Taiwan, Nangang Branch (example account)'),
  /** The bank and account holder as the zh-TW pay page shows them. */
  BANK_NAME_ZH: defaulted(string(), '臺灣銀行 南港分行（範例帳戶）'),
  BANK_CODE: defaulted(string(), '004'),
  BANK_ACCOUNT_NAME: defaulted(string(), 'Taiwan Creative Content Agency'),
  BANK_ACCOUNT_NAME_ZH: defaulted(string(), '文化內容策進院'),
  BANK_ACCOUNT_NUMBER: defaulted(string(), '000-00-000000-0'),
  BANK_SWIFT_CODE: defaulted(string(), 'BKTWTWTP'),
  /** Outgoing mail: an SMTP server (smtp:// or smtps://, credentials in the URL). Unset: the database outbox and the dev mailbox. */
  SMTP_URL: optional(SmtpUrl),
  /** Sender of the portal's e-mails; required with SMTP_URL. */
  MAIL_FROM: defaulted(MailAddress, 'TCCF <no-reply@tccf.invalid>'),
  /** The content site the works come from (decision 016). Unset: the embedded dev content site at /dev-content. */
  CONTENT_SITE_URL: optional(Url),
  /** The portal's client credentials at the content site; the secret is required with CONTENT_SITE_URL. */
  CONTENT_SITE_CLIENT_ID: defaulted(size(string(), 1, 256), 'registration-portal'),
  CONTENT_SITE_CLIENT_SECRET: defaulted(size(string(), 1, 256), 'dev-content-secret'),
  /** Timeout of one call to the content site (GETs are retried up to 2 times). */
  CONTENT_SITE_TIMEOUT_MS: defaulted(Int, 5_000),
  /** Organisers (the back office): comma-separated e-mails, besides those granted by `npm run organisers`. */
  ORGANISER_EMAILS: optional(pattern(string(), /^\s*[^\s@,]+@[^\s@,]+(?:\s*,\s*[^\s@,]+@[^\s@,]+)*\s*,?\s*$/)),
  /**
   * Where rate limits count (decision 021): `auto` = Redis with REDIS_URL, else PostgreSQL with
   * DATABASE_URL, else memory (the embedded PGlite: one process).
   */
  RATE_LIMIT_STORE: defaulted(enums(['auto', 'memory', 'postgres', 'redis']), 'auto'),
  /** Redis for the rate limits of several instances (redis:// or rediss://, credentials in the URL). */
  REDIS_URL: optional(RedisUrl),
  /** Prefix of the portal's Redis keys (several portals, or test runs, on one Redis). */
  REDIS_KEY_PREFIX: defaulted(pattern(string(), /^[A-Za-z0-9:_.-]{0,64}$/), 'portal:'),
  /** Sign-in starts and callbacks per client address. */
  RATE_LIMIT_SIGNIN: defaulted(RateRuleText, '600/10m'),
  /** Uploads per signed-in user. */
  RATE_LIMIT_UPLOADS: defaulted(RateRuleText, '60/10m'),
  /** Orders placed (registrations, badge applications and claims) per signed-in user. */
  RATE_LIMIT_ORDERS: defaulted(RateRuleText, '30/10m'),
  /** Gateway posts that fail verification, per client address: stored (truncated) up to this, then 429. */
  RATE_LIMIT_PAYMENT_REJECTS: defaulted(RateRuleText, '20/1h'),
  /** Uploads per user in any 24 hours: how many, and how many bytes. */
  UPLOAD_QUOTA_FILES: defaulted(Int, 100),
  UPLOAD_QUOTA_BYTES: defaulted(Int, 250 * 1024 * 1024),
  /** Uploads no order, badge or registration form refers to are deleted after this many hours. */
  UPLOAD_UNATTACHED_HOURS: defaulted(Int, 24),
});

export type Config = Infer<typeof ConfigStruct> & {
  /** Where rate limits count, RATE_LIMIT_STORE resolved (`auto` decided). */
  rateLimitStore: 'memory' | 'postgres' | 'redis';
  /** Absolute data directory. */
  dataDir: string;
  /** True when the embedded dev identity service serves sign-in. */
  devIdentity: boolean;
  /** True when an external identity provider signs users in (IDENTITY_ISSUER in OIDC mode, IDENTITY_URL in agency mode). */
  externalIdentity: boolean;
  /** True when the embedded sandbox card gateway takes payments. */
  sandboxGateway: boolean;
  /** True when the embedded sandbox e-invoice service (/sandbox-invoice) issues the invoices: no EZPAY_URL. */
  sandboxInvoice: boolean;
  /** True when the dev mailbox (/dev-mailbox) shows the database outbox: no SMTP_URL, development identity. */
  devMailbox: boolean;
  /** True when the embedded dev content site (/dev-content) serves the works: no CONTENT_SITE_URL. */
  devContent: boolean;
  /** ORGANISER_EMAILS as lower-cased e-mails. */
  organiserEmails: readonly string[];
};

/** Parses a configuration from an environment-like record; throws a readable Error. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(ConfigStruct.schema)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  try {
    const parsed = create(raw, ConfigStruct);
    const external = checkIdentity(parsed, env);
    // With the real identity service the portal is live: the sandbox gateway (anyone can "pay"
    // with a test card) and the development pick-up secret would be holes, not conveniences.
    if (external && !parsed.NEWEBPAY_GATEWAY_URL && env.ALLOW_SANDBOX_GATEWAY !== 'true') {
      throw new Error(
        `NEWEBPAY_GATEWAY_URL is required when ${external} is set (ALLOW_SANDBOX_GATEWAY=true for a staging site)`,
      );
    }
    if (external && !env.PICKUP_CODE_SECRET) {
      throw new Error(`PICKUP_CODE_SECRET is required when ${external} is set`);
    }
    if (parsed.NEWEBPAY_GATEWAY_URL && (!env.NEWEBPAY_HASH_KEY || !env.NEWEBPAY_HASH_IV || !env.NEWEBPAY_MERCHANT_ID)) {
      throw new Error(
        'NEWEBPAY_MERCHANT_ID, NEWEBPAY_HASH_KEY and NEWEBPAY_HASH_IV are required when NEWEBPAY_GATEWAY_URL is set',
      );
    }
    // Invoices from the sandbox are not real invoices: a live portal needs ezPay, or says it is staging.
    if (external && !parsed.EZPAY_URL && env.ALLOW_SANDBOX_INVOICE !== 'true') {
      throw new Error(`EZPAY_URL is required when ${external} is set (ALLOW_SANDBOX_INVOICE=true for a staging site)`);
    }
    if (parsed.EZPAY_URL && (!env.EZPAY_HASH_KEY || !env.EZPAY_HASH_IV || !env.EZPAY_MERCHANT_ID)) {
      throw new Error('EZPAY_MERCHANT_ID, EZPAY_HASH_KEY and EZPAY_HASH_IV are required when EZPAY_URL is set');
    }
    // The embedded dev content site lets anyone signed in invent works: on a live portal only
    // when asked for (a staging site), like the sandbox gateway.
    if (external && !parsed.CONTENT_SITE_URL && env.ALLOW_DEV_CONTENT !== 'true') {
      throw new Error(
        `CONTENT_SITE_URL is required when ${external} is set (ALLOW_DEV_CONTENT=true keeps the embedded dev content site for a staging site)`,
      );
    }
    if (parsed.CONTENT_SITE_URL && !env.CONTENT_SITE_CLIENT_SECRET) {
      throw new Error('CONTENT_SITE_CLIENT_SECRET is required when CONTENT_SITE_URL is set');
    }
    if (parsed.CONTENT_SITE_TIMEOUT_MS < 100 || parsed.CONTENT_SITE_TIMEOUT_MS > 60_000) {
      throw new Error('Invalid configuration: CONTENT_SITE_TIMEOUT_MS — Expected 100 to 60000 milliseconds');
    }
    if (parsed.RATE_LIMIT_STORE === 'redis' && !parsed.REDIS_URL) {
      throw new Error('REDIS_URL is required when RATE_LIMIT_STORE=redis');
    }
    if (parsed.RATE_LIMIT_STORE === 'postgres' && !parsed.DATABASE_URL) {
      throw new Error('DATABASE_URL is required when RATE_LIMIT_STORE=postgres');
    }
    for (const key of ['UPLOAD_QUOTA_FILES', 'UPLOAD_QUOTA_BYTES', 'UPLOAD_UNATTACHED_HOURS'] as const) {
      if (parsed[key] < 1) throw new Error(`Invalid configuration: ${key} — Expected a positive integer`);
    }
    for (const [key, min, max] of [
      ['DB_POOL_SIZE', 1, 1000],
      ['DB_CONNECT_TIMEOUT_MS', 100, 60_000],
      ['DB_STATEMENT_TIMEOUT_MS', 100, 3_600_000],
      ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 100, 3_600_000],
      ['S3_TIMEOUT_MS', 100, 60_000],
    ] as const) {
      if (parsed[key] < min || parsed[key] > max)
        throw new Error(`Invalid configuration: ${key} — Expected ${min} to ${max}`);
    }
    if (Boolean(parsed.S3_ACCESS_KEY_ID) !== Boolean(parsed.S3_SECRET_ACCESS_KEY)) {
      throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together (or neither: the default AWS chain)');
    }
    if ((parsed.S3_ENDPOINT || parsed.S3_ACCESS_KEY_ID) && !parsed.S3_BUCKET) {
      throw new Error('S3_BUCKET is required when S3_ENDPOINT or S3_ACCESS_KEY_ID is set');
    }
    if (parsed.SMTP_URL && !env.MAIL_FROM) {
      throw new Error('MAIL_FROM is required when SMTP_URL is set');
    }
    // A live portal without SMTP would keep every e-mail in its database and send none.
    if (external && !parsed.SMTP_URL && env.ALLOW_OUTBOX_MAIL !== 'true') {
      throw new Error(
        `SMTP_URL is required when ${external} is set (ALLOW_OUTBOX_MAIL=true keeps mail in the database for a staging site)`,
      );
    }
    return Object.freeze({
      ...parsed,
      dataDir: resolve(parsed.DATA_DIR),
      // A live site never re-seeds: seeding moves the seeded events' registration windows.
      SEED: parsed.SEED ?? !external,
      devIdentity: !external,
      externalIdentity: Boolean(external),
      sandboxGateway: !parsed.NEWEBPAY_GATEWAY_URL,
      sandboxInvoice: !parsed.EZPAY_URL,
      devMailbox: !parsed.SMTP_URL && !external,
      devContent: !parsed.CONTENT_SITE_URL,
      organiserEmails: Object.freeze(
        (parsed.ORGANISER_EMAILS ?? '')
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
      rateLimitStore:
        parsed.RATE_LIMIT_STORE !== 'auto'
          ? parsed.RATE_LIMIT_STORE
          : parsed.REDIS_URL
            ? 'redis'
            : parsed.DATABASE_URL
              ? 'postgres'
              : 'memory',
    });
  } catch (error) {
    if (error instanceof StructError) {
      throw new Error(`Invalid configuration: ${error.path.join('.') || error.key} — ${error.message}`);
    }
    throw error;
  }
}

/** Hosts an OIDC issuer may be reached over plain http on (a provider on the same machine, tests). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The identity settings of the two modes (decision 019). Returns the variable that names the
 * external identity provider (`IDENTITY_ISSUER` or `IDENTITY_URL`), or undefined for the embedded
 * development identity service.
 */
function checkIdentity(
  parsed: Infer<typeof ConfigStruct>,
  env: Record<string, string | undefined>,
): 'IDENTITY_ISSUER' | 'IDENTITY_URL' | undefined {
  let external: 'IDENTITY_ISSUER' | 'IDENTITY_URL' | undefined;
  if (parsed.IDENTITY_MODE === 'oidc') {
    if (parsed.IDENTITY_URL) {
      throw new Error(
        "IDENTITY_URL is the agency mode's setting: set IDENTITY_MODE=agency, or IDENTITY_ISSUER for OpenID Connect",
      );
    }
    if (parsed.IDENTITY_ISSUER) {
      let url: URL;
      try {
        url = new URL(parsed.IDENTITY_ISSUER);
      } catch {
        throw new Error('Invalid configuration: IDENTITY_ISSUER — Expected the issuer URL of the OpenID provider');
      }
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
        throw new Error('Invalid configuration: IDENTITY_ISSUER — Expected an https:// URL (http only on localhost)');
      }
      if (url.search || url.hash) {
        throw new Error('Invalid configuration: IDENTITY_ISSUER — An issuer URL has no query or fragment');
      }
      external = 'IDENTITY_ISSUER';
    }
    if (!parsed.IDENTITY_SCOPE.split(' ').includes('openid')) {
      throw new Error('Invalid configuration: IDENTITY_SCOPE — Expected a scope that includes openid');
    }
  } else if (parsed.IDENTITY_URL) {
    external = 'IDENTITY_URL';
    // Tokens the agency issued to other products (or ID tokens) must not pass as ours.
    if (!parsed.IDENTITY_AUDIENCE) throw new Error('IDENTITY_AUDIENCE is required when IDENTITY_URL is set');
  }
  if (external && !env.IDENTITY_CLIENT_SECRET) {
    throw new Error(`IDENTITY_CLIENT_SECRET is required when ${external} is set`);
  }
  // A forged Host header must not choose the sign-in redirect or the URLs of cached pages.
  if (external && !parsed.SITE_URL) throw new Error(`SITE_URL is required when ${external} is set`);
  if (external && parsed.IDENTITY_MODE === 'oidc' && !env.SESSION_SECRET) {
    throw new Error(`SESSION_SECRET is required when ${external} is set`);
  }
  if (parsed.SESSION_IDLE_SECONDS < 60 || parsed.SESSION_IDLE_SECONDS > parsed.SESSION_ABSOLUTE_SECONDS) {
    throw new Error(
      'Invalid configuration: SESSION_IDLE_SECONDS — Expected at least 60 seconds and at most SESSION_ABSOLUTE_SECONDS',
    );
  }
  if (parsed.SESSION_ABSOLUTE_SECONDS > 30 * 24 * 60 * 60) {
    throw new Error('Invalid configuration: SESSION_ABSOLUTE_SECONDS — Expected at most 30 days');
  }
  return external;
}

let cached: Config | undefined;
/** The process configuration, parsed on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
