/**
 * The pieces of a local cluster (decision 024), shared by `npm run cluster` and the load suites
 * (burst, fault, soak) and by `npm run bench -- --postgres`: a throwaway PostgreSQL database, a
 * local S3-compatible server, and `node server.mjs` instances with one configuration. Every
 * target is on 127.0.0.1; nothing here drops a database it did not create.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { V8_FLAGS } from '../server.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HOST = '127.0.0.1';
/** The machine's PostgreSQL (CI and the developers' machines run one; DESIGN §6). */
export const DEFAULT_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A TCP proxy to `target` ({host, port}) on an ephemeral port of 127.0.0.1 that can turn into a
 * black hole (decision 041): `blackHole(true)` silently drops every byte both ways and answers
 * no new connection, closing nothing, as a failover or a dropped route does; `blackHole(false)`
 * forwards again (connections that lost bytes meanwhile are reset, as their peer would).
 */
export async function blackHoleProxy(target) {
  const net = await import('node:net');
  let silent = false;
  const pairs = new Set();
  const proxy = net.createServer((client) => {
    const pair = { client, server: new net.Socket() };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      pair.server.destroy();
    };
    client.on('error', drop).on('close', drop);
    // A connection opened into the black hole: accepted by the kernel, then nothing, ever.
    if (silent) return;
    pair.server.on('error', drop).on('close', drop);
    pair.server.connect(target.port, target.host);
    client.on('data', (chunk) => {
      if (!silent) pair.server.write(chunk);
    });
    pair.server.on('data', (chunk) => {
      if (!silent) client.write(chunk);
    });
  });
  await new Promise((resolve) => proxy.listen(0, HOST, resolve));
  const reset = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.server.destroy();
    }
    pairs.clear();
  };
  return {
    port: proxy.address().port,
    /** @param {boolean} on */
    blackHole(on) {
      if (silent && !on) reset();
      silent = on;
    },
    async close() {
      reset();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

/** Runs a command to completion (output inherited unless `quiet`: then its standard output is the answer). */
export function run(command, args, env = {}, { quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (c) => (out += c));
    child.stderr?.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve(out)
        : reject(
            new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})\n${(out + err).slice(-2000)}`),
          ),
    );
  });
}

export const build = () => run(npx, ['astro', 'build'], {}, { quiet: true });
/** `tsx scripts/<file>` with the cluster's environment (fixtures, operator commands). */
export const tsx = (file, args, env) => run(npx, ['tsx', join('scripts', file), ...args], env, { quiet: true });

/** A throwaway database on the PostgreSQL server of `adminUrl`; `drop()` removes it (and only it). */
export async function createDatabase(adminUrl = DEFAULT_ADMIN_URL, prefix = 'portal_cluster') {
  const pg = (await import('pg')).default;
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      try {
        await a.query(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

/** A local S3-compatible server (@20minutes/s3rver) with one bucket, objects under `dir`. */
export async function startS3({ port, dir, bucket = 'portal-uploads' }) {
  const { default: S3rver } = await import('@20minutes/s3rver');
  const server = new S3rver({
    address: HOST,
    port,
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://${HOST}:${address.port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: () => server.close(),
  };
}

/**
 * Starts `node server.mjs` on `port` with `env` (on top of this process's). Keeps the last lines
 * of its output; `stop()` ends it with SIGTERM (then SIGKILL), `kill()` with SIGKILL at once.
 */
export function startInstance({ port, env, name = `:${port}`, nodeArgs = [], echo = false }) {
  const log = [];
  const child = spawn(process.execPath, [...V8_FLAGS, ...nodeArgs, 'server.mjs'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env, HOST, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      log.push(line);
      if (log.length > 500) log.shift();
      if (echo) console.log(`  [${name}] ${line}`);
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((r) => child.once('exit', r));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    port,
    url: `http://${HOST}:${port}`,
    child,
    log,
    exited,
    alive,
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      if (await Promise.race([exited.then(() => true), sleep(8000).then(() => false)])) return;
      child.kill('SIGKILL');
      await Promise.race([exited, sleep(3000)]);
    },
    async kill() {
      if (!alive()) return;
      child.kill('SIGKILL');
      await Promise.race([exited, sleep(3000)]);
    },
  };
}

/**
 * Throws when something already listens on `port` (a previous part's instance): the new instance
 * would exit with EADDRINUSE while the old one answered its readiness checks.
 */
export async function assertPortFree(port, timeoutMs = 10_000) {
  const { createServer } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, HOST, () => probe.close(() => resolve(true)));
    });
    if (free) return;
    if (Date.now() > deadline) throw new Error(`port ${port} is still in use`);
    await sleep(250);
  }
}

/** Waits until the instance answers GET /api/v1/events with 200 (its start-up check passed). */
export async function waitReady(instance, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!instance.alive()) throw new Error(`instance ${instance.name} exited:\n${instance.log.slice(-30).join('\n')}`);
    try {
      const res = await fetch(`${instance.url}/api/v1/events`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`instance ${instance.name} did not become ready in ${timeoutMs / 1000} s`);
}

/** A temporary directory removed by `remove()`. */
export function tempDir(prefix) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Starts the cluster of `instances` instances (ports `ports`) on a throwaway database of the
 * machine's PostgreSQL and a local S3 server, all with the same configuration (DATA_DIR too, so
 * they share the development identity key and operator token as a real deployment shares its
 * secrets). `prepare(env)` runs once the database exists, before any instance starts (fixtures).
 * Returns the instances and `teardown()`.
 */
export async function startCluster({
  ports,
  s3Port,
  adminUrl = DEFAULT_ADMIN_URL,
  extraEnv = {},
  prepare,
  echo = false,
  nodeArgs = [],
}) {
  const cleanups = [];
  const teardown = async () => {
    while (cleanups.length)
      await cleanups
        .pop()()
        .catch((e) => console.error(`teardown: ${e.message}`));
  };
  try {
    const data = tempDir('portal-cluster-');
    cleanups.push(async () => data.remove());
    const database = await createDatabase(adminUrl);
    cleanups.push(() => database.drop());
    const s3 = await startS3({ port: s3Port, dir: join(data.path, 's3') });
    cleanups.push(() => s3.close());
    const env = {
      DATA_DIR: join(data.path, 'data'),
      DATABASE_URL: database.url,
      IDENTITY_URL: '',
      SITE_URL: '',
      AUTH_COOKIE_DOMAIN: '',
      ...s3.env,
      ...extraEnv,
    };
    // Migrate once before the instances start (they would under the advisory lock anyway).
    await tsx('db.ts', ['migrate'], env);
    if (prepare) await prepare(env);
    const instances = ports.map((port, i) =>
      startInstance({ port, env, name: `instance ${i + 1} :${port}`, echo, nodeArgs }),
    );
    cleanups.push(async () => {
      await Promise.all(instances.map((i) => i.stop()));
    });
    await Promise.all(instances.map((i) => waitReady(i)));
    return { instances, database, s3, env, dataDir: data.path, teardown };
  } catch (error) {
    await teardown();
    throw error;
  }
}

// ---- load -------------------------------------------------------------------------------------

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
export async function cpuSecondsOf(pid) {
  try {
    const { readFileSync } = await import('node:fs');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The PostgreSQL backends serving `database` (their processes are on this machine). */
export async function backendPids(adminUrl, database) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [database]);
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** Sum of the CPU seconds of `pids` (processes that are gone count as 0). */
export async function cpuSeconds(pids) {
  let total = 0;
  for (const pid of pids) total += (await cpuSecondsOf(pid)) ?? 0;
  return total;
}

export const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/**
 * Registers every token's user at once for the event `slug`, spread round-robin over `urls`
 * (each request to one instance, as a load balancer would). Every request is bounded by
 * `timeoutMs`. Answers one record per request: status, API code, order id, latency (ms).
 */
export async function fireRegistrations({ urls, tokens, slug, timeoutMs = 60_000, onAnswer }) {
  // node:http rather than fetch: the burst's client shares the machine's cores with the instances it
  // measures, and undici's fetch cost about 0.7 ms of CPU a request here (a third of what the
  // instances spend); a real burst comes from a thousand phones. Keep-alive sockets without a
  // limit, as fetch's pool: one connection per request in flight.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const body = JSON.stringify({ agree_terms: true });
  const started = performance.now();
  const results = await Promise.all(
    tokens.map(async (token, i) => {
      const base = urls[i % urls.length];
      const t0 = performance.now();
      try {
        const { status, text } = await post(`${base}/api/v1/orders?event=${slug}&registration_type=EVENT_GENERAL`, {
          agent,
          body,
          timeoutMs,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
        let answer = {};
        try {
          answer = JSON.parse(text);
        } catch {
          answer = { code: `non_json: ${text.slice(0, 80)}` };
        }
        const record = {
          instance: base,
          status,
          code: answer.code ?? null,
          message: answer.message ?? null,
          orderId: answer.order_id ?? null,
          ms: performance.now() - t0,
        };
        onAnswer?.(record);
        return record;
      } catch (error) {
        const record = { instance: base, status: 0, code: error.name, orderId: null, ms: performance.now() - t0 };
        onAnswer?.(record);
        return record;
      }
    }),
  );
  agent.destroy();
  return { results, seconds: (performance.now() - started) / 1000 };
}

/** One POST through node:http: its status and body text; a TimeoutError after `timeoutMs`. */
function post(url, { agent, body, headers, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs} ms`);
      error.name = 'TimeoutError';
      req.destroy(error);
    }, timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(body);
  });
}

/** accepted / full / other / p50 / p99 / orders per minute of a burst. */
export function summarize({ results, seconds }) {
  const accepted = results.filter((r) => r.status === 201);
  const full = results.filter((r) => r.status === 400 && r.code === 'event_capacity_full');
  const other = results.filter((r) => r.status !== 201 && !(r.status === 400 && r.code === 'event_capacity_full'));
  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const byKind = {};
  for (const r of other) byKind[`${r.status} ${r.code}`] = (byKind[`${r.status} ${r.code}`] ?? 0) + 1;
  return {
    requests: results.length,
    accepted: accepted.length,
    full: full.length,
    other: other.length,
    otherKinds: byKind,
    p50ms: Math.round(percentile(latencies, 50)),
    p99ms: Math.round(percentile(latencies, 99)),
    maxms: Math.round(latencies.at(-1) ?? NaN),
    seconds: Number(seconds.toFixed(2)),
    requestsPerMinute: Math.round((results.length / seconds) * 60),
    acceptedPerMinute: Math.round((accepted.length / seconds) * 60),
  };
}
