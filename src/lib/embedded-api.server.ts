import { getConfig } from '@server/config';
import { getRuntime } from '@server/runtime';
import { createApiClient, type ApiClient } from './api';

/**
 * The API client for SSR pages, bound to the request's token and locale. With no API_BASE_URL
 * the embedded registration API is called in-process (same routes, no socket).
 */
export async function serverApi(locals: App.Locals): Promise<ApiClient> {
  const config = getConfig();
  if (config.API_BASE_URL) {
    return createApiClient({
      baseURL: config.API_BASE_URL,
      token: locals.token,
      locale: locals.locale,
      timeoutMs: config.REQUEST_TIMEOUT_MS,
    });
  }
  const { inProcessFetch } = await getRuntime();
  return createApiClient({
    baseURL: 'http://embedded.invalid',
    token: locals.token,
    locale: locals.locale,
    fetch: inProcessFetch,
    timeoutMs: config.REQUEST_TIMEOUT_MS,
  });
}
