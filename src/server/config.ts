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
const Url = refine(string(), 'url', (value) => {
  try {
    const u = new URL(value);
    return (
      u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'postgres:' || u.protocol === 'postgresql:'
    );
  } catch {
    return false;
  }
});
const SmtpUrl = refine(string(), 'smtp url', (value) => {
  try {
    const u = new URL(value);
    return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
  } catch {
    return false;
  }
});
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
});

export type Config = Infer<typeof ConfigStruct> & {
  /** Absolute data directory. */
  dataDir: string;
  /** True when the embedded dev identity service serves sign-in. */
  devIdentity: boolean;
  /** True when the embedded sandbox card gateway takes payments. */
  sandboxGateway: boolean;
  /** True when the dev mailbox (/dev-mailbox) shows the database outbox: no SMTP_URL, development identity. */
  devMailbox: boolean;
  /** True when the embedded dev content site (/dev-content) serves the works: no CONTENT_SITE_URL. */
  devContent: boolean;
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
    if (parsed.IDENTITY_URL && !env.IDENTITY_CLIENT_SECRET) {
      throw new Error('IDENTITY_CLIENT_SECRET is required when IDENTITY_URL is set');
    }
    // With the real identity service the portal is live: the sandbox gateway (anyone can "pay"
    // with a test card) and the development pick-up secret would be holes, not conveniences.
    if (parsed.IDENTITY_URL && !parsed.NEWEBPAY_GATEWAY_URL && env.ALLOW_SANDBOX_GATEWAY !== 'true') {
      throw new Error(
        'NEWEBPAY_GATEWAY_URL is required when IDENTITY_URL is set (ALLOW_SANDBOX_GATEWAY=true for a staging site)',
      );
    }
    if (parsed.IDENTITY_URL && !env.PICKUP_CODE_SECRET) {
      throw new Error('PICKUP_CODE_SECRET is required when IDENTITY_URL is set');
    }
    if (parsed.NEWEBPAY_GATEWAY_URL && (!env.NEWEBPAY_HASH_KEY || !env.NEWEBPAY_HASH_IV || !env.NEWEBPAY_MERCHANT_ID)) {
      throw new Error(
        'NEWEBPAY_MERCHANT_ID, NEWEBPAY_HASH_KEY and NEWEBPAY_HASH_IV are required when NEWEBPAY_GATEWAY_URL is set',
      );
    }
    if (parsed.CONTENT_SITE_URL && !env.CONTENT_SITE_CLIENT_SECRET) {
      throw new Error('CONTENT_SITE_CLIENT_SECRET is required when CONTENT_SITE_URL is set');
    }
    if (parsed.CONTENT_SITE_TIMEOUT_MS < 100 || parsed.CONTENT_SITE_TIMEOUT_MS > 60_000) {
      throw new Error('Invalid configuration: CONTENT_SITE_TIMEOUT_MS — Expected 100 to 60000 milliseconds');
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
    if (parsed.IDENTITY_URL && !parsed.SMTP_URL && env.ALLOW_OUTBOX_MAIL !== 'true') {
      throw new Error(
        'SMTP_URL is required when IDENTITY_URL is set (ALLOW_OUTBOX_MAIL=true keeps mail in the database for a staging site)',
      );
    }
    return Object.freeze({
      ...parsed,
      dataDir: resolve(parsed.DATA_DIR),
      // A live site never re-seeds: seeding moves the seeded events' registration windows.
      SEED: parsed.SEED ?? !parsed.IDENTITY_URL,
      devIdentity: !parsed.IDENTITY_URL,
      sandboxGateway: !parsed.NEWEBPAY_GATEWAY_URL,
      devMailbox: !parsed.SMTP_URL && !parsed.IDENTITY_URL,
      devContent: !parsed.CONTENT_SITE_URL,
    });
  } catch (error) {
    if (error instanceof StructError) {
      throw new Error(`Invalid configuration: ${error.path.join('.') || error.key} — ${error.message}`);
    }
    throw error;
  }
}

let cached: Config | undefined;
/** The process configuration, parsed on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
