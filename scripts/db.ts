/**
 * Database commands: `npm run db:migrate`, `npm run db:seed`, and
 * `tsx scripts/db.ts demo-orders --email a@example.com --count 100` and
 * `tsx scripts/db.ts demo-exhibitors --count 300` (listed exhibitors, without logos) for the bench and manual testing.
 * Uses the same configuration as the server (DATABASE_URL, or PGlite under DATA_DIR) and opens
 * the database as the server does, which applies pending migrations (on PostgreSQL under an
 * advisory lock, so this and several instances can start at once); `migrate` reports what that
 * applied. A PGlite directory cannot be shared with a running server: stop it first (the command
 * says so; see scripts/lib.ts).
 */
import { parseArgs } from 'node:util';
import { seedDemoOrders } from '@server/db/demo';
import { seed } from '@server/db/seed';
import { seedDemoExhibitors } from '@server/market/demo-exhibitors';
import { devSubject } from '@server/identity/dev-identity';
import { runCommand, UsageError } from './lib';

const USAGE = 'usage: tsx scripts/db.ts migrate|seed|demo-orders [--email E --count N]|demo-exhibitors [--count N]';

function parse() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, count: { type: 'string' } } });
  if (command !== 'migrate' && command !== 'seed' && command !== 'demo-orders' && command !== 'demo-exhibitors') {
    throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
  const count = Number(values.count ?? 100);
  if (!Number.isInteger(count) || count < 0) throw new UsageError('--count must be a whole number');
  return { command, email: values.email ?? 'bench@example.com', count };
}

await runCommand(USAGE, parse, {
  async db({ db, migrations }, { command, email, count }) {
    if (command === 'migrate') {
      // Opening the database migrates it (on PostgreSQL under the migration advisory lock, so
      // this is safe beside running instances): report what that open applied.
      const { applied, recorded, latest } = migrations!;
      for (const tag of applied) console.log(`applied ${tag}`);
      console.log(
        `${applied.length === 0 ? 'nothing to apply: ' : ''}the database is up to date ` +
          `(${recorded} migration${recorded === 1 ? '' : 's'}, latest ${latest ?? 'none'})`,
      );
    } else if (command === 'seed') {
      await seed(db);
      console.log('seeded the conference events');
    } else if (command === 'demo-exhibitors') {
      await seed(db);
      const added = await seedDemoExhibitors(db, null, { count });
      console.log(`${added} demo exhibitors added`);
    } else {
      await seed(db);
      const rows = await seedDemoOrders(db, { subject: devSubject(email), email, count });
      console.log(`${email} has ${rows.length} orders`);
    }
  },
});
