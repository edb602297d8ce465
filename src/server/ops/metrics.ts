import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import { databaseHealth } from '../db/client';
import { withinBudget } from './within-budget';

/*
 * The process's metrics in the Prometheus text format (decision 040), one registry per process:
 * Node's process metrics, HTTP request durations, business counters, and gauges read when
 * scraped (the outbox backlog, the database pool). Each instance counts what it did: sum the
 * counters over instances (`sum by (event_type) (rate(portal_orders_placed_total[5m]))`).
 */

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Seconds: from a cache hit of a page (a millisecond) to a page on a stalled dependency (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpDuration = new Histogram({
  name: 'portal_http_request_duration_seconds',
  help: 'Time to answer an HTTP request (pages and API), by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** A counter of this registry with one label. */
const counter = <L extends string>(name: string, help: string, label: L) =>
  new Counter<L>({ name, help, labelNames: [label] as const, registers: [registry] });

const ordersPlaced = counter(
  'portal_orders_placed_total',
  'Orders placed (registrations, badge applications and claims), by event type',
  'event_type',
);
const paymentsConfirmed = counter(
  'portal_payments_confirmed_total',
  'Orders that became paid (card, confirmed transfer, organiser), by event type',
  'event_type',
);
const rateLimitRefusals = counter(
  'portal_rate_limit_refusals_total',
  'Requests refused with 429 by a rate limit (decision 021), by bucket',
  'bucket',
);
const dependencyFailures = counter(
  'portal_dependency_unavailable_total',
  'Requests answered 503/507 because a dependency failed, by dependency (database, storage, identity)',
  'dependency',
);

/** What the scrape-time gauges read: the database of the running server app. */
let source: { db: Db } | undefined;

/** The database the backlog and pool gauges read (the server app's; the latest one wins). */
export function observeDatabase(db: Db) {
  source = { db };
}

/** Scrape-time reads of the database stop after this long (the rest of the page still answers). */
const SCRAPE_BUDGET_MS = 1_000;

type Backlog = { outbox: string; pending: number; oldest_seconds: number };

async function readBacklog(db: Db): Promise<Backlog[]> {
  // Two small counts over partial indexes (order_events_unprocessed_idx, the pending mails).
  const result = (await db.execute(sql`
    select 'order_events' as outbox, count(*)::int as pending,
           coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest_seconds
      from order_events where processed_at is null
    union all
    select 'emails', count(*)::int,
           coalesce(extract(epoch from now() - min(created_at)), 0)::float8
      from emails where status = 'pending'`)) as unknown as { rows: Backlog[] };
  return result.rows;
}

/** The outbox backlog read for the scrape in progress (scrape() reads it once for both gauges). */
let backlogSnapshot: Backlog[] = [];

/** A gauge per outbox of the backlog snapshot: `value` of each outbox's row. */
const backlogGauge = (name: string, help: string, value: (row: Backlog) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['outbox'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of backlogSnapshot) this.set({ outbox: row.outbox }, Number(value(row)));
    },
  });

backlogGauge(
  'portal_outbox_backlog',
  'Rows waiting in an outbox (order events not yet handled, e-mails not yet sent)',
  (row) => row.pending,
);
backlogGauge(
  'portal_outbox_oldest_age_seconds',
  'Age of the oldest row waiting in an outbox (0 when empty)',
  (row) => row.oldest_seconds,
);

new Gauge({
  name: 'portal_db_pool_connections',
  help: 'Connections of the PostgreSQL pool, by state (in_use, idle), and its size (max)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    const pool = source && databaseHealth(source.db)?.pool();
    if (!pool) return;
    this.set({ state: 'in_use' }, pool.total - pool.idle);
    this.set({ state: 'idle' }, pool.idle);
    this.set({ state: 'max' }, pool.size);
  },
});

new Gauge({
  name: 'portal_db_pool_waiting',
  help: 'Requests waiting for a connection of the PostgreSQL pool',
  registers: [registry],
  collect() {
    const pool = source && databaseHealth(source.db)?.pool();
    this.set(pool?.waiting ?? 0);
  },
});

new Gauge({
  name: 'portal_db_available',
  help: 'Whether requests may use the database (1), or are answered 503 at once while it is away (0)',
  registers: [registry],
  collect() {
    const health = source && databaseHealth(source.db);
    this.set(health?.availability.down() ? 0 : 1);
  },
});

/**
 * The metrics page: the database's figures read once (within SCRAPE_BUDGET_MS, none while it is
 * away: the rest of the page answers anyway), then every metric in the Prometheus text format.
 */
export async function scrape(): Promise<string> {
  const db = source?.db;
  backlogSnapshot =
    db && databaseHealth(db)?.availability.state() === 'up'
      ? await withinBudget(readBacklog(db), SCRAPE_BUDGET_MS, 'the database').catch(() => [])
      : [];
  return registry.metrics();
}

/** Requests answered by this process so far (answeredRequests). */
let answered = 0;

/** One answered HTTP request. `route` is a pattern (`/api/v1/orders/:orderId`), never a raw path. */
export function recordRequest(route: string, method: string, status: number, seconds: number) {
  answered += 1;
  httpDuration.observe({ route: route || 'unmatched', method, status: String(status) }, seconds);
}

/** Requests (pages and API) this process has answered since it started: the worker's measure of load. */
export const answeredRequests = () => answered;

/** An order event handled by the outbox worker: placements and payments count by event type. */
export function countOrderEvent(kind: string, eventType: string) {
  if (kind === 'placed') ordersPlaced.inc({ event_type: eventType });
  else if (kind === 'paid') paymentsConfirmed.inc({ event_type: eventType });
}

export function countRateLimitRefusal(bucket: string) {
  rateLimitRefusals.inc({ bucket });
}

export function countDependencyFailure(dependency: 'database' | 'storage' | 'identity') {
  dependencyFailures.inc({ dependency });
}
