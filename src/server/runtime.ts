import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedDevContent } from './content/dev-content-seed';
import { seed } from './db/seed';
import { seedDemoExhibitors } from './market/demo-exhibitors';
import { mailSettings } from './mail/outbox';
import { outboxTransport, smtpTransport } from './mail/transport';
import { startMailWorker } from './jobs/worker';
import { createServerApp } from './server-app';
import { consoleLog } from './ops/log';

type Runtime = {
  database: Database;
  app: Awaited<ReturnType<typeof createServerApp>>['app'];
  inProcessFetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** The SSR pages' calls: answers with their data already parsed (api/in-process.ts). */
  inProcessCall: Awaited<ReturnType<typeof createServerApp>>['inProcessCall'];
  /** Stops the mail worker after its pass in progress. */
  stopMailWorker: () => Promise<void>;
};

let pending: Promise<Runtime> | undefined;

/**
 * The process's database and server app, created once. The promise is cached (and cleared on
 * failure, so a transient error is retried by the next request); server.mjs warms it at start.
 */
export function getRuntime(): Promise<Runtime> {
  pending ??= (async () => {
    const config = getConfig();
    const database = await openDatabase({
      url: config.DATABASE_URL,
      dataDir: join(config.dataDir, 'pglite'),
      poolSize: config.DB_POOL_SIZE,
      timeouts: {
        connectMs: config.DB_CONNECT_TIMEOUT_MS,
        statementMs: config.DB_STATEMENT_TIMEOUT_MS,
        idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      },
      log: consoleLog(config.LOG_LEVEL),
    });
    if (config.SEED) await seed(database.db);
    // The demo users' works on the dev content site (their subjects are the dev identity service's).
    if (config.SEED && config.devContent && config.devIdentity) await seedDevContent(database.db);
    const { app, inProcessFetch, inProcessCall, storage, rateLimiter, invoices } = await createServerApp({
      db: database.db,
      config,
      devIdentityKeyFile: join(config.dataDir, 'dev-identity-key.json'),
      operatorToken: operatorToken(config),
    });
    // The demo exhibitors of the directory (issue 23): dev identity users with works on the dev content site.
    if (config.SEED && config.devContent && config.devIdentity) await seedDemoExhibitors(database.db, storage);
    // The background worker: the mail outbox (decision 012; SMTP when configured, else the
    // database outbox), overdue orders, and housekeeping (unattached uploads, rate-limit windows).
    const worker = startMailWorker({
      db: database.db,
      transport: config.SMTP_URL ? smtpTransport({ url: config.SMTP_URL, from: config.MAIL_FROM }) : outboxTransport(),
      settings: mailSettings(config),
      log: consoleLog(config.LOG_LEVEL),
      housekeeping: { storage, unattachedHours: config.UPLOAD_UNATTACHED_HOURS, rateLimiter },
      invoices: invoices.client,
    });
    return { database, app, inProcessFetch, inProcessCall, stopMailWorker: worker.stop };
  })().catch((error) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

/** Where the development operator token is kept (read by scripts/*.ts). */
export const operatorTokenFile = (config: Config) => join(config.dataDir, 'operator-token');

/**
 * OPERATOR_TOKEN when configured. In development (embedded identity service) a random token is
 * kept in DATA_DIR, readable only by the user who runs the server and the operator commands.
 */
function operatorToken(config: Config): string | undefined {
  if (config.OPERATOR_TOKEN) return config.OPERATOR_TOKEN;
  if (!config.devIdentity) return undefined;
  const file = operatorTokenFile(config);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}
