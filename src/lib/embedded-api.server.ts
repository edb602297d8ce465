import { getRuntime } from '@server/runtime';
import { ApiError, createApiClient, handOverData, type ApiClient, type FetchFn } from './api';
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

/** An in-process answer: the response and, for a JSON success, its data as the client parses it. */
export type InProcessCall = (request: Request) => Promise<{ response: Response; data?: unknown }>;

/**
 * The fetch of the SSR pages' in-process seam (decision 024, 043): the request goes to the
 * embedded API's routes, a success's data rides on the response (handOverData) instead of being
 * serialised and parsed, and the client's timeout (its abort signal) ends the wait.
 */
export function inProcessFetch(call: InProcessCall): FetchFn {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal;
    const answer = await (signal
      ? Promise.race([
          call(request),
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ])
      : call(request));
    return 'data' in answer ? handOverData(answer.response, answer.data) : answer.response;
  };
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
