/** Whether an error (possibly wrapped by Drizzle) is a unique violation, optionally of one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (
    let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === '23505') return !constraint || e.constraint === constraint || String(e).includes(constraint);
  }
  return false;
}

/** Whether an error (possibly wrapped by Drizzle) is a CHECK violation, optionally of one constraint. */
export function isCheckViolation(error: unknown, constraint?: string): boolean {
  for (
    let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === '23514') return !constraint || e.constraint === constraint || String(e).includes(constraint);
  }
  return false;
}
