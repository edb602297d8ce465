import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

/** The database handle every service takes: one type for PGlite and a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Database = { db: Db; kind: 'pglite' | 'postgres'; close: () => Promise<void> };

export type DatabaseOptions = {
  /** postgres://… switches to a PostgreSQL server through `pg`. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` or undefined for an in-memory database. */
  dataDir?: string | undefined;
  /** Pool size for a PostgreSQL server. */
  poolSize?: number;
};

/** Where drizzle-kit's migrations live (read at run time by the migrator). */
export function migrationsFolder(): string {
  return resolve(process.env.MIGRATIONS_DIR ?? resolve(process.cwd(), 'drizzle'));
}

/** Opens the database and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const [{ drizzle }, { migrate }, pg] = await Promise.all([
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
      import('pg'),
    ]);
    const pool = new pg.default.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder: migrationsFolder() });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? resolve(options.dataDir) : undefined;
  // PGlite creates its data directory without `recursive`: make the parent first.
  if (dataDir) mkdirSync(dirname(dataDir), { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: migrationsFolder() });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
