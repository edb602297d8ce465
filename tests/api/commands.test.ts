import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@server/config';
import { DatabaseInUseError, openDatabase } from '@server/db/client';
import { procStat } from '@server/db/data-dir-lock';
import { seedDemoOrders } from '@server/db/demo';
import { badgeLinks, emails, orders } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { createServerApp } from '@server/server-app';
import { memoryStorage } from '@server/files/storage';

/*
 * The operator commands as an operator runs them (tsx, a PGlite DATA_DIR), and the PGlite
 * directory lock that keeps them from opening a database the server has open. Each command is a
 * process (tsx start-up + PGlite): few of them, generous timeouts for a busy machine.
 */
const run = promisify(execFile);
const TSX = resolve('node_modules/.bin/tsx');
const SLOW = 240_000;

describe('operator commands (PGlite data directory)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-ops-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const cmd = async (env: Record<string, string>, script: string, ...args: string[]) => {
    const full = {
      ...process.env,
      SITE_URL: 'https://portal.example.org',
      DATABASE_URL: '',
      OPERATOR_TOKEN: '',
      PORTAL_URL: '',
      ...env,
    };
    try {
      const { stdout, stderr } = await run(TSX, [`scripts/${script}.ts`, ...args], { env: full, timeout: SLOW });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  /** A data directory with the events and three demo orders (pending, checking, paid). */
  async function dataDirWithOrders(name: string) {
    const dataDir = join(root, name);
    const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      await seed(database.db);
      await seedDemoOrders(database.db, { subject: 'dev-ops', email: 'ops@example.com', count: 3 });
      const [checking] = await database.db.select().from(orders).where(eq(orders.paymentStatus, 'checking'));
      return { dataDir, orderNo: checking!.orderNo, pglite: join(dataDir, 'pglite') };
    } finally {
      await database.close();
    }
  }

  it(
    'list, mark-paid and badge-link on the database; a one-line error while another process holds it',
    async () => {
      const { dataDir, orderNo, pglite } = await dataDirWithOrders('direct');
      const env = { DATA_DIR: dataDir };

      const list = await cmd(env, 'orders', 'list', '--status', 'checking');
      expect(list.code).toBe(0);
      const lines = list.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^order no\s+e-mail\s+event\s+registration type\s+payment\s+approval\s+created/);
      expect(lines[2]).toMatch(new RegExp(`^${orderNo}\\s+ops@example\\.com\\s+\\S+\\s+EVENT_GENERAL\\s+checking\\s`));

      // Held as the server holds it: refused in one line, without a stack trace, nothing changed.
      const held = await openDatabase({ dataDir: pglite });
      try {
        const refused = await cmd(env, 'orders', 'mark-paid', orderNo);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/^error: The database in .* is in use by process \d+/);
        expect(refused.stderr).not.toMatch(/\n\s+at /);
      } finally {
        await held.close();
      }

      expect(await cmd(env, 'orders', 'mark-paid', orderNo.toLowerCase())).toMatchObject({
        code: 0,
        stdout: `${orderNo}: checking → paid\n`,
      });

      const link = await cmd(
        env,
        'badge-link',
        '--type',
        'exhibitor-market',
        '--email',
        'guest@example.com',
        '--expires',
        '2',
      );
      expect(link.code).toBe(0);
      const code = /get-badge\/exhibitor-market\/([\w-]+)/.exec(link.stdout)![1]!;
      expect(link.stdout).toContain(`https://portal.example.org/en/get-badge/exhibitor-market/${code}`);
      expect(link.stdout).toContain(`https://portal.example.org/zh-tw/get-badge/exhibitor-market/${code}`);
      expect(link.stdout).toContain('E-mailed to guest@example.com (in English and Chinese;');

      const usage = await cmd(env, 'badge-link', '--type', 'king');
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('usage: npm run badge-link');
      // 0 days is refused, by a message and a help that say what is taken (issue 19: it said 0 was).
      const zero = await cmd(env, 'badge-link', '--type', 'vip', '--expires', '0');
      expect(zero.code).toBe(2);
      expect(zero.stderr).toContain('--expires must be a whole number of days from 1 to 366');
      expect(zero.stderr).toMatch(
        /--expires {2}whole days the link works, from now: 1 to 366 \(default 14\);\n\s+0 is refused/,
      );

      const database = await openDatabase({ dataDir: pglite });
      try {
        const [row] = await database.db.select().from(badgeLinks).where(eq(badgeLinks.code, code));
        expect(row).toMatchObject({ identity: 'EXHIBITOR_MARKET', email: 'guest@example.com', usedAt: null });
        // Queued in the outbox, for the server's mail worker: both languages, both links.
        const [mail] = await database.db
          .select()
          .from(emails)
          .where(eq(emails.key, `badge-link:${code}`));
        expect(mail).toMatchObject({ recipient: 'guest@example.com', template: 'badge_link', locale: null });
        expect(mail!.status).toBe('pending');
        expect(mail!.text).toContain(`https://portal.example.org/zh-tw/get-badge/exhibitor-market/${code}`);
        expect(Math.abs(row!.expiresAt.getTime() - (Date.now() + 2 * 86_400_000))).toBeLessThan(SLOW);
        const [order] = await database.db.select().from(orders).where(eq(orders.orderNo, orderNo));
        expect(order!.paymentStatus).toBe('paid');
      } finally {
        await database.close();
      }
    },
    SLOW * 2,
  );

  it(
    'while the server holds the database, with the operator token: through its operator API',
    async () => {
      const { dataDir, orderNo, pglite } = await dataDirWithOrders('served');
      const token = 'operator-token-for-the-commands-test-0001';
      const database = await openDatabase({ dataDir: pglite });
      const config = parseConfig({ SEED: 'false', LOG_LEVEL: 'silent' });
      const { app } = await createServerApp({
        db: database.db,
        config,
        storage: memoryStorage(),
        operatorToken: token,
      });
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise((ok) => server.once('listening', ok));
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        // The development server keeps its token in DATA_DIR/operator-token; SITE_URL finds it.
        writeFileSync(join(dataDir, 'operator-token'), token);
        const paid = await cmd({ DATA_DIR: dataDir, SITE_URL: base }, 'orders', 'mark-paid', orderNo);
        expect(paid).toMatchObject({ code: 0, stdout: `${orderNo}: → paid\n` });
        expect(paid.stderr).toContain('going through its operator API');
        expect((await database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!.paymentStatus).toBe(
          'paid',
        );

        // PORTAL_URL + OPERATOR_TOKEN (what the browser tests use), from any directory.
        const link = await cmd(
          { DATA_DIR: join(root, 'elsewhere'), PORTAL_URL: base, OPERATOR_TOKEN: token },
          'badge-link',
          '--type',
          'vip',
        );
        expect(link.code).toBe(0);
        expect(link.stdout).toMatch(new RegExp(`${base}/en/get-badge/vip/[\\w-]+`));
        expect(link.stdout).not.toContain('E-mailed');
        expect(await database.db.select().from(badgeLinks)).toHaveLength(1);
        const mailed = await cmd(
          { DATA_DIR: join(root, 'elsewhere'), PORTAL_URL: base, OPERATOR_TOKEN: token },
          'badge-link',
          '--type',
          'vip',
          '--email',
          'vip@example.com',
        );
        expect(mailed.stdout).toContain('E-mailed to vip@example.com');
        const [mail] = await database.db.select().from(emails);
        expect(mail).toMatchObject({ recipient: 'vip@example.com', template: 'badge_link' });
        expect(mail!.subject).toBe('Your free TCCF badge: VIP / 您的 TCCF 免費識別證：貴賓');

        const wrong = await cmd({ PORTAL_URL: base, OPERATOR_TOKEN: 'x'.repeat(41) }, 'orders', 'expire');
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toMatch(/^error: .* answered 401/);
      } finally {
        server.close();
        await database.close();
      }
    },
    SLOW * 2,
  );

  it(
    'openDatabase refuses a directory another live process holds and takes over a lock whose process is gone',
    async () => {
      const dir = join(root, 'lock-test');
      // The parent process (the test runner) is alive: as if it had the directory open (the lock
      // records the holder's start time, which tells it from a later process reusing the pid).
      const startTime = procStat(process.ppid)?.startTime;
      writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.ppid, startTime, command: 'portal server' }));
      const refused = openDatabase({ dataDir: dir });
      await expect(refused).rejects.toBeInstanceOf(DatabaseInUseError);
      await expect(refused).rejects.toThrow(`is in use by process ${process.ppid} (portal server)`);
      writeFileSync(`${dir}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, command: 'gone' }));
      const taken = await openDatabase({ dataDir: dir });
      expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid);
      await taken.close();
      expect(existsSync(`${dir}.lock`)).toBe(false);
    },
    SLOW,
  );
});
