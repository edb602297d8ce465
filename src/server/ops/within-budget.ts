/**
 * `promise`, or a rejection once `ms` have passed without it settling: a dependency that does not
 * answer costs the caller at most `ms` (decision 041). The work itself goes on until its own
 * timeouts end it; its outcome is then ignored.
 */
export function withinBudget<T>(promise: Promise<T>, ms: number, what = 'the dependency'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  // A late rejection of the work is handled here, not left unhandled.
  promise.catch(() => {});
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
