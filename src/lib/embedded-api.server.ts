import { getRuntime } from '@server/runtime';
import { createApiClient, type ApiClient } from './api';
import { createDirectApiClient } from './api-direct.server';
import { portalConfig } from './portal-config.server';

/**
 * The API client for SSR pages, bound to the request's token and locale. With no API_BASE_URL
 * the embedded registration API is called in-process (same routes, no socket, no JSON).
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
  // In-process: the registration API's own routes called directly, the answer's data handed
  // over without JSON in between (same contract as over HTTP; src/server/api/in-process.ts).
  const { inProcessCall } = await getRuntime();
  return createDirectApiClient({
    baseURL: 'http://embedded.invalid',
    token: locals.token,
    locale: locals.locale,
    call: inProcessCall,
    timeoutMs: config.requestTimeoutMs,
  });
}
