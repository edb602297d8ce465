import type { CardApi } from '../payments/newebpay-api';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Struct } from 'superstruct';
import type { Locale } from '@i18n/locales';
import type { Role } from '@domain/roles';
import type { Config } from '../config';
import type { EditionDefaultKey } from '../editions/editions';
import type { Db } from '../db/client';
import type { ContentSource } from '../content/works';
import type { IdentityClient } from '../identity/identity';
import type { OidcClient } from '../identity/oidc-client';
import type { MpgKeys } from '../payments/newebpay';
import type { FileStorage } from '../files/storage';
import type { SessionStore, VerifiedSession } from '../sessions/sessions';
import type { RateLimiter, RateRule } from '../security/rate-limit';
import type { OrderContext } from '../orders/order-state';
import type { User } from '../identity/users';
import type { EzpayClient } from '../invoices/ezpay';

export type ApiConfig = Pick<
  Config,
  | 'API_BODY_LIMIT_BYTES'
  | 'AUTH_COOKIE_DOMAIN'
  | 'SITE_URL'
  | 'PAYMENT_EXPIRES_DAYS'
  | 'ORDER_PREFIX'
  | 'PICKUP_CODE_SECRET'
  | 'NEWEBPAY_VERSION'
  | 'ATM_VIRTUAL_ACCOUNTS'
  | 'PORT'
  | 'MAIL_FROM'
  | 'organiserEmails'
  | 'SESSION_IDLE_SECONDS'
  | 'IDENTITY_END_SESSION'
  | 'RATE_LIMIT_SIGNIN'
  | 'RATE_LIMIT_UPLOADS'
  | 'RATE_LIMIT_ORDERS'
  | 'RATE_LIMIT_PAYMENT_REJECTS'
  | 'UPLOAD_QUOTA_FILES'
  | 'UPLOAD_QUOTA_BYTES'
  | EditionDefaultKey
>;

/**
 * How users sign in (decision 019): the agency's flow, whose access token is the API credential,
 * or standard OpenID Connect, after which the portal's own session is.
 */
export type IdentityDeps =
  { mode: 'agency'; client: IdentityClient } | { mode: 'oidc'; client: OidcClient; sessions: SessionStore };

/** What the request authenticated with (set by the auth middleware with `user`). */
export type Credential = {
  /** The token as sent: the agency's access token, or the portal's session credential. */
  token: string;
  /** OIDC mode: the session. */
  session?: VerifiedSession;
  /** The user's token at the identity provider, forwarded to the content site (decision 016). */
  upstreamToken: () => Promise<string>;
};

export type ApiDeps = {
  db: Db;
  identity: IdentityDeps;
  config: ApiConfig;
  storage: FileStorage;
  /** Where the signed-in user's works come from (the content site, decision 016). */
  content: ContentSource;
  /** Merchant keys, where the browser posts card payments, and the card APIs (refunds, issue 22). */
  gateway: { keys: MpgKeys; url: (origin: string) => string; api?: CardApi };
  /** Where rate limits count (decision 021); default: memory of this process. */
  rateLimiter?: RateLimiter;
  /** E-invoices (issue 22): the ezPay client (or the sandbox's); `sandbox` when no EZPAY_URL. Absent: no carrier checks. */
  invoices?: { client: EzpayClient; sandbox: boolean };
  /** Token of the operator API (none = operator API closed). */
  operatorToken?: string | undefined;
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;
};

export type Env = {
  Variables: { user: User; locale: Locale; credential: Credential; requestId: string; role: Role };
  /** Given by the catch-all endpoint (Astro's client address); absent in-process. */
  Bindings: { clientAddress?: string | undefined };
};
export type ApiApp = Hono<Env>;

/** What every route module gets: dependencies and the shared request helpers. */
export type RouteContext = {
  deps: ApiDeps;
  now: () => Date;
  log: NonNullable<ApiDeps['log']>;
  auth: MiddlewareHandler<Env>;
  /** Bearer token, or the identity cookie (GET links the browser opens directly). OIDC mode: as `auth`. */
  authOrCookie: MiddlewareHandler<Env>;
  /** Signed in (401 otherwise) as an organiser (403 otherwise), checked on every request (back office). */
  organiser: MiddlewareHandler<Env>;
  /** A Bearer token when one is sent (a bad one is 401); none: the route runs for a visitor, without `user`. */
  optionalAuth: MiddlewareHandler<Env>;
  /** Parses a JSON body (snake_case → camelCase) and validates it; 400 with the issues otherwise. */
  readJson: <T, S>(c: Context<Env>, struct: Struct<T, S>) => Promise<T>;
  validQuery: <T, S>(c: Context<Env>, struct: Struct<T, S>) => T;
  /** Answers `payload` as snake_case JSON. */
  send: (c: Context, payload: unknown, status?: 200 | 201) => Response;
  originOf: (c: Context) => string;
  /** The clock and the order settings every order transition takes. */
  orderCtx: () => OrderContext;
  /** Rate limits per signed-in user (after `auth`): 429 with Retry-After beyond the rule. */
  limits: { orders: MiddlewareHandler<Env>; uploads: MiddlewareHandler<Env> };
  /** Counts one hit of `subject` in `bucket`; throws the 429 beyond `rule`. */
  rateLimit: (bucket: string, subject: string, rule: RateRule) => Promise<void>;
  limiter: RateLimiter;
  rules: Record<'signin' | 'uploads' | 'orders' | 'paymentRejects', RateRule>;
  /** The client's address as the server saw it (Astro's clientAddress); 'unknown' in-process. */
  clientAddress: (c: Context<Env>) => string;
};
