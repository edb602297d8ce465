import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const client = dataDir ? new PGlite(dataDir) : new PGlite();
    await client.waitReady;
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: migrationsFolder() });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
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

/** A PGlite data directory another live process has open. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; since?: string; command?: string },
  ) {
    super(
      `The database in ${dataDir} is in use by process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}. ` +
        'PGlite cannot be shared between processes: stop that process (e.g. the portal server) and try again, ' +
        'or use a PostgreSQL server (DATABASE_URL).',
    );
    this.name = 'DatabaseInUseError';
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite takes no lock of its own: a second process opening the same directory (an operator
 * command while the server runs) would silently work on a diverging copy and can corrupt it. A
 * lock file next to the directory names the holder process; a holder that is gone is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir}.lock`;
  const mine = JSON.stringify({
    pid: process.pid,
    since: new Date().toISOString(),
    command: process.argv.slice(1).join(' ').slice(0, 200),
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx' });
      const release = () => {
        process.off('exit', release);
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: { pid?: unknown; since?: string; command?: string } | undefined;
    try {
      holder = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      holder = undefined;
    }
    const pid = typeof holder?.pid === 'number' ? holder.pid : undefined;
    // Our own pid is either left by an earlier run (containers reuse pid 1) or this process
    // opening the directory again (dev-server module reloads): both as before, not refused.
    const live = pid !== undefined && pid !== process.pid && isAlive(pid);
    if (live) throw new DatabaseInUseError(dataDir, { ...holder, pid: pid! });
    try {
      unlinkSync(file);
    } catch {
      // another process took it over first: try again
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
