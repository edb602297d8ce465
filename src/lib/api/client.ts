import { adminEndpoints } from './admin-endpoints';
import { publicClientOver } from './index';
import { createTransport, type ApiClientOptions, type Transport } from './transport';

/*
 * The whole API client, the back office's endpoints (`admin`) included: the SSR pages'
 * (@lib/embedded-api.server) and the tests'. The islands bind theirs in @lib/api.client
 * (registrants) and @lib/admin-api.client (back office). Apart from ./index.ts, which the
 * registrants' islands import, so that no import of theirs leads to the admin endpoints and the
 * islands' shared chunk does not carry them (DESIGN §4 budget, decision 062).
 */

/** The client over a transport: the typed endpoints, the back office's, and the generic methods. */
export const clientOver = (transport: Transport) => ({
  ...publicClientOver(transport),
  admin: adminEndpoints(transport),
});

/** Creates a client bound to one token and locale. */
export function createApiClient(options: ApiClientOptions = {}) {
  return clientOver(createTransport(options));
}

export type ApiClient = ReturnType<typeof clientOver>;
