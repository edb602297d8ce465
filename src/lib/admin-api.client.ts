import { publicClientOver } from './api';
import { adminEndpoints } from './api/admin-endpoints';
import { browserTransport } from './api.client';

/**
 * The API client in a back-office island: the registrants' endpoints and the back office's
 * (`admin`), over the same transport as @lib/api.client. Only back-office islands import this
 * module, so that the admin endpoints never land in a chunk the registrants' pages load
 * (DESIGN §4 budget, decision 062).
 */
export function browserApi(locale: string, homePath: string) {
  const transport = browserTransport(locale, homePath);
  return { ...publicClientOver(transport), admin: adminEndpoints(transport) };
}
