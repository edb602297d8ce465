import { createFetch, type FetchOptions } from 'ofetch';
import { camelize, snakeize } from '@domain/case';
import { ApiError, errorOfAnswer, toApiError } from './errors';

/*
 * The client's one transport (decision 043): ofetch over an injectable fetch. In the browser the
 * page's own fetch (same origin, Bearer token or the session cookie); in the SSR pages the
 * in-process fetch of the embedded API (decision 024), which may hand a success's data over
 * without JSON in between (HANDED_OVER). Base URL, Bearer token, Accept-Language, 10 s timeout,
 * up to 2 retries of idempotent methods, camelCase in code and snake_case on the wire, and every
 * failure as an ApiError `{status, code, message, data}`.
 */

export const RETRY_STATUS_CODES = [408, 413, 429, 500, 502, 503, 504];
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * A Response an injected fetch answered with the data already as the client would have parsed it
 * (camelCase, dates as text): its body is empty and the data rides on this property.
 */
export const HANDED_OVER = Symbol.for('portal.api.handedOver');
export type HandedOverResponse = Response & { [HANDED_OVER]?: { data: unknown } };

/** Marks `response` as carrying `data` (the in-process fetch). */
export function handOverData(response: Response, data: unknown): Response {
  Object.defineProperty(response, HANDED_OVER, { value: { data } });
  return response;
}

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export type ApiClientOptions = {
  baseURL?: string | undefined;
  token?: string | null | undefined;
  locale?: string | undefined;
  /** Replaces the network (SSR in-process calls, tests). */
  fetch?: FetchFn;
  timeoutMs?: number;
  /** Called on any 401 (the browser clears the stored token and cookie). */
  onUnauthorized?: () => void;
};

/** A request of the transport: method, path, query (camelCase) and body (camelCase or FormData). */
export type RequestInit_ = { query?: Record<string, unknown> | undefined; body?: unknown };
export type RequestFn = <T>(method: string, path: string, init?: RequestInit_) => Promise<T>;

/** Upload progress: bytes sent of the whole request. */
export type UploadProgress = { loaded: number; total: number; percent: number };
export type UploadOptions = {
  onProgress?: ((progress: UploadProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
};
export type UploadFn = <T>(path: string, form: FormData, options?: UploadOptions) => Promise<T>;

export type Transport = { request: RequestFn; upload: UploadFn };

/** The typed endpoints' shorthands over a transport's request: GET with a query, POST and PUT with a body. */
export const verbs = (request: RequestFn) => ({
  get: <T>(path: string, query?: Record<string, unknown>) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown, query?: Record<string, unknown>) => request<T>('POST', path, { body, query }),
  put: <T>(path: string, body?: unknown, query?: Record<string, unknown>) => request<T>('PUT', path, { body, query }),
});

const wireQuery = (query: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(snakeize<Record<string, unknown>>(query)).filter(([, v]) => v !== undefined && v !== null),
  );

/** The transport of one token and locale. */
export function createTransport(options: ApiClientOptions = {}): Transport {
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

  async function request<T>(method: string, path: string, init: RequestInit_ = {}): Promise<T> {
    const upper = method.toUpperCase();
    const opts: FetchOptions<'json'> = { method: upper, retry: IDEMPOTENT.has(upper) ? 2 : 0 };
    if (init.query) opts.query = wireQuery(init.query);
    if (init.body !== undefined) opts.body = init.body instanceof FormData ? init.body : snakeize(init.body);
    try {
      const response: HandedOverResponse & { _data?: unknown } = await $fetch.raw<unknown>(path, opts);
      const handed = response[HANDED_OVER];
      return handed ? (handed.data as T) : camelize<T>(response._data);
    } catch (error) {
      throw toApiError(error);
    }
  }

  /**
   * A multipart upload that reports its progress. fetch cannot report how much of a request body
   * has been sent (decision 044), so in a browser this one request goes through XMLHttpRequest,
   * with the same headers, the same 401 rule and the same errors; without XMLHttpRequest (SSR,
   * tests) it is a plain request of the transport, reporting 100 % once done.
   */
  async function upload<T>(path: string, form: FormData, up: UploadOptions = {}): Promise<T> {
    if (typeof XMLHttpRequest === 'undefined') {
      const body = await request<T>('POST', path, { body: form });
      up.onProgress?.({ loaded: 1, total: 1, percent: 100 });
      return body;
    }
    return new Promise<T>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${options.baseURL ?? ''}${path}`);
      xhr.timeout = 0;
      if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
      if (options.locale) xhr.setRequestHeader('accept-language', options.locale);
      xhr.setRequestHeader('accept', 'application/json');
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable)
          up.onProgress?.({ loaded: e.loaded, total: e.total, percent: Math.round((e.loaded / e.total) * 100) });
      };
      const abort = () => xhr.abort();
      up.signal?.addEventListener('abort', abort, { once: true });
      xhr.onload = () => {
        up.signal?.removeEventListener('abort', abort);
        let body: unknown = undefined;
        try {
          body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
        } catch {
          // not JSON: the status alone
        }
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve(camelize<T>(body));
          return;
        }
        if (xhr.status === 401) options.onUnauthorized?.();
        reject(errorOfAnswer(xhr.status, body, xhr.statusText, `[POST] ${path}: ${xhr.status}`));
      };
      xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The request failed', {}, '', `[POST] ${path}`));
      xhr.onabort = () => reject(new ApiError(0, 'aborted', 'The request was aborted', {}, '', `[POST] ${path}`));
      xhr.send(form);
    });
  }

  return { request, upload };
}
