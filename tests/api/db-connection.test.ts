import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onOneConnection } from '@server/db/client';
import { DATABASES, openTestDatabase, type TestDatabase } from './helpers';

/** `onOneConnection` (decision 033): a read and the transaction after it on one pooled connection. */
describe.each(DATABASES)('onOneConnection (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const pid = async (db: TestDatabase['db']) =>
    ((await db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows[0]!.pid;

  it('runs every statement of fn, its transaction included, on one connection', async () => {
    const seen = await onOneConnection(database.db, async (db) => {
      const first = await pid(db);
      // Other work on the pool meanwhile takes other connections, never this one.
      const others = await Promise.all(Array.from({ length: 5 }, () => pid(database.db)));
      const inTransaction = await db.transaction(async (tx) => pid(tx as unknown as TestDatabase['db']));
      return { first, others, inTransaction, last: await pid(db) };
    });
    expect(seen.inTransaction).toBe(seen.first);
    expect(seen.last).toBe(seen.first);
    if (kind === 'postgres') expect(seen.others).not.toContain(seen.first);
  });

  it('gives the connection back when fn fails, and the next call gets a working one', async () => {
    await expect(
      onOneConnection(database.db, async (db) => {
        await db.execute(sql`select 1`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const results = await Promise.all(
      Array.from({ length: 80 }, () => onOneConnection(database.db, async (db) => pid(db))),
    );
    expect(results.every((p) => typeof p === 'number')).toBe(true);
  });
});
