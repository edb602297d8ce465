/**
 * What the operator commands share: the server's configuration and database, opened the same way
 * the server opens them (DATABASE_URL, or PGlite under DATA_DIR/pglite), or the running server's
 * operator API, and a clean exit.
 *
 * PGlite cannot be shared between processes: openDatabase refuses a data directory another live
 * process holds (a lock file next to it). So a command
 *   - with PORTAL_URL set talks to that server's operator API (/api/v1/operator, Bearer
 *     OPERATOR_TOKEN, or the development token the server keeps in DATA_DIR/operator-token);
 *   - otherwise opens the database itself; when the portal server holds it and an operator token
 *     is at hand, it goes through that server's API (SITE_URL, or http://localhost:$PORT);
 *   - otherwise prints that the database is in use (stop the server, or use PostgreSQL through
 *     DATABASE_URL, which both can share) instead of a stack trace.
 */
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@domain/errors';
import { ApiError } from '@server/api/errors';
import { getConfig, type Config } from '@server/config';
import { DatabaseInUseError, openDatabase, type Database } from '@server/db/client';

/** An error the command reports as one line (exit code 1), without a stack trace. */
export class CommandError extends Error {}

/** Wrong arguments: the message and the usage text, exit code 2. */
export class UsageError extends Error {}

/** Opens the configured database; a clear CommandError when it cannot. */
export async function openPortalDatabase(config: Config = getConfig()): Promise<Database> {
  try {
    return await openDatabase({ url: config.DATABASE_URL, dataDir: join(config.dataDir, 'pglite') });
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw error;
    const where = config.DATABASE_URL
      ? 'the PostgreSQL server of DATABASE_URL'
      : `the PGlite database in ${join(config.dataDir, 'pglite')}`;
    throw new CommandError(
      `Could not open ${where}: ${(error as Error).message}. ` +
        (config.DATABASE_URL
          ? 'Check that the server is reachable.'
          : 'If the portal server is running, stop it first (PGlite cannot be shared between processes).'),
    );
  }
}

/** A call to the running server's operator API: the `data` of its answer, or a CommandError. */
export type OperatorApi = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<unknown>;

/** The operator token: OPERATOR_TOKEN, else the development token the server keeps in DATA_DIR. */
function operatorToken(config: Config): string | undefined {
  if (process.env.OPERATOR_TOKEN) return process.env.OPERATOR_TOKEN;
  const file = join(config.dataDir, 'operator-token');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

/** The organiser running an operator command: OPERATOR_NAME, else the login name. */
export function operatorName(): string {
  let login = '';
  try {
    login = userInfo().username;
  } catch {
    // no passwd entry (containers): fall back below
  }
  return (process.env.OPERATOR_NAME || login || 'operator').replace(/[^\w.@+-]/g, '').slice(0, 64) || 'operator';
}

function operatorApi(base: string, token: string): OperatorApi {
  const root = `${base.replace(/\/$/, '')}/api/v1/operator`;
  return async (method, path, body) => {
    let res: Response;
    try {
      res = await fetch(`${root}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          // Who runs the command, for the orders' audit trail (order_events.actor_id).
          'x-operator': operatorName(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new CommandError(`Could not reach the portal server at ${base}: ${(error as Error).message}`);
    }
    const text = await res.text();
    let parsed: { data?: unknown; message?: string; error?: string; code?: string } = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: reported below
    }
    if (!res.ok) {
      const message = parsed.message ?? parsed.error ?? (text.slice(0, 200) || res.statusText);
      throw new CommandError(`${base} answered ${res.status}${parsed.code ? ` ${parsed.code}` : ''}: ${message}`);
    }
    return parsed.data;
  };
}

export type CommandHandlers<A> = {
  /** With the database open. */
  db: (database: Database, args: A, config: Config) => Promise<void>;
  /** Through the running server's operator API; commands without one always open the database. */
  api?: (api: OperatorApi, args: A, config: Config) => Promise<void>;
};

/**
 * Parses the arguments (before anything is opened), runs the command against the database or
 * the server (see the header), and turns expected failures (bad arguments, an API error such as
 * "Order not found", a database in use) into one line on stderr: exit code 2 for usage errors,
 * 1 for the others.
 */
export async function runCommand<A>(usage: string, parse: () => A, handlers: CommandHandlers<A>): Promise<void> {
  const fail = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      console.error(`${(error as Error).message}\n\n${usage}`);
      process.exitCode = 2;
    } else if (
      error instanceof CommandError ||
      error instanceof ApiError ||
      error instanceof DomainError ||
      error instanceof DatabaseInUseError
    ) {
      console.error(`error: ${error.message}`);
      process.exitCode = 1;
    } else if (error instanceof Error && error.message.startsWith('Invalid configuration')) {
      console.error(`error: ${error.message}`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  };

  let args: A;
  let config: Config;
  try {
    args = parse();
    config = getConfig();
  } catch (error) {
    return fail(error);
  }

  const portal = handlers.api && process.env.PORTAL_URL;
  if (portal && handlers.api) {
    const token = operatorToken(config);
    if (!token) return fail(new CommandError('PORTAL_URL is set but there is no operator token: set OPERATOR_TOKEN'));
    return handlers.api(operatorApi(portal, token), args, config).catch(fail);
  }

  let database: Database | undefined;
  try {
    database = await openPortalDatabase(config);
  } catch (error) {
    const token = error instanceof DatabaseInUseError && handlers.api ? operatorToken(config) : undefined;
    if (!token || !handlers.api) return fail(error);
    const base = config.SITE_URL ?? `http://localhost:${config.PORT}`;
    console.error(`(the database is in use by the portal server: going through its operator API at ${base})`);
    return handlers.api(operatorApi(base, token), args, config).catch(fail);
  }
  try {
    await handlers.db(database, args, config);
  } catch (error) {
    fail(error);
  } finally {
    await database.close();
  }
}

/** A plain-text table: one header row, columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A time as `yyyy-MM-dd HH:mm` in the configured zone. */
export const localTime = (date: Date | string | null | undefined, timeZone: string) =>
  date ? new Date(date).toLocaleString('sv-SE', { timeZone }).slice(0, 16) : '';
