import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { DatabaseInUseError, openDatabase } from '../../src/server/db/client';
import { badgeLinks, orders } from '../../src/server/db/schema';
import { createServerApp } from '../../src/server/server-app';
import { memoryStorage } from '../../src/server/services/storage';

/*
 * The operator commands as an operator runs them (tsx, a PGlite DATA_DIR), and the PGlite
 * directory lock that keeps them from opening a database the server has open.
 */
const run = promisify(execFile);
const TSX = resolve('node_modules/.bin/tsx');

describe('operator commands (PGlite data directory)', () => {
  let dataDir: string;
  const env = (over: Record<string, string> = {}) => ({
    ...process.env, DATA_DIR: dataDir, SITE_URL: 'https://portal.example.org', DATABASE_URL: '', OPERATOR_TOKEN: '', PORTAL_URL: '', ...over,
  });
  const cmdWith = async (over: Record<string, string>, script: string, ...args: string[]) => {
    try {
      const { stdout, stderr } = await run(TSX, [`scripts/${script}.ts`, ...args], { env: env(over) });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const cmd = (script: string, ...args: string[]) => cmdWith({}, script, ...args);
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-ops-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('demo orders, list, mark-paid, badge-link; a clear error while another process holds the database', async () => {
    expect((await cmd('db', 'demo-orders', '--email', 'ops@example.com', '--count', '3')).stdout).toContain('ops@example.com has 3 orders');

    const list = await cmd('orders', 'list', '--status', 'checking');
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^order no\s+e-mail\s+event\s+registration type\s+payment\s+approval\s+created/);
    const orderNo = lines[2]!.split(/\s+/)[0]!;
    expect(lines[2]).toMatch(/ops@example\.com .* checking /);

    // The commands open the directory the server would: hold it as the server does.
    const held = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      const refused = await cmd('orders', 'mark-paid', orderNo);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: The database in .* is in use by process \d+/);
      expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect((await held.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!.paymentStatus).toBe('checking');
    } finally {
      await held.close();
    }

    const paid = await cmd('orders', 'mark-paid', orderNo.toLowerCase());
    expect(paid).toMatchObject({ code: 0, stdout: `${orderNo}: checking → paid\n` });
    const unknown = await cmd('orders', 'mark-paid', 'TC000000XXXXXX');
    expect(unknown).toMatchObject({ code: 1, stderr: 'error: no order TC000000XXXXXX\n' });
    expect((await cmd('orders', 'list', '--status', 'nonsense')).code).toBe(2);

    const link = await cmd('badge-link', '--type', 'exhibitor-market', '--email', 'guest@example.com', '--expires', '2');
    expect(link.code).toBe(0);
    const code = /get-badge\/exhibitor-market\/([\w-]+)/.exec(link.stdout)![1]!;
    expect(link.stdout).toContain(`https://portal.example.org/en/get-badge/exhibitor-market/${code}`);
    expect(link.stdout).toContain(`https://portal.example.org/zh-tw/get-badge/exhibitor-market/${code}`);
    expect((await cmd('badge-link', '--type', 'king')).code).toBe(2);

    const db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      const [row] = await db.db.select().from(badgeLinks).where(eq(badgeLinks.code, code));
      expect(row).toMatchObject({ identity: 'EXHIBITOR_MARKET', email: 'guest@example.com', usedAt: null });
      expect(Math.abs(row!.expiresAt.getTime() - (Date.now() + 2 * 86_400_000))).toBeLessThan(120_000);
      const [order] = await db.db.select().from(orders).where(eq(orders.orderNo, orderNo));
      expect(order!.paymentStatus).toBe('paid');
    } finally {
      await db.close();
    }
  }, 90_000);

  it('while the server holds the database: through its operator API (token), or a clear refusal (none)', async () => {
    const dir = join(dataDir, 'served');
    const token = 'operator-token-for-the-commands-test-0001';
    expect((await cmdWith({ DATA_DIR: dir }, 'db', 'demo-orders', '--email', 'ops@example.com', '--count', '3')).code).toBe(0);
    const database = await openDatabase({ dataDir: join(dir, 'pglite') });
    const { app } = await createServerApp({ db: database.db, config: parseConfig({ SEED: 'false', LOG_LEVEL: 'silent' }), storage: memoryStorage(), operatorToken: token });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((ok) => server.once('listening', ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const [row] = await database.db.select().from(orders).where(eq(orders.paymentStatus, 'checking'));
      // No token: the database is in use, said in one line.
      const refused = await cmdWith({ DATA_DIR: dir }, 'orders', 'mark-paid', row!.orderNo);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: The database in .* is in use by process/);
      // With the token (as the development server keeps it in DATA_DIR/operator-token, or
      // OPERATOR_TOKEN): the server's operator API at SITE_URL.
      writeFileSync(join(dir, 'operator-token'), token);
      const paid = await cmdWith({ DATA_DIR: dir, SITE_URL: base }, 'orders', 'mark-paid', row!.orderNo);
      expect(paid).toMatchObject({ code: 0, stdout: `${row!.orderNo}: → paid\n` });
      expect(paid.stderr).toContain('going through its operator API');
      expect((await database.db.select().from(orders).where(eq(orders.id, row!.id)))[0]!.paymentStatus).toBe('paid');
      // PORTAL_URL + OPERATOR_TOKEN (what the browser tests use), from anywhere.
      const link = await cmdWith({ DATA_DIR: join(dataDir, 'elsewhere'), PORTAL_URL: base, OPERATOR_TOKEN: token }, 'badge-link', '--type', 'vip');
      expect(link.code).toBe(0);
      expect(link.stdout).toMatch(new RegExp(`${base}/en/get-badge/vip/[\\w-]+`));
      expect(await database.db.select().from(badgeLinks)).toHaveLength(1);
      const list = await cmdWith({ PORTAL_URL: base, OPERATOR_TOKEN: token }, 'orders', 'list', '--status', 'paid');
      expect(list.stdout).toContain(row!.orderNo);
      const wrong = await cmdWith({ PORTAL_URL: base, OPERATOR_TOKEN: 'x'.repeat(41) }, 'orders', 'expire');
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/answered 401/);
    } finally {
      server.close();
      await database.close();
    }
  }, 90_000);

  it('openDatabase refuses a directory held in this process and takes over a lock whose process is gone', async () => {
    const dir = join(dataDir, 'lock-test');
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DatabaseInUseError);
    await first.close();
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, command: 'gone' }));
    const second = await openDatabase({ dataDir: dir });
    await second.close();
  }, 60_000);
});
