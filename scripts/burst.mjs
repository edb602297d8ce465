#!/usr/bin/env node
/**
 * Registration burst (`npm run bench:burst`, DESIGN §4, decision 024): N badge holders register
 * at once for an event of S seats, spread over the instances. Prints accepted / full / seats
 * taken / p50 / p99 / orders per minute and the machine time per request (CPU of the instances
 * and, on PostgreSQL, of the database backends serving them), and checks that exactly S were
 * accepted, the seats taken match the live orders, and no user holds two.
 *
 *   --db postgres   two instances on a throwaway database of the machine's PostgreSQL (default)
 *   --db pglite     one instance on the embedded PGlite
 *   --users N (1000)  --seats S (100)  --instances K (2 on PostgreSQL; PGlite is always 1)
 *   --no-build      use the existing dist/
 *   --cpu-prof      write a CPU profile per instance to bench-results/ (node --cpu-prof)
 *   --json FILE     also write the figures as JSON
 *   --repeat R      R bursts, each on fresh instances and a fresh database, then the median of
 *                   each figure (a 2-core machine varies by ±15 % from run to run)
 *   --base-port P   the instances listen on P, P+1, P+2 and the S3 stand-in on P+3 (4435: 4435–4438),
 *                   so a burst can run beside another one on the same machine
 *   --warm W (200)  before the measured burst, W other badge holders register at once for another
 *                   event of W/10 seats: instances warm as a live site's (JIT, full pool); 0: none
 * Exit code 1 when a check fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  backendPids,
  build,
  cpuSeconds,
  DEFAULT_ADMIN_URL,
  fireRegistrations,
  ROOT,
  startCluster,
  startInstance,
  summarize,
  tempDir,
  tsx,
  waitReady,
} from './cluster-lib.mjs';

const { values: flags } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    users: { type: 'string', default: '1000' },
    seats: { type: 'string', default: '100' },
    instances: { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    json: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    'base-port': { type: 'string', default: '4435' },
    warm: { type: 'string', default: '200' },
  },
});
const USERS = Number(flags.users);
const WARM = Number(flags.warm);
if (!Number.isInteger(WARM) || WARM < 0) throw new Error('--warm must be a whole number');
const SEATS = Number(flags.seats);
const PG = flags.db === 'postgres';
const INSTANCES = PG ? Number(flags.instances) : 1;
const BASE_PORT = Number(flags['base-port']);
if (!Number.isInteger(BASE_PORT) || BASE_PORT < 1024 || BASE_PORT > 65532)
  throw new Error('--base-port must be a port');
const PORTS = [BASE_PORT, BASE_PORT + 1, BASE_PORT + 2].slice(0, INSTANCES);
const nodeArgs = flags['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench-results', 'profiles')}`] : [];

const cleanups = [];
const teardown = async () => {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((e) => console.error(`teardown: ${e.message}`));
};
process.once('SIGINT', () => void teardown().then(() => process.exit(130)));

/** Waits until the outboxes (order events, e-mails) are empty, as the instance's /metrics says (≤ 30 s). */
async function outboxDrained(url) {
  const until = Date.now() + 30_000;
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const pending = [...text.matchAll(/^portal_outbox_backlog\{[^}]*\} (\d+)/gm)].map((m) => Number(m[1]));
    if (pending.length && pending.every((n) => n === 0)) return;
    if (Date.now() > until) {
      console.warn(`▸ warm-up: the outbox still holds ${pending.join(' / ')} after 30 s; the burst starts anyway`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main() {
  if (!flags['no-build']) {
    console.log('▸ building (npx astro build)');
    await build();
  }
  const work = tempDir('portal-burst-');
  cleanups.push(async () => work.remove());
  const fixtures = join(work.path, 'fixtures.json');
  const warmFixtures = join(work.path, 'warm-fixtures.json');
  const setup = async (env) => {
    await tsx(
      'load-fixtures.ts',
      ['burst', '--users', String(USERS), '--seats', String(SEATS), '--out', fixtures],
      env,
    );
    // Other badge holders and a smaller event of their own, for the warm-up below.
    if (WARM > 0) {
      const warmSeats = String(Math.max(1, Math.round(WARM / 10)));
      await tsx(
        'load-fixtures.ts',
        ['burst', '--users', String(WARM), '--seats', warmSeats, '--out', warmFixtures],
        env,
      );
    }
  };

  let instances;
  let env;
  let databaseName;
  console.log(
    `▸ ${PG ? `${INSTANCES} instances on PostgreSQL` : 'one instance on PGlite'}: ${USERS} badge holders, ${SEATS} seats`,
  );
  if (PG) {
    const cluster = await startCluster({ ports: PORTS, s3Port: BASE_PORT + 3, prepare: setup, nodeArgs });
    cleanups.push(cluster.teardown);
    ({ instances, env } = cluster);
    databaseName = cluster.database.name;
  } else {
    env = { DATA_DIR: join(work.path, 'data'), DATABASE_URL: '', IDENTITY_URL: '', SITE_URL: '' };
    await setup(env);
    const instance = startInstance({ port: PORTS[0], env, nodeArgs });
    cleanups.push(() => instance.stop());
    await waitReady(instance);
    instances = [instance];
  }
  const { slug, tokens } = JSON.parse(readFileSync(fixtures, 'utf8'));

  // Warm every instance (JIT, pool, key set) the way a live site is warm when registration opens:
  // it has been taking registrations, accepted and refused, on a full pool of connections. --warm
  // other badge holders register at once for another event of a tenth as many seats (both paths,
  // both instances, as many connections as the pool opens); then the event is read once.
  if (WARM > 0) {
    const warm = JSON.parse(readFileSync(warmFixtures, 'utf8'));
    const { results } = await fireRegistrations({
      urls: instances.map((i) => i.url),
      tokens: warm.tokens,
      slug: warm.slug,
    });
    const odd = results.filter((r) => r.status !== 201 && r.code !== 'event_capacity_full');
    if (odd.length)
      throw new Error(`warm-up: ${odd.length} answers neither accepted nor full: ${JSON.stringify(odd[0])}`);
    // Its confirmation mails are sent before the burst starts, not during it.
    await outboxDrained(instances[0].url);
  }
  await Promise.all(instances.map((i) => fetch(`${i.url}/api/v1/events/${slug}`).then((r) => r.text())));
  const pids = async () => [
    ...instances.map((i) => i.child.pid),
    ...(PG ? await backendPids(DEFAULT_ADMIN_URL, databaseName) : []),
  ];
  const before = await pids();
  const instancePids = instances.map((i) => i.child.pid);
  const cpu0 = await cpuSeconds(before);
  const app0 = await cpuSeconds(instancePids);
  console.log(`▸ ${USERS} registrations at once`);
  const burst = await fireRegistrations({ urls: instances.map((i) => i.url), tokens, slug });
  const after = [...new Set([...before, ...(await pids())])];
  const cpu = (await cpuSeconds(after)) - cpu0;
  const appCpu = (await cpuSeconds(instancePids)) - app0;

  await Promise.all(instances.map((i) => i.stop()));
  const check = JSON.parse(await tsx('load-fixtures.ts', ['check', '--slug', slug], env));
  const figures = {
    database: PG ? `PostgreSQL, ${INSTANCES} instances` : 'PGlite, 1 instance',
    ...summarize(burst),
    seatsTaken: check.seatsTaken,
    liveOrders: check.liveOrders,
    usersWithSeveralLiveOrders: check.usersWithSeveralLiveOrders,
    cpuMsPerRequest: Number(((cpu * 1000) / USERS).toFixed(2)),
    'of which instances': Number(((appCpu * 1000) / USERS).toFixed(2)),
    serverErrors: instances.flatMap((i) => i.log.filter((l) => /"level":"error"/.test(l))).length,
  };
  console.log('\nRegistration burst');
  console.table([Object.fromEntries(Object.entries(figures).filter(([k]) => k !== 'otherKinds'))]);
  if (figures.other) console.log('other answers:', figures.otherKinds);
  const expected = Math.min(USERS, SEATS);
  const checks = [
    ['exactly min(users, seats) accepted', figures.accepted === expected, `${figures.accepted} of ${expected}`],
    ['the rest refused as full', figures.full === USERS - expected, `${figures.full}`],
    [
      'seats taken = live orders = accepted',
      check.seatsTaken === check.liveOrders && check.liveOrders === figures.accepted,
      `${check.seatsTaken} / ${check.liveOrders}`,
    ],
    ['no user with two live orders', check.usersWithSeveralLiveOrders === 0, String(check.usersWithSeveralLiveOrders)],
    ['no other answer (5xx, timeouts)', figures.other === 0, JSON.stringify(figures.otherKinds)],
  ].map(([check, ok, actual]) => ({ check, result: ok ? 'PASS' : 'FAIL', actual }));
  console.table(checks);
  if (flags.json) {
    mkdirSync(join(flags.json, '..'), { recursive: true });
    writeFileSync(flags.json, JSON.stringify({ date: new Date().toISOString(), figures, checks }, null, 2));
  }
  const failed = checks.filter((c) => c.result !== 'PASS').length;
  console.log(`burst: ${checks.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

/** `--repeat R`: R runs of this script, one after another, then the median of every figure. */
async function repeated(runs) {
  if (!flags['no-build']) {
    console.log('▸ building (npx astro build)');
    await build();
  }
  const work = tempDir('portal-burst-runs-');
  cleanups.push(async () => work.remove());
  const args = process.argv
    .slice(2)
    .filter((a, i, all) => !a.startsWith('--repeat=') && a !== '--repeat' && all[i - 1] !== '--repeat');
  const rows = [];
  let failed = 0;
  for (let run = 1; run <= runs; run++) {
    const out = join(work.path, `run-${run}.json`);
    const child = spawnSync(process.execPath, [process.argv[1], ...args, '--no-build', '--json', out], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    if (child.status !== 0) failed++;
    const result = JSON.parse(readFileSync(out, 'utf8'));
    const bad = result.checks.filter((c) => c.result !== 'PASS').map((c) => c.check);
    console.log(`▸ run ${run}/${runs}: ${bad.length ? `FAILED ${bad.join('; ')}` : 'all checks passed'}`);
    rows.push(result.figures);
  }
  const numeric = Object.keys(rows[0]).filter((k) => typeof rows[0][k] === 'number');
  const median = (k) => {
    const sorted = rows.map((r) => r[k]).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : Number(((sorted[mid - 1] + sorted[mid]) / 2).toFixed(2));
  };
  const shown = ['accepted', 'full', 'p50ms', 'p99ms', 'requestsPerMinute', 'cpuMsPerRequest', 'of which instances'];
  const table = rows.map((r, i) => ({ run: String(i + 1), ...Object.fromEntries(shown.map((k) => [k, r[k]])) }));
  table.push({ run: 'median', ...Object.fromEntries(shown.map((k) => [k, median(k)])) });
  console.log(`\nRegistration burst, ${runs} runs (${rows[0].database})`);
  console.table(table);
  if (flags.json) {
    mkdirSync(join(flags.json, '..'), { recursive: true });
    const medians = Object.fromEntries(numeric.map((k) => [k, median(k)]));
    writeFileSync(flags.json, JSON.stringify({ date: new Date().toISOString(), runs: rows, median: medians }, null, 2));
  }
  console.log(`burst: ${runs - failed} of ${runs} runs passed every check`);
  return failed ? 1 : 0;
}

let code = 1;
try {
  const runs = Number(flags.repeat);
  code = runs > 1 ? await repeated(runs) : await main();
} catch (error) {
  console.error(`burst: ${error.stack ?? error}`);
} finally {
  await teardown();
}
process.exit(code);
