#!/usr/bin/env node
/**
 * Soak (`npm run bench:soak`, decision 024; a bench, not CI): mixed traffic for --minutes (10)
 * against one instance, printing every 30 s the instance's RSS and heap and the answers so far;
 * at the end, whether memory stayed flat (the last third's RSS within 15 % of the first third's
 * after warm-up). Traffic: public pages, the orders page and order list of signed-in users,
 * event registrations (new users keep arriving), an upload and its download.
 *
 * Flags: --minutes M (10), --db pglite|postgres (pglite), --concurrency C (8), --no-build.
 * Port 4435 (instance), 4438 (S3, with --db postgres).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build, sleep, startCluster, startInstance, tempDir, tsx, waitReady } from './cluster-lib.mjs';

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    db: { type: 'string', default: 'pglite' },
    concurrency: { type: 'string', default: '8' },
    'no-build': { type: 'boolean', default: false },
  },
});
const MINUTES = Number(flags.minutes);
const CONCURRENCY = Number(flags.concurrency);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const cleanups = [];
const teardown = async () => {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((e) => console.error(`teardown: ${e.message}`));
};
process.once('SIGINT', () => void teardown().then(() => process.exit(130)));

/** RSS and heap of a process from /proc (kB → MB). */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssMb: Math.round(kb('VmRSS') / 1024), dataMb: Math.round(kb('VmData') / 1024) };
  } catch {
    return { rssMb: NaN, dataMb: NaN };
  }
}

async function main() {
  if (!flags['no-build']) {
    console.log('▸ building (npx astro build)');
    await build();
  }
  const work = tempDir('portal-soak-');
  cleanups.push(async () => work.remove());
  const fixtures = join(work.path, 'fixtures.json');
  // Enough registrants for the whole run: every registration is a new badge holder.
  const users = Math.max(2000, MINUTES * 60 * 20);
  const setup = (env) =>
    tsx(
      'load-fixtures.ts',
      [
        'burst',
        '--users',
        String(users),
        '--seats',
        '100000',
        '--out',
        fixtures,
        '--ttl-seconds',
        String(MINUTES * 60 + 3600),
      ],
      env,
    );
  let instance;
  if (flags.db === 'postgres') {
    const cluster = await startCluster({ ports: [4435], s3Port: 4438, prepare: setup });
    cleanups.push(cluster.teardown);
    instance = cluster.instances[0];
  } else {
    const env = { DATA_DIR: join(work.path, 'data'), DATABASE_URL: '', IDENTITY_URL: '', SITE_URL: '' };
    await setup(env);
    instance = startInstance({ port: 4435, env });
    cleanups.push(() => instance.stop());
    await waitReady(instance);
  }
  const { slug, tokens } = JSON.parse(readFileSync(fixtures, 'utf8'));
  const base = instance.url;
  const counts = {};
  let nextUser = 0;
  const count = (label, status) => {
    const key = `${label} ${status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const actions = [
    async () => count('home', (await fetch(`${base}/en/`)).status),
    async () => count('event page', (await fetch(`${base}/zh-tw/events/opening-forum`)).status),
    async () => {
      const token = tokens[nextUser++ % tokens.length];
      const res = await fetch(`${base}/api/v1/orders?event=${slug}&registration_type=EVENT_GENERAL`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"agree_terms":true}',
      });
      count('register', res.status);
      await res.arrayBuffer();
      const page = await fetch(`${base}/en/account/orders`, { headers: { cookie: `portal-session=${token}` } });
      count('orders page', page.status);
      await page.arrayBuffer();
    },
    async () => {
      const token = tokens[nextUser % tokens.length];
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
      form.append('purpose', 'personal_photo');
      const up = await fetch(`${base}/api/v1/files/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      count('upload', up.status);
      if (up.status === 200) {
        const { uid } = await up.json();
        const down = await fetch(`${base}/api/v1/files/${uid}`, { headers: { authorization: `Bearer ${token}` } });
        count('download', down.status);
        await down.arrayBuffer();
      }
    },
  ];
  const end = Date.now() + MINUTES * 60_000;
  let errors = 0;
  const worker = async (w) => {
    for (let i = w; Date.now() < end; i++) {
      try {
        await actions[i % actions.length]();
      } catch {
        errors++;
      }
    }
  };
  console.log(`▸ ${MINUTES} min of mixed traffic, ${CONCURRENCY} at a time, on ${base} (${flags.db})`);
  const samples = [];
  const started = Date.now();
  const sampler = (async () => {
    while (Date.now() < end) {
      await sleep(Math.min(30_000, Math.max(0, end - Date.now())));
      const m = memoryOf(instance.child.pid);
      const requests = Object.values(counts).reduce((a, b) => a + b, 0);
      samples.push({ minute: Number(((Date.now() - started) / 60_000).toFixed(1)), ...m, requests, errors });
      console.log(
        `  ${samples.at(-1).minute} min: RSS ${m.rssMb} MB, data ${m.dataMb} MB, ${requests} requests, ${errors} errors`,
      );
    }
  })();
  await Promise.all([...Array.from({ length: CONCURRENCY }, (_, w) => worker(w)), sampler]);
  console.log('\nSoak: memory over time');
  console.table(samples);
  console.log('answers:', counts);
  const third = Math.max(1, Math.floor(samples.length / 3));
  const avg = (xs) => xs.reduce((a, s) => a + s.rssMb, 0) / xs.length;
  const first = avg(samples.slice(1, 1 + third).length ? samples.slice(1, 1 + third) : samples.slice(0, 1));
  const last = avg(samples.slice(-third));
  const growth = (last - first) / first;
  const serverErrors = Object.entries(counts).filter(([k]) => / 5\d\d$/.test(k));
  console.log(
    `RSS: first third ${first.toFixed(0)} MB, last third ${last.toFixed(0)} MB (${(growth * 100).toFixed(1)} %)`,
  );
  const ok = growth < 0.15 && serverErrors.length === 0 && errors === 0;
  console.log(`soak: ${ok ? 1 : 0} passed, ${ok ? 0 : 1} failed (flat memory, no 5xx, no transport error)`);
  return ok ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`soak: ${error.stack ?? error}`);
} finally {
  await teardown();
}
process.exit(code);
