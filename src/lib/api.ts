import { createFetch, FetchError, type FetchOptions } from 'ofetch';
import { camelize, snakeize } from '@domain/case';
import type { Messages, T } from '@i18n/t';

/*
 * The one API client (DESIGN §1, spec §7–§8), used by SSR pages and islands alike: base URL from
 * configuration, Bearer token, 10 s timeout, up to 2 retries on idempotent methods, camelCase in
 * code and snake_case on the wire, and errors as `{status, code, message, data}`.
 */

export const RETRY_STATUS_CODES = [408, 413, 429, 500, 502, 503, 504];
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** An HTTP error of the API, as spec §8 describes it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The parsed (camelCased) error body. */
    readonly data: Record<string, unknown>,
    readonly statusText = '',
    /**
     * What went wrong below the API's answer (the request's URL, the network error), for the log
     * only: it can name internal hosts (API_BASE_URL), so it is never shown to the reader.
     */
    readonly detail = '',
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** The body's `error` text, for the '[{status}] {error}' alert. */
  get error(): string {
    return typeof this.data.error === 'string' ? this.data.error : this.message;
  }
}

export type ApiClientOptions = {
  baseURL?: string | undefined;
  token?: string | null | undefined;
  locale?: string | undefined;
  /** Replaces the network (SSR in-process calls, tests). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  timeoutMs?: number;
  /** Called on any 401 (the browser clears the stored token and cookie). */
  onUnauthorized?: () => void;
};

const isTimeout = (error: unknown): boolean => {
  for (let e = error as { name?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++)
    if (e.name === 'TimeoutError') return true;
  return false;
};

/**
 * The API's answer as an ApiError. Its message is the API's own (`message` of the error body) or,
 * without one, a fixed phrase: the transport's message names the URL and stays in `detail`.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const detail = String((error as Error)?.message ?? error);
  if (error instanceof FetchError) {
    const status = error.statusCode ?? 0;
    const data = camelize<Record<string, unknown>>(error.data && typeof error.data === 'object' ? error.data : {});
    const timeout = !status && isTimeout(error);
    const code =
      typeof data.code === 'string' ? data.code : status ? `http_${status}` : timeout ? 'timeout' : 'network_error';
    const message =
      typeof data.message === 'string'
        ? data.message
        : status
          ? `HTTP ${status}`
          : timeout
            ? 'The request timed out'
            : 'The request failed';
    return new ApiError(status, code, message, data, error.statusMessage ?? '', detail);
  }
  const timeout = isTimeout(error);
  return new ApiError(
    0,
    timeout ? 'timeout' : 'network_error',
    timeout ? 'The request timed out' : 'The request failed',
    {},
    '',
    detail,
  );
}

/**
 * Codes a user meets by going too fast (decision 021): the generic alert says what happened in
 * their language (`apiError.<code>`; pickMessages gives every island these messages).
 */
export const TRANSLATED_ALERT_CODES = ['rate_limited', 'upload_quota_exceeded'];

/** The generic alert's text: spec §8's `[{status}] {error}`, translated for TRANSLATED_ALERT_CODES. */
export function alertText(error: ApiError, t: T): string {
  return TRANSLATED_ALERT_CODES.includes(error.code) ? t(`apiError.${error.code}`) : `[${error.status}] ${error.error}`;
}

/**
 * The back office's text for a refusal: the message of its code in the page's language when the
 * catalogue has one (`apiError.<code>`), else the API's own message.
 */
export function apiMessage(
  messages: Messages,
  refusal: { code?: string | undefined; message?: string | null | undefined },
): string {
  return (refusal.code ? messages[`apiError.${refusal.code}`] : undefined) ?? refusal.message ?? '';
}

/** Creates a client bound to one token and locale. */
export function createApiClient(options: ApiClientOptions = {}) {
  const $fetch = createFetch({
    ...(options.fetch ? { fetch: options.fetch as typeof globalThis.fetch } : {}),
    Headers: globalThis.Headers,
    AbortController: globalThis.AbortController,
  }).create({
    baseURL: options.baseURL ?? '',
    timeout: options.timeoutMs ?? 10_000,
    retryStatusCodes: RETRY_STATUS_CODES,
    retryDelay: 300,
    onRequest({ options: o }) {
      const headers = new Headers(o.headers);
      if (options.token) headers.set('authorization', `Bearer ${options.token}`);
      if (options.locale) headers.set('accept-language', options.locale);
      headers.set('accept', 'application/json');
      o.headers = headers;
    },
    onResponseError({ response }) {
      if (response.status === 401) options.onUnauthorized?.();
    },
  });

  async function request<T>(
    method: string,
    path: string,
    init: { query?: Record<string, unknown>; body?: unknown } = {},
  ): Promise<T> {
    const upper = method.toUpperCase();
    const opts: FetchOptions<'json'> = {
      method: upper,
      retry: IDEMPOTENT.has(upper) ? 2 : 0,
    };
    if (init.query) {
      opts.query = Object.fromEntries(
        Object.entries(snakeize<Record<string, unknown>>(init.query)).filter(([, v]) => v !== undefined && v !== null),
      );
    }
    if (init.body !== undefined) opts.body = init.body instanceof FormData ? init.body : snakeize(init.body);
    try {
      const body = await $fetch<unknown>(path, opts);
      return camelize<T>(body);
    } catch (error) {
      throw toApiError(error);
    }
  }

  return clientOf(request);
}

/** A request function of the client, by method, path, query and body. */
export type RequestFn = <T>(
  method: string,
  path: string,
  init?: { query?: Record<string, unknown>; body?: unknown },
) => Promise<T>;

/** The client's methods over one request function (the network one above, or the in-process one). */
export function clientOf(request: RequestFn) {
  return {
    get: <T>(path: string, query?: Record<string, unknown>) => request<T>('GET', path, query ? { query } : {}),
    post: <T>(path: string, body?: unknown, query?: Record<string, unknown>) =>
      request<T>('POST', path, { body, ...(query ? { query } : {}) }),
    put: <T>(path: string, body?: unknown, query?: Record<string, unknown>) =>
      request<T>('PUT', path, { body, ...(query ? { query } : {}) }),
    patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body }),
    delete: <T>(path: string) => request<T>('DELETE', path),
  };
}

export type ApiClient = ReturnType<typeof clientOf>;
