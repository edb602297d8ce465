import { join } from 'node:path';
import { getConfig } from './config';
import { openDatabase, type Database } from './db/client';
import { seed } from './db/seed';
import { createServerApp } from './server-app';

type Runtime = { database: Database; app: Awaited<ReturnType<typeof createServerApp>>['app']; inProcessFetch: (input: string, init?: RequestInit) => Promise<Response> };

let pending: Promise<Runtime> | undefined;

/**
 * The process's database and server app, created once. The promise is cached (and cleared on
 * failure, so a transient error is retried by the next request); server.mjs warms it at start.
 */
export function getRuntime(): Promise<Runtime> {
  pending ??= (async () => {
    const config = getConfig();
    const database = await openDatabase({ url: config.DATABASE_URL, dataDir: join(config.dataDir, 'pglite') });
    if (config.SEED) await seed(database.db);
    const { app, inProcessFetch } = await createServerApp({
      db: database.db,
      config,
      devIdentityKeyFile: join(config.dataDir, 'dev-identity-key.json'),
    });
    return { database, app, inProcessFetch };
  })().catch((error) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
