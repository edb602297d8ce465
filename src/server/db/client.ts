import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
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

export type DatabaseOptions = {
  /** postgres://… switches to a PostgreSQL server through `pg`. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` or undefined for an in-memory database. */
  dataDir?: string | undefined;
  /** Pool size for a PostgreSQL server. */
  poolSize?: number;
  /** Apply pending migrations when opening (default true). */
  migrate?: boolean;
};

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
    const pool = new pg.default.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // A request waits at most this long for a connection while the server is unreachable (503).
      connectionTimeoutMillis: 5_000,
    });
    // A connection cut by the server (a restart, a failover) emits 'error': on an idle client the
    // pool's event, on a checked-out one (a transaction waiting for the application) the client's
    // own. Unhandled, either would end the process; handled, the query in flight fails (503), the
    // broken client is discarded on release and the pool connects anew (decision 024).
    const lost = (error: Error) =>
      console.warn(JSON.stringify({ level: 'warn', message: 'database connection lost', error: error.message }));
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    try {
      const migrations = migrate ? await migratePostgres(pool) : undefined;
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
          // A connection the server cut is not queryable any more: the pool discards it.
          client.release();
        }
      });
      return { db, kind: 'postgres', close: () => pool.end(), migrations };
    } catch (error) {
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
 * its first statement, `create schema if not exists`. The lock is session-level: released
 * explicitly, and by PostgreSQL if the process dies; a connection that could not unlock is
 * destroyed rather than returned to the pool, which ends its session and the lock with it.
 */
async function migratePostgres(pool: Pool): Promise<MigrationReport> {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const client = await pool.connect();
  let destroy = false;
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      const db = drizzle(client, { schema });
      return await runMigrations(db as unknown as Db, (config) => migrate(db, config));
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => {
        destroy = true;
      });
    }
  } catch (error) {
    destroy = true;
    throw error;
  } finally {
    client.release(destroy);
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
