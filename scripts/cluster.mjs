#!/usr/bin/env node
/**
 * A local cluster of the portal (`npm run cluster`, decision 024): builds once, creates a
 * throwaway database on the machine's PostgreSQL (TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test as the admin connection), starts a local S3-compatible
 * server for uploads, and two `node server.mjs` instances with the same configuration on two
 * ports; prints their URLs and waits. Ctrl-C stops the instances and the S3 server, drops the
 * database it created and removes its temporary directory.
 *
 * Flags: --ports 4433,4434 (one instance per port), --s3-port 4432, --no-build, --verbose.
 */
import { parseArgs } from 'node:util';
import { build, startCluster } from './cluster-lib.mjs';

const { values: flags } = parseArgs({
  options: {
    ports: { type: 'string', default: '4433,4434' },
    's3-port': { type: 'string', default: '4432' },
    'no-build': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const ports = flags.ports.split(',').map(Number);
if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) throw new Error('--ports: a list of port numbers');

let cluster;
let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  console.log('\n▸ stopping: instances, S3 server, database, temporary files');
  await cluster?.teardown();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  if (!flags['no-build']) {
    console.log('▸ building (npx astro build)');
    await build();
  }
  console.log(`▸ starting the S3 server, a throwaway database and ${ports.length} instance(s)`);
  cluster = await startCluster({ ports, s3Port: Number(flags['s3-port']), echo: flags.verbose });
  console.log(`\nLocal cluster ready (Ctrl-C stops it and removes everything it created):`);
  for (const i of cluster.instances) console.log(`  ${i.name.padEnd(22)} ${i.url}/en/`);
  console.log(`  database               ${cluster.database.name} (dropped on exit)`);
  console.log(`  S3 server              ${cluster.s3.endpoint} bucket ${cluster.s3.bucket}`);
  console.log(`  DATA_DIR               ${cluster.env.DATA_DIR}`);
  console.log('\nThe instances share nothing but the database, the bucket and their configuration;');
  console.log('sign in on one and use the other with the same portal-session cookie.');
  for (const i of cluster.instances) {
    void i.exited.then(() => {
      if (!stopping) console.log(`\n${i.name} exited:\n${i.log.slice(-20).join('\n')}`);
    });
  }
  await new Promise(() => {});
} catch (error) {
  console.error(`cluster: ${error.message}`);
  await stop(1);
}
