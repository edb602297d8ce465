/**
 * The organisers of the back office (/en/admin, issue 11).
 *
 *   npm run organisers -- list              who is an organiser, and where the role comes from
 *   npm run organisers -- add <email>       grant the role to an e-mail (before or after its first sign-in)
 *   npm run organisers -- remove <email>    take it back (effective on the next request)
 *
 * Besides these, every e-mail in ORGANISER_EMAILS is an organiser. The role is read on every
 * back-office request, on every instance. Uses the server's database, or its operator API while
 * the server holds a PGlite database (see scripts/lib.ts).
 */
import { parseArgs } from 'node:util';
import { addOrganiser, listOrganisers, removeOrganiser } from '@server/identity/organisers';
import { DEFAULT_TIMEZONE } from '@domain/format';
import { localTime, operatorName, runCommand, table, UsageError } from './lib';

const USAGE = `usage:
  npm run organisers -- list
  npm run organisers -- add <email>
  npm run organisers -- remove <email>`;

type Args = { command: 'list' } | { command: 'add' | 'remove'; email: string };
type Listed = { email: string; source: string; grantedBy: string | null; createdAt: Date | string | null };

function parse(): Args {
  const [command, ...rest] = process.argv.slice(2);
  const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true });
  if (command === 'list' && positionals.length === 0) return { command };
  if ((command === 'add' || command === 'remove') && positionals.length === 1 && positionals[0]!.includes('@'))
    return { command, email: positionals[0]! };
  throw new UsageError(command ? `Unknown or incomplete command: ${command}` : 'A command is required');
}

function printList(rows: Listed[]) {
  if (rows.length === 0)
    return console.log(
      'No organisers yet (ORGANISER_EMAILS is empty; add one with: npm run organisers -- add <email>).',
    );
  console.log(
    table(
      ['E-MAIL', 'SOURCE', 'GRANTED BY', 'SINCE'],
      rows.map((r) => [r.email, r.source, r.grantedBy ?? '', localTime(r.createdAt, DEFAULT_TIMEZONE)]),
    ),
  );
}

const report = (args: Args, result: { email: string; added?: boolean; removed?: boolean }) => {
  if (args.command === 'add')
    console.log(result.added ? `${result.email} is now an organiser.` : `${result.email} was already an organiser.`);
  else if (args.command === 'remove')
    console.log(
      result.removed
        ? `${result.email} is no longer an organiser (unless listed in ORGANISER_EMAILS).`
        : `${result.email} had no granted role (check ORGANISER_EMAILS).`,
    );
};

await runCommand(USAGE, parse, {
  async db({ db }, args, config) {
    if (args.command === 'list') return printList(await listOrganisers(db, config.organiserEmails));
    report(
      args,
      args.command === 'add'
        ? await addOrganiser(db, args.email, operatorName())
        : await removeOrganiser(db, args.email),
    );
  },
  async api(call, args) {
    if (args.command === 'list') {
      const rows = (await call('GET', '/organisers')) as {
        email: string;
        source: string;
        granted_by: string | null;
        created_at: string | null;
      }[];
      return printList(rows.map((r) => ({ ...r, grantedBy: r.granted_by, createdAt: r.created_at })));
    }
    report(
      args,
      (await call('POST', args.command === 'add' ? '/organisers' : '/organisers/remove', { email: args.email })) as {
        email: string;
        added?: boolean;
        removed?: boolean;
      },
    );
  },
});
