#!/usr/bin/env node
/**
 * The small versions of the load suites that `npm test` runs after the browser tests (on their
 * build; decision 024): a burst of 200 registrations for 20 seats over two instances, and the
 * fault suite (kill -9 during a burst, PostgreSQL restarted on a private server). Both need the
 * machine's PostgreSQL (TEST_DATABASE_URL, else 127.0.0.1:5432): without one the burst runs on
 * PGlite (one instance) and the fault suite is skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import { DEFAULT_ADMIN_URL, ROOT } from './cluster-lib.mjs';

async function postgresAnswers() {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: DEFAULT_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const node = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
const withPostgres = await postgresAnswers();
let failed = 0;
if (withPostgres) {
  failed += node(['scripts/burst.mjs', '--no-build', '--db', 'postgres', '--users', '200', '--seats', '20']) ? 1 : 0;
  failed += node(['scripts/fault.mjs', '--no-build', '--small']) ? 1 : 0;
} else {
  console.log(`No PostgreSQL at ${DEFAULT_ADMIN_URL}: the burst runs on PGlite; the fault suite is skipped.`);
  failed += node(['scripts/burst.mjs', '--no-build', '--db', 'pglite', '--users', '200', '--seats', '20']) ? 1 : 0;
}
const suites = withPostgres ? 2 : 1;
console.log(`cluster: ${suites - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
