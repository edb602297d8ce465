import { getRuntime } from '@server/runtime';
import { createApiClient, type ApiClient } from './api';
import { portalConfig } from './portal-config.server';

/**
 * The API client for SSR pages, bound to the request's token and locale. With no API_BASE_URL
 * the embedded registration API is called in-process (same routes, no socket).
 */
export async function serverApi(locals: App.Locals): Promise<ApiClient> {
  const config = portalConfig();
  if (config.apiBaseUrl) {
    return createApiClient({
      baseURL: config.apiBaseUrl,
      token: locals.token,
      locale: locals.locale,
      timeoutMs: config.requestTimeoutMs,
    });
  }
  const { inProcessFetch } = await getRuntime();
  return createApiClient({
    baseURL: 'http://embedded.invalid',
    token: locals.token,
    locale: locals.locale,
    fetch: inProcessFetch,
    timeoutMs: config.requestTimeoutMs,
  });
}
