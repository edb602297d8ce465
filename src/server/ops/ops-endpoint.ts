import { getRuntime } from '../runtime';
import { healthz } from './ops-routes';
import { withinBudget } from './within-budget';

/** How long a probe waits for a starting instance (its database opened and migrated). */
const START_BUDGET_MS = 4_000;

/**
 * /healthz, /readyz and /metrics as the pages' server answers them (decision 040): liveness
 * without touching anything; the others from the running server app's ops routes, or, while the
 * instance is still starting (or could not start), a 503 that says so.
 */
export async function opsEndpoint(request: Request): Promise<Response> {
  if (new URL(request.url).pathname === '/healthz') return healthz();
  let app;
  try {
    ({ app } = await withinBudget(getRuntime(), START_BUDGET_MS, 'the start-up'));
  } catch (error) {
    const message = String((error as Error)?.message ?? error).slice(0, 200);
    return Response.json(
      { status: 'not_ready', checks: { start: { status: 'fail', error: message } } },
      { status: 503, headers: { 'cache-control': 'no-store' } },
    );
  }
  return app.fetch(request);
}
