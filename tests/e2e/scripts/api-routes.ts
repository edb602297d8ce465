// Prints the registration API's routes as JSON (`[{method, path}]`), from the Hono app itself:
// tests/e2e/abuse.spec.ts checks every one that changes state (run with `npx tsx`, which loads the
// server's modules as the server does).
import { createApi } from '@server/api/app';
import { parseConfig } from '@server/config';
import { memoryStorage } from '@server/files/storage';

const api = createApi({
  // Building the routes touches none of these.
  db: {} as never,
  identity: {} as never,
  content: {} as never,
  config: parseConfig({}),
  storage: memoryStorage(),
  gateway: { keys: { merchantId: 'MS', hashKey: 'k'.repeat(32), hashIv: 'i'.repeat(16) }, url: () => '' },
  log: () => {},
});
process.stdout.write(JSON.stringify(api.routes.map((r) => ({ method: r.method, path: r.path }))));
