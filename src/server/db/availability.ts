import { withinBudget } from '../ops/within-budget';
import { isDatabaseUnavailable } from './db-errors';

/*
 * Failing fast while the database is away (decision 041). The database becomes suspect when a
 * request meets a connection-level failure (isDatabaseUnavailable), or when a query has waited
 * longer than `stallMs` for its answer (a server gone silent answers nothing, refuses nothing).
 * A probe on a connection of its own then decides: while it fails, the queries still waiting
 * are failed (`onDown`: their connections dropped) and every request that needs the database is
 * answered 503 at once instead of waiting out its own timeouts; the probe repeats until the
 * database answers again, when everything goes on by itself. A lost connection or a slow query
 * on a healthy server costs one probe (milliseconds), never an outage.
 */

export type AvailabilityState = 'up' | 'suspect' | 'down';

export type AvailabilityOptions = {
  /** A trivial query on a connection outside the pool; rejects when the database does not answer. */
  probe: () => Promise<unknown>;
  /** A probe that has not answered within this long has failed (2 s). */
  probeBudgetMs?: number;
  /** Pause between probes while the database is down (1 s). */
  intervalMs?: number;
  /** When the oldest query still waiting for its answer was sent; undefined: none waits. */
  oldestQuery?: () => number | undefined;
  /** A query waiting this long makes the database suspect (2 s). */
  stallMs?: number;
  /** Called when a probe confirms the database is away: fail what still waits on it. */
  onDown?: () => void;
  log?: (level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;
};

export type DatabaseAvailability = {
  state(): AvailabilityState;
  /** True while a probe has confirmed the database does not answer: refuse at once. */
  down(): boolean;
  /**
   * Resolves once the state is known: at once when up or down, after the probe in flight when
   * suspect (a request arriving then waits for it instead of joining the stalled pool).
   */
  settled(): Promise<AvailabilityState>;
  /** Tells what a query failed with; a connection-level failure makes the database suspect. */
  report(error: unknown): void;
  /** Stops probing (the database is being closed). */
  stop(): void;
};

/** The availability of one database, driven by `report` and its probe. */
export function createAvailability(options: AvailabilityOptions): DatabaseAvailability {
  const intervalMs = options.intervalMs ?? 1000;
  const budgetMs = options.probeBudgetMs ?? 2000;
  const stallMs = options.stallMs ?? 2000;
  let state: AvailabilityState = 'up';
  let probing = false;
  let stopped = false;
  let downSince = 0;
  /** When a probe last found the database answering (a slow query then probes again after a while). */
  let answeredAt = 0;
  const waiting: ((state: AvailabilityState) => void)[] = [];

  const become = (next: AvailabilityState) => {
    state = next;
    if (next !== 'suspect') for (const resolve of waiting.splice(0)) resolve(next);
  };

  const probeLoop = async () => {
    for (;;) {
      try {
        await withinBudget(options.probe(), budgetMs, 'the database');
        if (state === 'down')
          options.log?.('warn', 'database available again', {
            dependency: 'database',
            downSeconds: Math.round((Date.now() - downSince) / 1000),
          });
        answeredAt = Date.now();
        become('up');
        return;
      } catch (error) {
        if (state !== 'down') {
          downSince = Date.now();
          options.log?.('error', 'database unavailable: answering 503 until it is back', {
            dependency: 'database',
            error: String((error as Error)?.message ?? error).slice(0, 200),
          });
          become('down');
          options.onDown?.();
        }
      }
      if (stopped) return;
      await new Promise((resolve) => setTimeout(resolve, intervalMs).unref());
      if (stopped) return;
    }
  };

  const suspect = () => {
    if (stopped || state !== 'up') return;
    become('suspect');
    if (probing) return;
    probing = true;
    void probeLoop().finally(() => {
      probing = false;
    });
  };

  // The watchdog: a query waiting past stallMs (not again within 5 s of a probe that answered,
  // so a long report does not probe on every tick).
  const watchdog = options.oldestQuery
    ? setInterval(
        () => {
          const oldest = options.oldestQuery!();
          if (oldest !== undefined && Date.now() - oldest > stallMs && Date.now() - answeredAt > 5_000) suspect();
        },
        Math.max(100, Math.min(500, stallMs / 4)),
      )
    : undefined;
  watchdog?.unref();

  return {
    state: () => state,
    down: () => state === 'down',
    settled: () =>
      state === 'suspect' ? new Promise<AvailabilityState>((resolve) => waiting.push(resolve)) : Promise.resolve(state),
    report(error) {
      if (isDatabaseUnavailable(error)) suspect();
    },
    stop() {
      stopped = true;
      clearInterval(watchdog);
      for (const resolve of waiting.splice(0)) resolve(state);
    },
  };
}
