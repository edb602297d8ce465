import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseHealth, openDatabase, type Database } from '@server/db/client';
import { seed } from '@server/db/seed';
import { blackHoleProxy } from '../../scripts/cluster-lib.mjs';
import { createTestApp, signIn, type TestApp } from './helpers';

/*
 * A silent database (issue 20, decision 041): a failover or a dropped route, where packets go
 * nowhere and nothing is refused. Between the portal and the PostgreSQL server of
 * TEST_DATABASE_URL sits a TCP proxy that can stop forwarding without closing anything (a black
 * hole). Requests must answer 503 within seconds, readiness say 503 within 5 s, and everything
 * recover by itself once the proxy forwards again.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL;

/** Runs `work` on one connection of its own to `url`. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `fn`'s result and how long it took (ms). */
async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!ADMIN_URL)('a silent database: fail fast, recover by itself (PostgreSQL)', () => {
  const name = `portal_outage_${randomBytes(6).toString('hex')}`;
  let direct: string;
  let proxy: Awaited<ReturnType<typeof blackHoleProxy>>;
  let database: Database;
  let app: TestApp;
  const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  /**
   * Short timeouts, so the test takes seconds (production defaults: connect 3 s, statement 5 s,
   * idle in transaction 10 s, stall 2 s). The statement timeout is long here: the requests caught
   * by the silence must be failed by the stall watchdog and the probe, not by their own timeout.
   */
  const TIMEOUTS = { connectMs: 1_000, statementMs: 20_000, idleInTransactionMs: 1_000, stallMs: 1_000 };
  /** The other path: a short statement timeout, no stall watchdog in the way (a long stallMs). */
  const READ_TIMEOUT = { connectMs: 1_000, statementMs: 1_000, idleInTransactionMs: 1_000, stallMs: 60_000 };
  let viaTimeout: Database;

  beforeAll(async () => {
    await withClient(ADMIN_URL!, (admin) => admin.query(`create database ${name}`));
    const url = new URL(ADMIN_URL!);
    url.pathname = `/${name}`;
    direct = url.toString();
    proxy = await blackHoleProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const through = new URL(direct);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    database = await openDatabase({
      url: through.toString(),
      poolSize: 10,
      timeouts: TIMEOUTS,
      log: (level, message, data) => lines.push({ level, message, data }),
    });
    await seed(database.db);
    viaTimeout = await openDatabase({
      url: through.toString(),
      poolSize: 2,
      timeouts: READ_TIMEOUT,
      migrate: false,
      log: (level, message, data) => lines.push({ level, message, data }),
    });
    app = await createTestApp(database, {}, { log: (level, message, data) => lines.push({ level, message, data }) });
  });

  afterAll(async () => {
    proxy?.blackHole(false);
    await database?.close().catch(() => {});
    await viaTimeout?.close().catch(() => {});
    await proxy?.close();
    await withClient(ADMIN_URL!, async (admin) => {
      for (let i = 0; i < 50; i++) {
        const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
          name,
        ]);
        if (rows[0].n === 0) break;
        await sleep(100);
      }
      await admin.query(`drop database if exists ${name} with (force)`);
    });
  });

  it('answers 503 within seconds while the database is silent, never 500; readiness says so within 5 s; then recovers', async () => {
    const { token } = await signIn(app, 'outage@example.com');
    // A warm pool: every connection opened and idle, as under traffic.
    const warm = await Promise.all(Array.from({ length: 10 }, () => app.request('/api/v1/events')));
    expect(warm.map((r) => r.status)).toEqual(Array(10).fill(200));

    proxy.blackHole(true);
    // Requests already on their way when the route drops: pages' reads, signed-in reads, a probe.
    const during = await Promise.all([
      ...Array.from({ length: 8 }, () => timed(() => app.request('/api/v1/events'))),
      ...Array.from({ length: 4 }, () =>
        timed(() => app.request('/api/v1/orders', { headers: { authorization: `Bearer ${token}` } })),
      ),
      timed(() => app.request('/readyz')),
    ]);
    for (const { value: res, ms } of during) {
      expect(res.status).toBe(503);
      // The stall watchdog (1 s, checked every 250 ms), then the probe (≤ 2 s): well under the
      // 20–30 s requests waited before, and under their own 21 s timeout here.
      expect(ms).toBeLessThan(4_500);
    }
    const first = await during[0]!.value.json();
    expect(first).toMatchObject({ code: 'service_unavailable' });
    expect(during[0]!.value.headers.get('retry-after')).toBe('5');
    const ready = await during.at(-1)!.value.json();
    expect(ready).toMatchObject({ status: 'not_ready', checks: { database: { status: 'fail' } } });

    // Known to be away now: refused at once, without waiting on the pool.
    expect(databaseHealth(database.db)!.availability.down()).toBe(true);
    const fast = await timed(() => app.request('/api/v1/events'));
    expect(fast.value.status).toBe(503);
    expect(fast.ms).toBeLessThan(500);
    const readyFast = await timed(() => app.request('/readyz'));
    expect(readyFast.value.status).toBe(503);
    expect(readyFast.ms).toBeLessThan(500);
    // The liveness probe never asks the database.
    expect((await app.request('/healthz')).status).toBe(200);
    expect(lines.some((l) => l.message.startsWith('database unavailable') && l.level === 'error')).toBe(true);

    // The route comes back: within a probe interval or two, without any restart.
    proxy.blackHole(false);
    let back = 0;
    for (let i = 0; i < 40 && back !== 200; i++) {
      await sleep(250);
      back = (await app.request('/api/v1/events')).status;
    }
    expect(back).toBe(200);
    expect((await app.request('/readyz')).status).toBe(200);
    // Every kind of work: a signed-in read (session), a transaction (sign-in writes a session).
    expect((await app.request('/api/v1/orders', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const again = await signIn(app, 'after@example.com');
    expect(again.callback.status).toBe(302);
    expect((await app.request('/api/v1/user/me', { headers: { authorization: `Bearer ${again.token}` } })).status).toBe(
      200,
    );
    expect(lines.some((l) => l.message === 'database available again')).toBe(true);
    // No connection of the pool was lost for good: none is still checked out, and the pool
    // serves as many requests at once as before.
    expect(databaseHealth(database.db)!.pool()).toMatchObject({ waiting: 0 });
    const pool = databaseHealth(database.db)!.pool()!;
    expect(pool.total - pool.idle).toBe(0);
    const full = await Promise.all(Array.from({ length: 10 }, () => app.request('/api/v1/events')));
    expect(full.map((r) => r.status)).toEqual(Array(10).fill(200));
  }, 60_000);

  it('a transaction the silence caught fails once within its timeout (its rollback does not wait again); the server ends the session and its locks', async () => {
    const started = Date.now();
    const failed = viaTimeout.db.transaction(async (tx) => {
      // A seat lock, as a registration takes it.
      await tx.execute(sql`select id from events order by id limit 1 for update`);
      proxy.blackHole(true);
      await tx.execute(sql`select 1`);
    });
    await expect(failed).rejects.toThrow();
    const ms = Date.now() - started;
    // The read timeout (statement 1 s + 1 s); the rollback on the dropped connection fails at once.
    expect(ms).toBeLessThan(3_500);

    // On the server the session sat idle in its transaction: ended after 1 s, its lock released.
    await sleep(2_000);
    const locked = await withClient(direct, async (c) => {
      await c.query('begin');
      try {
        await c.query('select id from events order by id limit 1 for update nowait');
        return false;
      } catch {
        return true;
      } finally {
        await c.query('rollback');
      }
    });
    expect(locked).toBe(false);

    proxy.blackHole(false);
    for (let i = 0; i < 40 && !(databaseHealth(viaTimeout.db)!.availability.state() === 'up'); i++) await sleep(250);
    const rows = (await viaTimeout.db.execute(sql`select 1 as one`)) as unknown as { rows: { one: number }[] };
    expect(rows.rows[0]!.one).toBe(1);
  }, 30_000);
});
