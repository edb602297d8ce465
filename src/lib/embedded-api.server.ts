import { getRuntime } from '@server/runtime';
import { ApiError } from './api';
import { createApiClient, type ApiClient } from './api/client';
import { inProcessFetch } from './api/in-process';
import { portalConfig } from './portal-config.server';

/**
 * The API client for SSR pages, bound to the request's token and locale. With no API_BASE_URL
 * the embedded registration API is called in-process (same routes, no socket, no JSON).
 */
export async function serverApi(locals: Pick<App.Locals, 'token' | 'locale'>): Promise<ApiClient> {
  const config = portalConfig();
  if (config.apiBaseUrl) {
    return createApiClient({
      baseURL: config.apiBaseUrl,
      token: locals.token,
      locale: locals.locale,
      timeoutMs: config.requestTimeoutMs,
    });
  }
  // In-process: the registration API's own routes called through an injected fetch, the
  // answer's data handed over without JSON in between (same contract as over HTTP;
  // src/server/api/in-process.ts).
  const { inProcessCall } = await getRuntime();
  return createApiClient({
    baseURL: 'http://embedded.invalid',
    token: locals.token,
    locale: locals.locale,
    fetch: inProcessFetch(inProcessCall),
    timeoutMs: config.requestTimeoutMs,
  });
}

/**
 * OIDC mode: a fresh credential for the session of `token`, which slides the session forward
 * (decision 019). `ended` when the session is over (revoked, expired); `unavailable` when the API
 * could not say (the old credential then stays in use).
 */
export async function refreshSession(
  locals: Pick<App.Locals, 'token' | 'locale'>,
): Promise<{ token: string; expiresAt: string } | 'ended' | 'unavailable'> {
  try {
    const api = await serverApi(locals);
    const { data } = await api.user.refreshSession();
    return data;
  } catch (error) {
    return error instanceof ApiError && error.status === 401 ? 'ended' : 'unavailable';
  }
}

/**
 * Log out: ends the session behind the request's credential for good (OIDC mode; a no-op
 * otherwise). Answers where to send the browser next when the identity provider's session should
 * end too (RP-initiated logout, decision 041), else undefined.
 */
export async function endSession(locals: Pick<App.Locals, 'token' | 'locale'>): Promise<string | undefined> {
  if (!locals.token) return undefined;
  try {
    const api = await serverApi(locals);
    const { data } = await api.user.endSession();
    return data.endSessionUrl ?? undefined;
  } catch {
    // The cookie goes anyway; a session the API could not end runs out on its own.
    return undefined;
  }
}
