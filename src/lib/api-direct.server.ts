import { camelize, snakeize } from '@domain/case';
import {
  ApiError,
  clientOf,
  IDEMPOTENT,
  RETRY_STATUS_CODES,
  toApiError,
  type ApiClient,
  type ApiClientOptions,
} from './api';

/** An in-process answer: the response and, for a JSON success, its data as the client parses it. */
export type DirectCall = (request: Request) => Promise<{ response: Response; data?: unknown }>;

/**
 * The API client of the SSR pages' in-process seam (decision 024): the same contract as
 * `createApiClient` (headers, snake_case query and body, timeout, up to 2 retries of idempotent
 * methods on the same statuses and on a failure without an answer, camelCase data, the same
 * ApiError), over `call` instead of ofetch and the network, so a JSON success arrives as data
 * without being serialised and parsed. Server-only: browsers never load it.
 */
export function createDirectApiClient(options: Omit<ApiClientOptions, 'fetch'> & { call: DirectCall }): ApiClient {
  const { call } = options;
  return clientOf(async function request<T>(
    rawMethod: string,
    path: string,
    init: { query?: Record<string, unknown>; body?: unknown } = {},
  ): Promise<T> {
    const method = rawMethod.toUpperCase();
    const url = new URL(path, options.baseURL || 'http://localhost');
    if (init.query) {
      for (const [k, v] of Object.entries(snakeize<Record<string, unknown>>(init.query)))
        if (v !== undefined && v !== null) url.searchParams.append(k, String(v));
    }
    const retries = IDEMPOTENT.has(method) ? 2 : 0;
    const timeoutMs = options.timeoutMs ?? 10_000;
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers({ accept: 'application/json' });
      if (options.token) headers.set('authorization', `Bearer ${options.token}`);
      if (options.locale) headers.set('accept-language', options.locale);
      let body: BodyInit | undefined;
      if (init.body instanceof FormData) body = init.body;
      else if (init.body !== undefined) {
        body = JSON.stringify(snakeize(init.body));
        headers.set('content-type', 'application/json');
      }
      const signal = AbortSignal.timeout(timeoutMs);
      let answer: { response: Response; data?: unknown };
      try {
        const req = new Request(url, { method, headers, ...(body !== undefined ? { body } : {}), signal });
        answer = await Promise.race([
          call(req),
          new Promise<never>((_, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ]);
      } catch (error) {
        if (attempt < retries) continue;
        throw toApiError(error);
      }
      const { response } = answer;
      if (response.ok) {
        if ('data' in answer) return answer.data as T;
        const text = await response.text();
        if (!(response.headers.get('content-type') ?? '').includes('json')) return text as T;
        try {
          return camelize<T>(text ? JSON.parse(text) : undefined);
        } catch (error) {
          throw toApiError(error);
        }
      }
      if (response.status === 401) options.onUnauthorized?.();
      if (attempt < retries && RETRY_STATUS_CODES.includes(response.status)) {
        await new Promise((r) => setTimeout(r, 300));
        continue;
      }
      let parsed: unknown = {};
      try {
        parsed = JSON.parse(await response.text());
      } catch {
        // not JSON: the status alone
      }
      const data = camelize<Record<string, unknown>>(parsed && typeof parsed === 'object' ? parsed : {});
      const status = response.status;
      throw new ApiError(
        status,
        typeof data.code === 'string' ? data.code : `http_${status}`,
        typeof data.message === 'string' ? data.message : `HTTP ${status}`,
        data,
        response.statusText,
        `[${method}] ${url.pathname}: ${status} ${response.statusText}`.trim(),
      );
    }
  } as Parameters<typeof clientOf>[0]);
}
