/** Whether an error (possibly wrapped by Drizzle) has SQLSTATE `code`, optionally of one constraint or index. */
function isViolation(code: string, error: unknown, constraint?: string): boolean {
  for (
    let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === code) return !constraint || e.constraint === constraint || String(e).includes(constraint);
  }
  return false;
}

/** Whether an error (possibly wrapped by Drizzle) is a unique violation, optionally of one index. */
export const isUniqueViolation = (error: unknown, constraint?: string) => isViolation('23505', error, constraint);

/** Whether an error (possibly wrapped by Drizzle) is a CHECK violation, optionally of one constraint. */
export const isCheckViolation = (error: unknown, constraint?: string) => isViolation('23514', error, constraint);

/**
 * Whether an error means the database cannot be reached right now (down, restarting, a
 * connection cut): the request is answered 503 and may be retried, never 500 (decision 024).
 * SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, crash
 * recovery), and the socket, pool and timeout errors of the `pg` driver (a query the server did
 * not answer at all: decision 041).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(08...|57P0[1-4])$/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (
      /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|is not queryable|Query read timeout|^timeout expired$|the database system is (starting up|shutting down|in recovery)/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}

/** Whether the server cancelled a statement (SQLSTATE 57014: statement_timeout, or a cancel request). */
export function isStatementTimeout(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === '57014') return true;
  }
  return false;
}
