/**
 * What an unexpected error may write to the log: its class, codes and the names of the database
 * objects involved, and its stack frames, but never its message. Messages embed data: a failed
 * query's message holds the SQL parameters (names, phones, e-mails), a PostgreSQL error's
 * `detail` the duplicate key's value, V8's JSON.parse error a snippet of the input. Frames name
 * only code. Pure, so the API, the workers and the pages' error handling share it.
 */
export type ErrorSummary = {
  /** The error's class (`DrizzleQueryError`), then each cause's (`DatabaseError`). */
  errorClass: string;
  causes?: string[];
  /** A machine code from the error or a cause: SQLSTATE (`23505`), Node's (`ECONNREFUSED`). */
  code?: string;
  /** PostgreSQL's names of the objects involved (identifiers, not values). */
  constraint?: string;
  table?: string;
  column?: string;
  /** The stack frames (`at …` lines) of the error, without its message line. */
  stack?: string;
  /** The message of an error its thrower marked `expose: true` (it holds no data: a setup problem). */
  message?: string;
};

/** Whether an error's message was written to be read (`expose: true`): it names no values. */
const exposed = (error: unknown): error is Error =>
  error instanceof Error && (error as Error & { expose?: unknown }).expose === true;

const CODE = /^[A-Za-z0-9_]{1,40}$/;
const IDENTIFIER = /^[A-Za-z0-9_.$]{1,128}$/;
const MAX_FRAMES = 12;

const classOf = (value: unknown): string => {
  if (value instanceof Error) {
    const name = value.constructor?.name && value.constructor.name !== 'Error' ? value.constructor.name : value.name;
    return IDENTIFIER.test(name) ? name : 'Error';
  }
  return value === null ? 'null' : typeof value;
};

const field = (value: unknown, key: string, pattern: RegExp): string | undefined => {
  if (!value || typeof value !== 'object') return undefined;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' && pattern.test(v) ? v : typeof v === 'number' ? String(v) : undefined;
};

/** The `at …` lines of a stack: the message (first lines, possibly several) left out. */
export function stackFrames(error: unknown): string | undefined {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : undefined;
  if (!stack) return undefined;
  const frames = stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES);
  return frames.length ? frames.join('\n') : undefined;
}

/** The loggable summary of `error` (see the module comment): no message, no values. */
export function errorSummary(error: unknown): ErrorSummary {
  const chain: unknown[] = [];
  for (let e: unknown = error, i = 0; e !== undefined && e !== null && i < 5; i++) {
    chain.push(e);
    e = e instanceof Error ? e.cause : undefined;
  }
  const summary: ErrorSummary = { errorClass: classOf(error) };
  if (chain.length > 1) summary.causes = chain.slice(1).map(classOf);
  for (const e of chain) {
    summary.code ??= field(e, 'code', CODE);
    summary.constraint ??= field(e, 'constraint', IDENTIFIER);
    summary.table ??= field(e, 'table', IDENTIFIER);
    summary.column ??= field(e, 'column', IDENTIFIER);
  }
  const stack = stackFrames(error);
  if (stack) summary.stack = stack;
  if (exposed(error)) summary.message = error.message;
  return summary;
}

/**
 * An Error that stands in for `error` where something else logs it (Astro's renderer logs the
 * stack of a page error, the 500 page receives it): same class name, a message that only names
 * the codes, the original frames.
 */
export function withheldError(error: unknown): Error {
  const summary = errorSummary(error);
  const codes = [summary.code && `code ${summary.code}`, summary.constraint && `constraint ${summary.constraint}`]
    .filter(Boolean)
    .join(', ');
  const safe = new Error(summary.message ?? `message withheld from the log${codes ? ` (${codes})` : ''}`);
  safe.name = summary.errorClass;
  // The codes travel along (the 500 page logs them through errorSummary).
  for (const key of ['code', 'constraint', 'table', 'column'] as const)
    if (summary[key]) Object.assign(safe, { [key]: summary[key] });
  safe.stack = `${safe.name}: ${safe.message}${summary.stack ? `\n${summary.stack}` : ''}`;
  return safe;
}
