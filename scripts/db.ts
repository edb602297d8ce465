/**
 * Database commands: `npm run db:migrate`, `npm run db:seed`, and
 * `tsx scripts/db.ts demo-orders --email a@example.com --count 100` (bench and manual testing).
 * Uses the same configuration as the server (DATABASE_URL, or PGlite under DATA_DIR). Do not run
 * against a PGlite directory that a running server has open.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { seedDemoOrders } from '../src/server/db/demo';
import { seed } from '../src/server/db/seed';
import { devSubject } from '../src/server/identity/dev-identity';

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, count: { type: 'string' } } });
const config = getConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: join(config.dataDir, 'pglite') });
try {
  if (command === 'migrate') {
    console.log('migrations applied');
  } else if (command === 'seed') {
    await seed(database.db);
    console.log('seeded the conference events');
  } else if (command === 'demo-orders') {
    const email = values.email ?? 'bench@example.com';
    await seed(database.db);
    const rows = await seedDemoOrders(database.db, { subject: devSubject(email), email, count: Number(values.count ?? 100) });
    console.log(`${email} has ${rows.length} orders`);
  } else {
    console.error('usage: tsx scripts/db.ts migrate|seed|demo-orders [--email E --count N]');
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
