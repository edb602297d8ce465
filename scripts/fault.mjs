#!/usr/bin/env node
/**
 * Fault suite (`npm run bench:fault`, decision 024), two parts:
 *
 * 1. kill -9 one of two instances during a registration burst (machine's PostgreSQL, throwaway
 *    database): every acknowledged order (201, or 200 "existing") is in the database and live,
 *    no user holds two, the seats taken equal the live orders; the killed instance restarts.
 * 2. PostgreSQL restarted under traffic, on a PRIVATE server (initdb + pg_ctl as user postgres on
 *    port 4439 under /tmp; the shared server is never touched): while it is down the API answers
 *    503 `service_unavailable` and pages 503 (never a 500), and once it is back requests succeed
 *    again with no manual step (the pool reconnects).
 *
 * 3. A silent PostgreSQL (issue 20, decision 041): between one instance and a throwaway database
 *    on the machine's PostgreSQL sits a TCP proxy that stops forwarding without closing anything
 *    (a failover, a dropped route). Every request answers within seconds (API 503
 *    `service_unavailable`, pages their 503 page, never a 500, none waits the outage out), and
 *    once the proxy forwards again everything succeeds with no manual step.
 *
 * Flags: --users N (1000) --seats S (100) for part 1; --down S (4) seconds PostgreSQL stays down;
 * --silent S (10) seconds of the black hole; --only kill|restart|silent runs one part; --port P
 * (4433) the instance of parts 2 and 3; --no-build; --small (CI: 200 users, 20 seats, 2 s down,
 * 5 s silent). Ports 4433–4434 (instances), 4432 (S3), 4439 (private PostgreSQL); part 3 only
 * --port (its proxy takes a free port). Exit code 1 when a check fails.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  assertPortFree,
  blackHoleProxy,
  build,
  createDatabase,
  fireRegistrations,
  sleep,
  startCluster,
  startInstance,
  summarize,
  tempDir,
  tsx,
  waitReady,
} from './cluster-lib.mjs';

const { values: flags } = parseArgs({
  options: {
    users: { type: 'string' },
    seats: { type: 'string' },
    down: { type: 'string' },
    silent: { type: 'string' },
    only: { type: 'string' },
    port: { type: 'string' },
    small: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});
const USERS = Number(flags.users ?? (flags.small ? 200 : 1000));
const SEATS = Number(flags.seats ?? (flags.small ? 20 : 100));
const DOWN_S = Number(flags.down ?? (flags.small ? 2 : 4));
const SILENT_S = Number(flags.silent ?? (flags.small ? 5 : 10));
const PORT = Number(flags.port ?? 4433);
if (flags.only && !['kill', 'restart', 'silent'].includes(flags.only)) {
  console.error('--only takes kill, restart or silent');
  process.exit(2);
}
const PG_BIN = '/usr/lib/postgresql/15/bin';
const PG_PORT = 4439;

const checks = [];
const check = (name, ok, actual) => checks.push({ check: name, result: ok ? 'PASS' : 'FAIL', actual: String(actual) });
const cleanups = [];
const teardown = async () => {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((e) => console.error(`teardown: ${e.message}`));
};
process.once('SIGINT', () => void teardown().then(() => process.exit(130)));

/** Part 1: kill -9 during the burst. */
async function killDuringBurst() {
  const work = tempDir('portal-fault-');
  cleanups.push(async () => work.remove());
  const fixtures = join(work.path, 'fixtures.json');
  const cluster = await startCluster({
    ports: [4433, 4434],
    s3Port: 4432,
    prepare: (env) =>
      tsx('load-fixtures.ts', ['burst', '--users', String(USERS), '--seats', String(SEATS), '--out', fixtures], env),
  });
  cleanups.push(cluster.teardown);
  const { slug, tokens } = JSON.parse(readFileSync(fixtures, 'utf8'));
  const [a, b] = cluster.instances;
  await Promise.all([a, b].map((i) => fetch(`${i.url}/api/v1/events/${slug}`).then((r) => r.text())));

  console.log(`▸ part 1: ${USERS} registrations at once over two instances; kill -9 of ${b.name} during the burst`);
  let answered = 0;
  let killedAt = null;
  const burst = fireRegistrations({
    urls: [a.url, b.url],
    tokens,
    slug,
    timeoutMs: 30_000,
    onAnswer: () => {
      // Kill once a tenth of the answers are in: requests are in flight on both instances.
      if (++answered === Math.ceil(USERS / 10) && killedAt === null) {
        killedAt = answered;
        b.child.kill('SIGKILL');
      }
    },
  });
  const result = await burst;
  const summary = summarize(result);
  const acknowledged = result.results.filter((r) => (r.status === 201 || r.status === 200) && r.orderId);
  const ackFile = join(work.path, 'acknowledged.json');
  (await import('node:fs')).writeFileSync(ackFile, JSON.stringify(acknowledged.map((r) => r.orderId)));
  const db = JSON.parse(
    await tsx('load-fixtures.ts', ['check', '--slug', slug, '--acknowledged', ackFile], cluster.env),
  );
  console.table([{ ...summary, otherKinds: JSON.stringify(summary.otherKinds), killedAfterAnswers: killedAt }]);
  console.table([db]);
  check('instance killed during the burst', killedAt !== null && !b.alive(), `after ${killedAt} answers`);
  check(
    'every acknowledged order present and live',
    db.acknowledgedMissing === 0,
    `${db.acknowledgedMissing} missing of ${db.acknowledged}`,
  );
  check('no user with two live orders', db.usersWithSeveralLiveOrders === 0, db.usersWithSeveralLiveOrders);
  check(
    'seats taken = live orders ≤ seats',
    db.seatsTaken === db.liveOrders && db.liveOrders <= SEATS,
    `${db.seatsTaken} / ${db.liveOrders} / ${SEATS}`,
  );
  check(
    'no 5xx from the surviving instance',
    !result.results.some((r) => r.instance === a.url && r.status >= 500),
    summary.otherKinds ? JSON.stringify(summary.otherKinds) : '',
  );
  // The killed instance starts again at once (PostgreSQL holds no lock of a dead process).
  const again = startInstance({ port: b.port, env: cluster.env, name: `${b.name} (restarted)` });
  cleanups.push(() => again.stop());
  const t0 = Date.now();
  await waitReady(again, 60_000).then(
    () => check('killed instance restarts', true, `${((Date.now() - t0) / 1000).toFixed(1)} s`),
    (e) => check('killed instance restarts', false, e.message.split('\n')[0]),
  );
  await again.stop();
  await cluster.teardown();
}

/** A private PostgreSQL 15 server under /tmp, run as user postgres (never the shared one). */
function privatePostgres() {
  if (!existsSync(`${PG_BIN}/initdb`)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'portal-fault-pg-'));
  const asPostgres = (cmd, args) => {
    const argv = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    return execFileSync(argv[0], argv[1], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  };
  if (process.getuid?.() === 0)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const data = join(dir, 'data');
  asPostgres(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const opts = `-c listen_addresses=127.0.0.1 -p ${PG_PORT} -k ${dir} -c fsync=off`;
  const ctl = (...args) => asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-l', join(dir, 'log'), ...args]);
  return {
    url: `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`,
    start: () => ctl('-o', opts, '-w', 'start'),
    stop: () => ctl('-m', 'fast', '-w', 'stop'),
    remove: () => {
      try {
        ctl('-m', 'immediate', '-w', 'stop');
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Part 2: PostgreSQL restarted under traffic. */
async function restartPostgres() {
  let pg;
  try {
    pg = privatePostgres();
  } catch (error) {
    console.log(`▸ part 2 skipped: a private PostgreSQL server could not be created (${error.message.split('\n')[0]})`);
    return;
  }
  if (!pg) {
    console.log(`▸ part 2 skipped: no PostgreSQL 15 binaries in ${PG_BIN}`);
    return;
  }
  cleanups.push(async () => pg.remove());
  pg.start();
  const work = tempDir('portal-fault-pg-data-');
  cleanups.push(async () => work.remove());
  const fixtures = join(work.path, 'fixtures.json');
  const env = { DATA_DIR: join(work.path, 'data'), DATABASE_URL: pg.url, IDENTITY_URL: '', SITE_URL: '' };
  await tsx('load-fixtures.ts', ['burst', '--users', '400', '--seats', '1000', '--out', fixtures], env);
  const { slug, tokens } = JSON.parse(readFileSync(fixtures, 'utf8'));
  await assertPortFree(PORT);
  const instance = startInstance({ port: PORT, env, name: `instance :${PORT}` });
  cleanups.push(() => instance.stop());
  await waitReady(instance);

  console.log(`▸ part 2: traffic on a private PostgreSQL (port ${PG_PORT}), stopped for ${DOWN_S} s, then started`);
  const phase = { now: 'before' };
  const load = traffic({ url: instance.url, tokens, slug, phase, timeoutMs: 15_000 });
  const { seen } = load;
  await sleep(1500);
  phase.now = 'down';
  pg.stop();
  const downAt = Date.now();
  await sleep(DOWN_S * 1000);
  pg.start();
  phase.now = 'after';
  const upAt = Date.now();
  // Until the first success after the restart: the recovery time.
  let recoveredMs = null;
  while (Date.now() - upAt < 30_000) {
    const ok = seen.filter((s) => s.phase === 'after' && s.status >= 200 && s.status < 300).length;
    if (ok > 0) {
      recoveredMs = Date.now() - upAt;
      break;
    }
    await sleep(100);
  }
  await sleep(2000);
  await load.stop();
  const alive = instance.alive();

  printAnswers(seen);
  const down = seen.filter((s) => s.phase === 'down');
  const lastAfter = seen.filter((s) => s.phase === 'after').slice(-20);
  check('no 500 at any time', !seen.some((s) => s.status === 500), seen.filter((s) => s.status === 500).length);
  check(
    'while down: API 503 service_unavailable, pages 503',
    down.length > 0 &&
      down.every((s) =>
        s.kind === 'page'
          ? s.status === 503 || s.status === 200
          : s.status === 503
            ? s.code === 'service_unavailable'
            : s.status < 500,
      ) &&
      down.some((s) => s.status === 503),
    `${down.filter((s) => s.status === 503).length} of ${down.length} answered 503 (${((Date.now() - downAt) / 1000).toFixed(0)} s)`,
  );
  check(
    'recovered with no manual step',
    recoveredMs !== null && lastAfter.every((s) => s.status > 0 && s.status < 500),
    `first success ${recoveredMs} ms after the start; last 20 answers ${[...new Set(lastAfter.map((s) => s.status))].join('/')}`,
  );
  check('the instance stayed up', alive, alive ? 'running' : `exited:\n${instance.log.slice(-10).join('\n')}`);
  // Part 3 starts its own instance on the same port.
  await instance.stop();
}

/**
 * Mixed traffic on `url` (API reads, the order list page, registrations) by `workers` loops, each
 * answer recorded with the phase it started in and how long it took, until `stop()`.
 */
function traffic({ url, tokens, slug, phase, workers = 4, timeoutMs = 30_000 }) {
  const seen = []; // { phase, kind, status, code, ms }
  let running = true;
  let next = 0;
  const loop = async () => {
    while (running) {
      const token = tokens[next++ % tokens.length];
      const kind = ['api', 'page', 'register'][next % 3];
      const at = phase.now;
      const started = Date.now();
      try {
        const res =
          kind === 'api'
            ? await fetch(`${url}/api/v1/events`, { signal: AbortSignal.timeout(timeoutMs) })
            : kind === 'page'
              ? await fetch(`${url}/en/account/orders`, {
                  headers: { cookie: `portal-session=${token}` },
                  signal: AbortSignal.timeout(timeoutMs),
                })
              : await fetch(`${url}/api/v1/orders?event=${slug}&registration_type=EVENT_GENERAL`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                  body: '{"agree_terms":true}',
                  signal: AbortSignal.timeout(timeoutMs),
                });
        const text = await res.text();
        let code = null;
        if (kind !== 'page') {
          try {
            code = JSON.parse(text).code ?? null;
          } catch {
            code = 'non-json';
          }
        } else if (res.status >= 500) code = /Service Unavailable|服務/.test(text) ? 'page 503' : 'page';
        seen.push({ phase: at, kind, status: res.status, code, ms: Date.now() - started });
      } catch (error) {
        seen.push({ phase: at, kind, status: 0, code: error.name, ms: Date.now() - started });
      }
      await sleep(20);
    }
  };
  const loops = Array.from({ length: workers }, loop);
  return {
    seen,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The answers of `traffic`, by phase and kind: how many of each status (and code), the slowest. */
function printAnswers(seen) {
  const table = {};
  for (const s of seen) {
    const key = `${s.phase} ${s.kind}`;
    table[key] ??= { answers: {}, maxMs: 0 };
    const k = `${s.status}${s.code ? ` ${s.code}` : ''}`;
    table[key].answers[k] = (table[key].answers[k] ?? 0) + 1;
    table[key].maxMs = Math.max(table[key].maxMs, s.ms);
  }
  console.table(
    Object.entries(table).map(([k, v]) => ({ phase: k, answers: JSON.stringify(v.answers), 'max ms': v.maxMs })),
  );
}

/** Part 3: PostgreSQL goes silent (a black hole), then comes back. */
async function silentPostgres() {
  let database;
  try {
    database = await createDatabase(undefined, 'portal_fault_silent');
  } catch (error) {
    console.log(`▸ part 3 skipped: no PostgreSQL to create a database on (${error.message.split('\n')[0]})`);
    return;
  }
  cleanups.push(() => database.drop());
  const target = new URL(database.url);
  const proxy = await blackHoleProxy({ host: target.hostname, port: Number(target.port || 5432) });
  cleanups.push(() => proxy.close());
  const through = new URL(database.url);
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  const work = tempDir('portal-fault-silent-');
  cleanups.push(async () => work.remove());
  const fixtures = join(work.path, 'fixtures.json');
  const env = { DATA_DIR: join(work.path, 'data'), DATABASE_URL: through.toString(), IDENTITY_URL: '', SITE_URL: '' };
  await tsx('load-fixtures.ts', ['burst', '--users', '400', '--seats', '1000', '--out', fixtures], env);
  const { slug, tokens } = JSON.parse(readFileSync(fixtures, 'utf8'));
  await assertPortFree(PORT);
  const instance = startInstance({ port: PORT, env, name: `instance :${PORT}` });
  cleanups.push(() => instance.stop());
  await waitReady(instance);

  console.log(`▸ part 3: traffic while PostgreSQL goes silent for ${SILENT_S} s (a proxy that stops forwarding)`);
  const phase = { now: 'before' };
  const load = traffic({ url: instance.url, tokens, slug, phase });
  await sleep(1500);
  phase.now = 'silent';
  proxy.blackHole(true);
  const silentAt = Date.now();
  // Readiness while silent: a load balancer must see 503 within 5 s.
  await sleep(500);
  const readyStarted = Date.now();
  const ready = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(15_000) }).catch(() => null);
  const readyMs = Date.now() - readyStarted;
  await sleep(Math.max(0, SILENT_S * 1000 - (Date.now() - silentAt)));
  phase.now = 'after';
  proxy.blackHole(false);
  const backAt = Date.now();
  let recoveredMs = null;
  while (Date.now() - backAt < 30_000) {
    if (load.seen.some((s) => s.phase === 'after' && s.status >= 200 && s.status < 300)) {
      recoveredMs = Date.now() - backAt;
      break;
    }
    await sleep(100);
  }
  await sleep(2000);
  await load.stop();
  const readyAfter = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(15_000) }).catch(() => null);
  const alive = instance.alive();

  const { seen } = load;
  printAnswers(seen);
  const silent = seen.filter((s) => s.phase === 'silent');
  const slowest = Math.max(0, ...silent.map((s) => s.ms));
  const lastAfter = seen.filter((s) => s.phase === 'after').slice(-20);
  check('silent: no 500 at any time', !seen.some((s) => s.status === 500), seen.filter((s) => s.status === 500).length);
  check(
    'silent: API 503 service_unavailable, pages 503 (or a page the cache still had)',
    silent.length > 0 &&
      silent.every((s) =>
        s.kind === 'page'
          ? s.status === 503 || s.status === 200
          : s.status === 503
            ? s.code === 'service_unavailable'
            : s.status < 500 && s.status > 0,
      ),
    `${silent.filter((s) => s.status === 503).length} of ${silent.length} answered 503`,
  );
  // The statement timeout (5 s) + 1 s for a silent answer, then the probe (2 s): never the outage.
  check('silent: every request answered within 8 s', silent.length > 0 && slowest <= 8_000, `slowest ${slowest} ms`);
  check(
    'silent: /readyz 503 within 5 s',
    ready?.status === 503 && readyMs <= 5_000,
    `${ready?.status} in ${readyMs} ms`,
  );
  check(
    'silent: recovered with no manual step',
    recoveredMs !== null && lastAfter.every((s) => s.status > 0 && s.status < 500) && readyAfter?.status === 200,
    `first success ${recoveredMs} ms after the route came back; last 20 answers ${[...new Set(lastAfter.map((s) => s.status))].join('/')}; /readyz ${readyAfter?.status}`,
  );
  check('silent: the instance stayed up', alive, alive ? 'running' : `exited:\n${instance.log.slice(-10).join('\n')}`);
  await instance.stop();
}

let code = 1;
try {
  if (!flags['no-build']) {
    console.log('▸ building (npx astro build)');
    await build();
  }
  if (!flags.only || flags.only === 'kill') await killDuringBurst();
  if (!flags.only || flags.only === 'restart') await restartPostgres();
  if (!flags.only || flags.only === 'silent') await silentPostgres();
  console.log('\nFault suite');
  console.table(checks);
  const failed = checks.filter((c) => c.result === 'FAIL').length;
  console.log(`fault: ${checks.length - failed} passed, ${failed} failed`);
  code = failed ? 1 : 0;
} catch (error) {
  console.error(`fault: ${error.stack ?? error}`);
} finally {
  await teardown();
}
process.exit(code);
