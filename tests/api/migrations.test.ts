import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY, migrateDatabase, migrationsFolder, openDatabase } from '@server/db/client';

/*
 * Several instances starting at once on a fresh PostgreSQL database (TEST_DATABASE_URL): each
 * migrates when it opens the database, under one advisory lock, so all of them come up and every
 * migration is applied exactly once. Before the lock, three of four died on `create schema if not
 * exists drizzle` (duplicate key in pg_namespace).
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;
const run = promisify(execFile);
const TSX = resolve('node_modules/.bin/tsx');

const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const TAGS = journal.entries.map((e) => e.tag);
const UP_TO_DATE = `the database is up to date (${TAGS.length} migration${TAGS.length === 1 ? '' : 's'}, latest ${TAGS.at(-1)})`;

/** One connection of its own (not a pool) for `work`. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!ADMIN_URL)('migrations under an advisory lock (PostgreSQL)', () => {
  const names: string[] = [];

  /** A new, empty database; dropped after the file. */
  async function freshDatabase(): Promise<string> {
    const name = `portal_migrations_${randomBytes(6).toString('hex')}`;
    await withClient(ADMIN_URL!, (a) => a.query(`create database ${name}`));
    names.push(name);
    const url = new URL(ADMIN_URL!);
    url.pathname = `/${name}`;
    return url.toString();
  }

  const recorded = (url: string) =>
    withClient(url, async (c) => {
      const { rows } = await c.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      return rows[0].n as number;
    });

  /** Whether another session could take the migration lock now (it was released). */
  const lockIsFree = (url: string) =>
    withClient(url, async (c) => {
      const { rows } = await c.query('select pg_try_advisory_lock($1::bigint) as got', [MIGRATION_LOCK_KEY]);
      if (rows[0].got) await c.query('select pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      return rows[0].got as boolean;
    });

  afterAll(async () => {
    await withClient(ADMIN_URL!, async (a) => {
      for (const name of names) {
        // pool.end() resolves before its sockets are gone: wait for them before dropping.
        for (let i = 0; i < 50; i++) {
          const { rows } = await a.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await a.query(`drop database if exists ${name} with (force)`);
      }
    });
  });

  it('four instances opening a fresh database at once all come up, each migration applied once', async () => {
    expect(TAGS.length).toBeGreaterThan(0);
    const url = await freshDatabase();
    // Four separate pools, as four instances would have.
    const opened = await Promise.allSettled([1, 2, 3, 4].map(() => openDatabase({ url, poolSize: 2 })));
    const databases = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    try {
      expect(
        opened.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)),
      ).toEqual([]);
      expect(databases).toHaveLength(4);
      // Exactly one of them applied the migrations, all of them, in journal order.
      const applied = databases.map((d) => d.migrations!.applied);
      expect(applied.filter((a) => a.length > 0)).toEqual([TAGS]);
      for (const d of databases) {
        expect(d.migrations).toMatchObject({ recorded: TAGS.length, latest: TAGS.at(-1) });
        // Each instance works on the migrated schema.
        await d.db.execute('select count(*) from orders');
      }
    } finally {
      await Promise.all(databases.map((d) => d.close()));
    }
    expect(await recorded(url)).toBe(TAGS.length);
    expect(await lockIsFree(url)).toBe(true);

    // A second run is a no-op.
    const again = await migrateDatabase({ url });
    expect(again).toEqual({ applied: [], recorded: TAGS.length, latest: TAGS.at(-1) });
    expect(await recorded(url)).toBe(TAGS.length);

    // Opening without migrating touches nothing.
    const url2 = await freshDatabase();
    const plain = await openDatabase({ url: url2, migrate: false });
    await plain.close();
    expect(plain.migrations).toBeUndefined();
    const { rows } = await withClient(url2, (c) => c.query(`select to_regnamespace('drizzle') as schema`));
    expect(rows[0].schema).toBeNull();
  });

  describe('`npm run db:migrate` as processes', () => {
    let dataDir: string;
    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'portal-migrate-'));
    });
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    const migrate = async (url: string) => {
      const env = {
        ...process.env,
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SITE_URL: 'https://portal.example.org',
        OPERATOR_TOKEN: '',
        PORTAL_URL: '',
      };
      const { stdout } = await run(TSX, ['scripts/db.ts', 'migrate'], { env, timeout: 120_000 });
      return stdout;
    };

    it('four at once on a fresh database: all succeed, the migrations applied once; then up to date', async () => {
      const url = await freshDatabase();
      const outputs = await Promise.all([1, 2, 3, 4].map(() => migrate(url)));
      const applied = outputs.flatMap((o) => [...o.matchAll(/^applied (\S+)$/gm)].map((m) => m[1]));
      expect(applied).toEqual(TAGS);
      for (const o of outputs) {
        expect(o).toContain(UP_TO_DATE);
      }
      expect(await recorded(url)).toBe(TAGS.length);

      const second = await migrate(url);
      expect(second.trim()).toBe(`nothing to apply: ${UP_TO_DATE}`);
      expect(await recorded(url)).toBe(TAGS.length);
    }, 240_000);
  });
});
