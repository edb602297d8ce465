/**
 * The team of the back office (/en/admin, issues 11 and 21), from a terminal: the bootstrap of the
 * first admins, besides the team page.
 *
 *   npm run organisers -- list                            who is on the team, with which role and from where
 *   npm run organisers -- add <email> [--role <role>]     put an e-mail on the team (default role: admin),
 *                                                         or change its role (before or after its first sign-in)
 *   npm run organisers -- remove <email>                  take it off (effective on the next request)
 *
 * Roles: admin, finance, reviewer, desk, viewer (src/domain/roles.ts). Every e-mail in
 * ORGANISER_EMAILS is an admin. Each change is in the audit trail with the operator's name. The role is read on every
 * back-office request, on every instance. Uses the server's database, or its operator API while
 * the server holds a PGlite database (see scripts/lib.ts).
 */
import { parseArgs } from 'node:util';
import { addOrganiser, listOrganisers, removeOrganiser } from '@server/identity/organisers';
import { DEFAULT_TIMEZONE } from '@domain/format';
import { isRole, ROLES, type Role } from '@domain/roles';
import { localTime, operatorName, runCommand, table, UsageError } from './lib';

const USAGE = `usage:
  npm run organisers -- list
  npm run organisers -- add <email> [--role ${ROLES.join('|')}]   (default role: admin)
  npm run organisers -- remove <email>`;

type Args = { command: 'list' } | { command: 'add'; email: string; role: Role } | { command: 'remove'; email: string };
type Listed = {
  email: string;
  role: string;
  source: string;
  grantedBy: string | null;
  createdAt: Date | string | null;
};

function parse(): Args {
  const [command, ...rest] = process.argv.slice(2);
  const { positionals, values } = parseArgs({
    args: rest,
    options: { role: { type: 'string' } },
    allowPositionals: true,
  });
  const email = positionals.length === 1 && positionals[0]!.includes('@') ? positionals[0]! : undefined;
  if (command === 'list' && positionals.length === 0 && values.role === undefined) return { command };
  if (command === 'add' && email) {
    const role = values.role ?? 'admin';
    if (!isRole(role)) throw new UsageError(`Unknown role: ${role} (one of ${ROLES.join(', ')})`);
    return { command, email, role };
  }
  if (command === 'remove' && email && values.role === undefined) return { command, email };
  throw new UsageError(command ? `Unknown or incomplete command: ${command}` : 'A command is required');
}

function printList(rows: Listed[]) {
  if (rows.length === 0)
    return console.log(
      'No organisers yet (ORGANISER_EMAILS is empty; add one with: npm run organisers -- add <email>).',
    );
  console.log(
    table(
      ['E-MAIL', 'ROLE', 'SOURCE', 'GRANTED BY', 'SINCE'],
      rows.map((r) => [r.email, r.role, r.source, r.grantedBy ?? '', localTime(r.createdAt, DEFAULT_TIMEZONE)]),
    ),
  );
}

type Outcome = { email: string; role?: string; added?: boolean; changed?: boolean; removed?: boolean };

const report = (args: Args, result: Outcome) => {
  if (args.command === 'add')
    console.log(
      result.added
        ? `${result.email} is now on the team as ${args.role}.`
        : result.changed
          ? `${result.email} is now ${args.role}.`
          : `${result.email} was already ${args.role}.`,
    );
  else if (args.command === 'remove')
    console.log(
      result.removed
        ? `${result.email} is no longer on the team (unless listed in ORGANISER_EMAILS).`
        : `${result.email} had no granted role (check ORGANISER_EMAILS).`,
    );
};

await runCommand(USAGE, parse, {
  async db({ db }, args, config) {
    if (args.command === 'list') return printList(await listOrganisers(db, config.organiserEmails));
    report(
      args,
      args.command === 'add'
        ? await addOrganiser(db, args.email, operatorName(), args.role)
        : await removeOrganiser(db, args.email, operatorName()),
    );
  },
  async api(call, args) {
    if (args.command === 'list') {
      const rows = (await call('GET', '/organisers')) as {
        email: string;
        role: string;
        source: string;
        granted_by: string | null;
        created_at: string | null;
      }[];
      return printList(rows.map((r) => ({ ...r, grantedBy: r.granted_by, createdAt: r.created_at })));
    }
    report(
      args,
      (await call(
        'POST',
        args.command === 'add' ? '/organisers' : '/organisers/remove',
        args.command === 'add' ? { email: args.email, role: args.role } : { email: args.email },
      )) as Outcome,
    );
  },
});
