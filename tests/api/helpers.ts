import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { SESSION_COOKIE } from '@domain/session';
import { parseConfig } from '@server/config';
import { openDatabase, type Database, type Db } from '@server/db/client';
import { seed } from '@server/db/seed';
import { createServerApp, type ServerAppOptions } from '@server/server-app';
import { memoryStorage, type FileStorage } from '@server/files/storage';

/**
 * Databases the API suites run against: an in-memory PGlite always, and the PostgreSQL server
 * of TEST_DATABASE_URL when it is set (a throwaway database per test file).
 */
export const DATABASES: ('pglite' | 'postgres')[] = [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : []),
];

export type TestDatabase = Database & { reset: () => Promise<void> };

export async function openTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  let database: Database;
  let drop = async () => {};
  if (kind === 'postgres') {
    const pg = (await import('pg')).default;
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    database = await openDatabase({ url: url.toString(), poolSize: 60 });
    drop = async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      // pool.end() resolves before its sockets are gone: wait for them, so dropping the database
      // does not terminate our own connections (which would surface as uncaught 57P01 errors).
      for (let i = 0; i < 50; i++) {
        const { rows } = await a.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  } else {
    database = await openDatabase({});
  }
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
    reset: async () => {
      await database.db.execute(
        sql.raw(
          `truncate users, events, files, orders, order_payments, order_events, pickup_slots, payment_notifications, receipts, badges, badge_links, registrations, order_contents, emails, dev_content_works, pitching_applicants, organisers, rate_limits, badge_link_batches, event_changes, bank_statement_mappings, bank_imports, bank_import_lines, audit_log, invoice_settings restart identity cascade`,
        ),
      );
    },
  };
}

export const TEST_ORIGIN = 'http://portal.test';

export type TestAppOptions = {
  now?: () => Date;
  devIdentityKeyFile?: string;
  /** Upload storage; default: a fresh in-memory one (tests never write under DATA_DIR). */
  storage?: FileStorage;
  log?: ServerAppOptions['log'];
  /** Opens the operator API with this token. */
  operatorToken?: string;
  /** The sessions' clock (default: real time). */
  sessionNow?: () => Date;
};

/** The server app (API + dev identity) over a test database, as `npm start` builds it. */
export async function createTestApp(
  database: Database,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
) {
  const config = parseConfig({ SEED: 'false', LOG_LEVEL: 'silent', ...env });
  const storage = options.storage ?? memoryStorage();
  const server = await createServerApp({ db: database.db, config, ...options, storage });
  const request = (path: string, init: RequestInit = {}) => server.app.request(new Request(TEST_ORIGIN + path, init));
  return { ...server, request, config, storage };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * The usual set-up of an API suite, as hooks of the enclosing `describe`: a database of `kind`
 * opened once, emptied and seeded with the conference's events before each test, and a fresh app
 * on it. Read `database`, `db` and `app` from the returned object inside the tests.
 */
export function seededApp(kind: 'pglite' | 'postgres', env: Record<string, string> = {}, options: TestAppOptions = {}) {
  const suite = {} as { database: TestDatabase; db: Db; app: TestApp };
  beforeAll(async () => {
    suite.database = await openTestDatabase(kind);
    suite.db = suite.database.db;
  });
  afterAll(() => suite.database.close());
  beforeEach(async () => {
    await suite.database.reset();
    await seed(suite.db);
    suite.app = await createTestApp(suite.database, env, options);
  });
  return suite;
}

/** Cookies set by a response, as name → value. */
export function setCookies(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const [name, ...value] = pair!.split('=');
    out[name!.trim()] = decodeURIComponent(value.join('='));
  }
  return out;
}

/**
 * Signs in through the embedded dev identity service exactly as a browser would, in the app's
 * identity mode (decision 019), and returns the credential and the responses:
 * - oidc (the default): sign-in redirect → /authorize → the sign-in form → the callback, which
 *   starts the portal's session; `token` is the session credential (its cookie's value, which the
 *   API also takes as `Authorization: Bearer`, as the pages' server side sends it);
 * - agency: sign-in redirect → the sign-in form → /authorize → the callback; `token` is the
 *   `idc-token` (the agency's access token).
 */
export async function signIn(app: TestApp, email: string, name = '', options: { returnTo?: string } = {}) {
  const oidc = app.config.IDENTITY_MODE === 'oidc';
  const q = new URLSearchParams({ locale: 'en', ...(options.returnTo ? { return_to: options.returnTo } : {}) });
  const start = await app.request(`/api/v1/user/signin?${q}`);
  const startCookies = setCookies(start);
  let signinUrl = new URL(start.headers.get('location')!);
  let authorize: Response | undefined;
  if (oidc) {
    // The authorization endpoint shows the sign-in form.
    authorize = await app.request(signinUrl.pathname + signinUrl.search);
    signinUrl = new URL(authorize.headers.get('location')!, TEST_ORIGIN);
  }
  const form = new URLSearchParams(signinUrl.searchParams);
  form.set('email', email);
  form.set('name', name);
  const posted = await app.request('/dev-identity/signin', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  if (!oidc) {
    const session = setCookies(posted)['dev-idp-session'];
    authorize = await app.request(posted.headers.get('location')!, {
      headers: { cookie: `dev-idp-session=${session}` },
    });
  }
  const callbackUrl = new URL((oidc ? posted : authorize!).headers.get('location')!);
  const callback = await app.request(callbackUrl.pathname + callbackUrl.search, {
    headers: { cookie: `idc-state=${startCookies['idc-state']}` },
  });
  const token = setCookies(callback)[oidc ? SESSION_COOKIE : 'idc-token']!;
  return { token, start, startCookies, callback, callbackUrl, authorize: authorize! };
}

/**
 * The user's token at the identity provider, as the content site gets it (decision 016): the
 * agency's access token itself, or, in OIDC mode, the provider's access token kept with the session.
 */
export async function providerToken(app: TestApp, token: string): Promise<string> {
  if (app.config.IDENTITY_MODE !== 'oidc') return token;
  const verified = await app.sessions.verify(token);
  const tokens = verified && (await app.sessions.providerTokens(verified.session.id));
  if (!tokens) throw new Error('no provider token kept with this session');
  return tokens.accessToken;
}

/** The Cookie header a browser signed in with `token` sends (the session cookie, or `idc-token` in agency mode). */
export const authCookie = (app: TestApp, token: string) =>
  `${app.config.IDENTITY_MODE === 'oidc' ? SESSION_COOKIE : 'idc-token'}=${token}`;

export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
