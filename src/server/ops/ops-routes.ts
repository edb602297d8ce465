import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { withinBudget } from './within-budget';
import { databaseHealth, shippedMigration, type Db } from '../db/client';
import type { FileStorage } from '../files/storage';
import { registry, scrape } from './metrics';

/*
 * The operations endpoints at the site root (decision 040), for load balancers and Prometheus:
 * - GET /healthz: liveness; the process answers, nothing else is touched.
 * - GET /readyz: readiness; the database answers a trivial query within a short budget on a
 *   connection of its own, its migrations are those this code ships, and upload storage answers
 *   (the S3 bucket, or a writable upload folder). 503 with a JSON body naming what is not ready.
 * - GET /metrics: the Prometheus text format; with METRICS_TOKEN set, only with that Bearer token.
 */

export type OpsOptions = {
  db: Db;
  /** Upload storage: checked when it can be (the bucket answers, the upload folder is writable). */
  storage: FileStorage;
  /** METRICS_TOKEN: /metrics answers only with `Authorization: Bearer <token>`; unset = open. */
  metricsToken?: string | undefined;
  /** How long one check of /readyz may take (2 s): the whole answer comes within it. */
  checkBudgetMs?: number;
};

type Check = { status: 'ok' | 'fail'; ms: number; error?: string };

/** Answers that must never be cached by a proxy in between. */
const NO_STORE = { 'cache-control': 'no-store' };

/** The liveness answer: the process runs its event loop, no dependency is asked. */
export const healthz = () => Response.json({ status: 'ok' }, { headers: NO_STORE });

/** Runs one readiness check within the budget, timing it; a failure says what, never a secret. */
async function timed(check: () => Promise<void>, budgetMs: number, what: string): Promise<Check> {
  const started = performance.now();
  try {
    await withinBudget(check(), budgetMs, what);
    return { status: 'ok', ms: Math.round(performance.now() - started) };
  } catch (error) {
    const message = String((error as Error)?.message ?? error)
      .replace(/\/\/[^@/\s]*@/g, '//')
      .slice(0, 200);
    return { status: 'fail', ms: Math.round(performance.now() - started), error: message };
  }
}

export function opsRoutes(options: OpsOptions) {
  const app = new Hono();
  const budgetMs = options.checkBudgetMs ?? 2_000;
  const shipped = shippedMigration();

  app.get('/healthz', () => healthz());

  app.get('/readyz', async () => {
    const health = databaseHealth(options.db);
    const database = async () => {
      if (!health) return;
      // Known to be away: say so at once (the availability probe keeps trying meanwhile).
      if (health.availability.down()) throw new Error('unavailable (requests are being answered 503)');
      const { latestMigration } = await health.probe();
      // Each instance migrates at its start: behind means the database was restored or replaced.
      if (latestMigration < shipped) throw new Error('migrations behind this code: restart an instance to apply them');
    };
    const checks: Record<string, Check> = {};
    const [db, storage] = await Promise.all([
      timed(database, budgetMs, 'the database'),
      options.storage.check ? timed(() => options.storage.check!(), budgetMs, 'object storage') : undefined,
    ]);
    checks.database = db;
    if (storage) checks.storage = storage;
    const ready = Object.values(checks).every((c) => c.status === 'ok');
    return Response.json(
      { status: ready ? 'ready' : 'not_ready', checks },
      { status: ready ? 200 : 503, headers: NO_STORE },
    );
  });

  const expected = options.metricsToken ? Buffer.from(`Bearer ${options.metricsToken}`) : undefined;
  app.get('/metrics', async (c) => {
    if (expected) {
      const given = Buffer.from(c.req.header('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return c.json(
          { code: 'unauthorized', message: 'Metrics token required', error: 'Metrics token required' },
          401,
          {
            'www-authenticate': 'Bearer realm="metrics"',
            ...NO_STORE,
          },
        );
      }
    }
    return new Response(await scrape(), {
      headers: { 'content-type': registry.contentType, ...NO_STORE },
    });
  });

  return app;
}
