import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Client, Pool, PoolClient } from 'pg';
import { createAvailability, type DatabaseAvailability } from './availability';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';

/** The database handle every service takes: one type for PGlite and a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** What opening the database migrated; undefined when opened with `migrate: false`. */
  migrations?: MigrationReport | undefined;
};

/** The pool's connections (a PostgreSQL server): open, idle, and requests waiting for one. */
export type PoolStats = { size: number; total: number; idle: number; waiting: number };

/** What operations read of an open database (decision 041): health, availability, the pool. */
export type DatabaseHealth = {
  kind: 'pglite' | 'postgres';
  /**
   * A trivial query on a connection of its own (never queued behind the pool's requests), with
   * the `created_at` of the newest migration recorded (0: none). Rejects when the database does
   * not answer; callers bound the wait (`withinBudget`).
   */
  probe(): Promise<{ latestMigration: number }>;
  /** Whether requests may use it now, driven by the failures they report (db/availability.ts). */
  availability: DatabaseAvailability;
  /** The pool's figures; undefined on PGlite (one in-process connection). */
  pool(): PoolStats | undefined;
};

/**
 * Timeouts of the connections to a PostgreSQL server (decision 041), so that a server that stops
 * answering (a failover, a dropped route: packets go nowhere) fails requests within seconds
 * instead of stalling them, and sessions it holds for a vanished client end on its side.
 */
export type PoolTimeouts = {
  /** Opening a connection (TCP and start-up); 3 s. */
  connectMs?: number;
  /**
   * A statement the server cancels past this long (`statement_timeout`); 5 s. The client gives
   * up on an answer 1 s after that and drops the connection (the server did not answer at all).
   */
  statementMs?: number;
  /** A session idle inside a transaction this long is ended by the server, its locks released; 10 s. */
  idleInTransactionMs?: number;
  /**
   * A query without an answer this long has the database probed (2 s): when the probe fails
   * too, the queries still waiting fail at once (503) rather than at their statement timeout.
   */
  stallMs?: number;
};

export const POOL_TIMEOUT_DEFAULTS = {
  connectMs: 3_000,
  statementMs: 5_000,
  idleInTransactionMs: 10_000,
  stallMs: 2_000,
} as const;
/** How long a request waits for a free connection of the pool (a burst queues here). */
const POOL_WAIT_MS = 5_000;
/** TCP keepalive on every connection: a silent peer on a long-idle connection is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;

export type DatabaseOptions = {
  /** postgres://… switches to a PostgreSQL server through `pg`. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` or undefined for an in-memory database. */
  dataDir?: string | undefined;
  /** Pool size for a PostgreSQL server. */
  poolSize?: number;
  /** Timeouts of a PostgreSQL server's connections (POOL_TIMEOUT_DEFAULTS). */
  timeouts?: PoolTimeouts;
  /** Apply pending migrations when opening (default true). */
  migrate?: boolean;
  /** Where the availability of the database is told (a lost server, its return). */
  log?: AvailabilityLog;
};
type AvailabilityLog = (level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;

/** What a migration run did. */
export type MigrationReport = {
  /** The migrations this run applied, by tag (drizzle/meta/_journal.json), oldest first. */
  applied: string[];
  /** How many migrations the database has recorded after the run. */
  recorded: number;
  /** The tag of the newest recorded migration. */
  latest: string | undefined;
};

/** Where drizzle-kit's migrations live (read at run time by the migrator). */
export function migrationsFolder(): string {
  return resolve(process.env.MIGRATIONS_DIR ?? resolve(process.cwd(), 'drizzle'));
}

/** Where the migrator records what it applied (drizzle's defaults, spelled out). */
const MIGRATIONS_SCHEMA = 'drizzle';
const MIGRATIONS_TABLE = '__drizzle_migrations';

/**
 * The key of the session-level PostgreSQL advisory lock every migration run holds: the first
 * 8 bytes of sha256('portal:migrations') as a signed bigint. Instances started together wait for
 * each other here; without it they raced on `create schema if not exists drizzle` (a duplicate
 * key in pg_namespace) and on the migrations themselves. See docs/decisions/007.
 */
export const MIGRATION_LOCK_KEY = '7986711254277625760';

type ConnectionScope = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;
const connectionScopes = new WeakMap<Db, ConnectionScope>();
const healths = new WeakMap<Db, DatabaseHealth>();

/** The health of a database opened by openDatabase (undefined for any other handle). */
export function databaseHealth(db: Db): DatabaseHealth | undefined {
  return healths.get(db);
}

/**
 * Runs `fn` on one connection of the pool, held from its first statement to its last: a read
 * and the transaction that follows it see the database at nearly the same moment, however long
 * the pool's queue (a registration burst queues every request's statements behind each other's).
 * PGlite has one connection: `fn` gets the database itself.
 */
export function onOneConnection<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  const scope = connectionScopes.get(db);
  return scope ? scope(fn) : fn(db);
}

/**
 * Opens the database and, unless `migrate: false`, applies pending migrations: on a PostgreSQL
 * server under the advisory lock MIGRATION_LOCK_KEY, on PGlite under its data directory's lock.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrate = options.migrate ?? true;
  if (options.url) {
    const [{ drizzle }, pg] = await Promise.all([import('drizzle-orm/node-postgres'), import('pg')]);
    const timeouts = { ...POOL_TIMEOUT_DEFAULTS, ...options.timeouts };
    const log: AvailabilityLog =
      options.log ?? ((level, message, data) => console[level](JSON.stringify({ level, message, ...data })));
    const connection = {
      connectionString: options.url,
      application_name: 'registration-portal',
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    };
    const FailFastPool = failFastPool(pg.default.Pool);
    const connections = connectionTracker();
    const pool = new FailFastPool({
      ...connection,
      max: options.poolSize ?? 10,
      // A request waits at most this long for a connection of the pool (503 after).
      connectionTimeoutMillis: POOL_WAIT_MS,
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      // The server cancels a slow statement first (statement_timeout); this fires only when it
      // does not answer at all, and the connection is then dropped (failFastClient).
      query_timeout: timeouts.statementMs + 1_000,
      Client: failFastClient(pg.default.Client, timeouts.connectMs, connections.tracker),
    });
    // A connection cut by the server (a restart, a failover) emits 'error': on an idle client the
    // pool's event, on a checked-out one (a transaction waiting for the application) the client's
    // own. Unhandled, either would end the process; handled, the query in flight fails (503), the
    // broken client is discarded on release and the pool connects anew (decision 024).
    const availability = createAvailability({
      probe: () => probePostgres(pg.default.Client, connection, timeouts.connectMs),
      oldestQuery: connections.oldestQuery,
      stallMs: timeouts.stallMs,
      onDown: connections.dropAll,
      log,
    });
    const lost = (error: Error) => {
      log('warn', 'database connection lost', { dependency: 'database', error: error.message });
      availability.report(error);
    };
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    try {
      const migrations = migrate
        ? await migratePostgres(new pg.default.Client({ ...connection, connectionTimeoutMillis: timeouts.connectMs }))
        : undefined;
      const db = drizzle(pool, { schema }) as unknown as Db;
      // Per pooled connection, a drizzle instance over it alone (kept with the connection).
      const onConnection = new WeakMap<object, Db>();
      connectionScopes.set(db, async (fn) => {
        const client = await pool.connect();
        try {
          let own = onConnection.get(client);
          if (!own) onConnection.set(client, (own = drizzle(client, { schema }) as unknown as Db));
          return await fn(own);
        } finally {
          // A connection the server cut (or that stopped answering) is not queryable any more:
          // the pool discards it.
          client.release();
        }
      });
      healths.set(db, {
        kind: 'postgres',
        probe: () => probePostgres(pg.default.Client, connection, timeouts.connectMs),
        availability,
        pool: () => ({
          size: options.poolSize ?? 10,
          total: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount,
        }),
      });
      return {
        db,
        kind: 'postgres',
        close: () => {
          availability.stop();
          return pool.end();
        },
        migrations,
      };
    } catch (error) {
      availability.stop();
      await pool.end().catch(() => {});
      throw error;
    }
  }
  const [{ PGlite }, { drizzle }, { migrate: pgliteMigrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? resolve(options.dataDir) : undefined;
  // PGlite creates its data directory without `recursive`: make the parent first.
  if (dataDir) mkdirSync(dirname(dataDir), { recursive: true });
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const client = dataDir ? new PGlite(dataDir) : new PGlite();
    await client.waitReady;
    const db = drizzle(client, { schema });
    // One process per data directory (the lock file above): no database lock needed.
    const migrations = migrate
      ? await runMigrations(db as unknown as Db, (config) => pgliteMigrate(db, config))
      : undefined;
    // In-process: it cannot become unreachable, so its availability never leaves `up`.
    const read = (query: string) => client.query(query);
    const availability = createAvailability({ probe: () => latestMigration(read) });
    healths.set(db as unknown as Db, {
      kind: 'pglite',
      probe: async () => ({ latestMigration: await latestMigration(read) }),
      availability,
      pool: () => undefined,
    });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      migrations,
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Opens the database, applies pending migrations, closes it, and tells what was applied. */
export async function migrateDatabase(options: Omit<DatabaseOptions, 'migrate'>): Promise<MigrationReport> {
  const database = await openDatabase({ ...options, poolSize: 1, migrate: true });
  await database.close();
  return database.migrations!;
}

/**
 * Migrates a PostgreSQL server on ONE connection that holds the advisory lock for the whole run.
 * The migrator runs on a drizzle instance over that connection alone (drizzle's node-postgres
 * migrator would otherwise spread its statements over the pool), and the lock is taken before
 * its first statement, `create schema if not exists`. The connection is not one of the pool's:
 * a migration may take longer than the pool's statement timeout. The lock is session-level:
 * released explicitly, and by PostgreSQL if the process dies; the connection is closed after the
 * run, which ends its session and the lock with it in any case.
 */
async function migratePostgres(client: Client): Promise<MigrationReport> {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  client.on('error', () => {
    // A connection cut during the run fails the query in flight, which fails the start.
  });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      const db = drizzle(client, { schema });
      return await runMigrations(db as unknown as Db, (config) => migrate(db, config));
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The `created_at` (journal `when`, ms) of the newest migration the database recorded; 0 when it
 * recorded none (no migrations table yet).
 */
async function latestMigration(read: (query: string) => Promise<{ rows: unknown[] }>): Promise<number> {
  try {
    const { rows } = await read(
      `select coalesce(max(created_at), 0)::text as latest from "${MIGRATIONS_SCHEMA}"."${MIGRATIONS_TABLE}"`,
    );
    return Number((rows[0] as { latest?: string } | undefined)?.latest ?? 0);
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return 0;
    throw error;
  }
}

/** The `when` of the newest migration in the journal this code ships (0: none). */
export function shippedMigration(): number {
  try {
    const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    };
    return Math.max(0, ...journal.entries.map((e) => e.when));
  } catch {
    return 0;
  }
}

type ClientClass = typeof Client;
type PoolClass = typeof Pool;

/**
 * The pool, never losing a connection for good (decision 041): a connection that ends while
 * checked out goes back to the pool (which discards it) even when its holder never gives it
 * back. drizzle's transaction sends `begin` before its try/finally: a `begin` on a connection
 * that stopped answering threw past the release, and every such transaction took one of the
 * pool's connections with it, until none was left after the outage. Releasing twice is a no-op.
 */
function failFastPool(Base: PoolClass): PoolClass {
  type Checkout = PoolClient & { release: (error?: Error | boolean) => void };
  const guard = (client: Checkout): Checkout => {
    const release = client.release;
    let released = false;
    const ended = () => {
      if (released) return;
      released = true;
      release(new Error('connection ended while checked out'));
    };
    client.once('end', ended);
    client.release = (error) => {
      if (released) return;
      released = true;
      client.removeListener('end', ended);
      release(error);
    };
    return client;
  };
  class FailFastPool extends Base {
    override connect(): Promise<PoolClient>;
    override connect(
      callback: (error: Error | undefined, client: PoolClient | undefined, done: () => void) => void,
    ): void;
    override connect(callback?: (error: Error | undefined, client: PoolClient | undefined, done: () => void) => void) {
      if (!callback) return super.connect().then((client) => guard(client as Checkout));
      return super.connect((error, client, done) => callback(error, client ? guard(client as Checkout) : client, done));
    }
  }
  return FailFastPool;
}
type ClientSettings = ConstructorParameters<ClientClass>[0] & object;

/**
 * The pool's connections, failing fast (decision 041): opened within `connectMs` (the pool's own
 * timeout is the wait for a free connection, longer under a burst), and dropped as soon as a
 * query got no answer within its `query_timeout`. pg reports that timeout but keeps the
 * connection, with the unanswered query still ahead of any next one: a transaction's rollback
 * waited as long again, and the connection went back to the pool stalled.
 */
function failFastClient(Base: ClientClass, connectMs: number, tracker: ConnectionTracker): ClientClass {
  class FailFastClient extends Base {
    constructor(settings: ClientSettings) {
      super({ ...settings, connectionTimeoutMillis: connectMs });
      const socket = () => (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
      const close = () => socket()?.destroy();
      tracker.connections.add(close);
      this.once('end', () => tracker.connections.delete(close));
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      const settled = (sent: object) => (error: unknown) => {
        tracker.waiting.delete(sent);
        if ((error as Error | undefined)?.message === 'Query read timeout') close();
      };
      Object.assign(this, {
        query: (...args: unknown[]) => {
          const sent = {};
          tracker.waiting.set(sent, Date.now());
          const done = settled(sent);
          const last = args.at(-1);
          if (typeof last === 'function') {
            args[args.length - 1] = (error: unknown, result: unknown) => {
              done(error);
              (last as (error: unknown, result: unknown) => void)(error, result);
            };
            return query(...args);
          }
          const answer = query(...args);
          if (answer instanceof Promise) answer.then(() => done(undefined), done);
          else done(undefined);
          return answer;
        },
      });
    }
  }
  return FailFastClient as unknown as ClientClass;
}

/** The pool's connections (a way to close each) and its queries waiting for an answer (since when). */
type ConnectionTracker = { connections: Set<() => void>; waiting: Map<object, number> };

function connectionTracker() {
  const tracker: ConnectionTracker = { connections: new Set(), waiting: new Map() };
  return {
    tracker,
    /** When the oldest query still waiting was sent (queries are sent in order: the first entry). */
    oldestQuery: (): number | undefined => tracker.waiting.values().next().value,
    /** Drops every connection: what waits on one fails at once, the pool opens new ones later. */
    dropAll: () => {
      for (const close of [...tracker.connections]) close();
    },
  };
}

/**
 * Connects on a fresh connection (never the pool's queue), reads the newest recorded migration,
 * and closes; a connection that does not answer is dropped, not awaited.
 */
async function probePostgres(
  Base: ClientClass,
  connection: ClientSettings,
  connectMs: number,
): Promise<{ latestMigration: number }> {
  const client = new Base({ ...connection, connectionTimeoutMillis: connectMs, query_timeout: connectMs });
  client.on('error', () => {
    // The failed query or connect rejects below; the event would otherwise end the process.
  });
  try {
    await client.connect();
    const latest = await latestMigration((query) => client.query(query));
    // A server that answered is told goodbye (no "unexpected EOF" in its log), without waiting.
    client.end().catch(() => {});
    return { latestMigration: latest };
  } catch (error) {
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    throw error;
  }
}

type MigrateConfig = { migrationsFolder: string; migrationsSchema: string; migrationsTable: string };

/** Runs drizzle's migrator on `db` and reports which migrations it applied. */
async function runMigrations(db: Db, migrate: (config: MigrateConfig) => Promise<void>): Promise<MigrationReport> {
  const folder = migrationsFolder();
  if (!existsSync(join(folder, 'meta', '_journal.json'))) {
    // A setup problem, not data: its message is safe for the log (error-summary `expose`).
    throw Object.assign(new Error(`No migrations at ${folder}: run from the project directory or set MIGRATIONS_DIR`), {
      expose: true,
    });
  }
  const table = sql`${sql.identifier(MIGRATIONS_SCHEMA)}.${sql.identifier(MIGRATIONS_TABLE)}`;
  const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const name = `${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}`;
  const [exists] = await rows<{ present: boolean }>(sql`select to_regclass(${name}) is not null as present`);
  const before = exists?.present
    ? Number((await rows<{ last: string | null }>(sql`select max(created_at) as last from ${table}`))[0]?.last ?? 0)
    : 0;

  await migrate({ migrationsFolder: folder, migrationsSchema: MIGRATIONS_SCHEMA, migrationsTable: MIGRATIONS_TABLE });

  // drizzle applies the journal entries newer than the newest recorded one, recording each with
  // its journal `when` as created_at: the rows newer than `before` are this run's.
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const tag = (when: string | number) =>
    journal.entries.find((e) => e.when === Number(when))?.tag ?? `migration of ${new Date(Number(when)).toISOString()}`;
  const recorded = await rows<{ created_at: string }>(sql`select created_at from ${table} order by created_at, id`);
  const last = recorded.at(-1);
  return {
    applied: recorded.filter((r) => Number(r.created_at) > before).map((r) => tag(r.created_at)),
    recorded: recorded.length,
    latest: last ? tag(last.created_at) : undefined,
  };
}

export { DatabaseInUseError } from './data-dir-lock';
