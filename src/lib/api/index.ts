import { endpoints } from './endpoints';
import type { RequestFn, Transport } from './transport';

/*
 * The one API client (DESIGN §1, spec §7–§8, decision 043), used by SSR pages and islands alike:
 * one typed function per endpoint (endpoints.ts, admin-endpoints.ts: `api.orders.get(id)`,
 * `api.registrations.create(slug, body)`, `api.files.upload(file, { purpose, onProgress })`) over
 * one transport (transport.ts: ofetch with an injectable fetch). The browser binds it in
 * @lib/api.client, the SSR pages in @lib/embedded-api.server.
 */

export { ApiError, alertText, apiMessage, toApiError, TRANSLATED_ALERT_CODES } from './errors';
export { API_BASE, apiHref, type Endpoints, type RegistrationBody } from './endpoints';
export type { AdminEndpoints, AdminOrderAction } from './admin-endpoints';
export type { ApiClient } from './client';
export {
  createTransport,
  handOverData,
  HANDED_OVER,
  IDEMPOTENT,
  RETRY_STATUS_CODES,
  type ApiClientOptions,
  type FetchFn,
  type RequestFn,
  type Transport,
  type UploadOptions,
  type UploadProgress,
} from './transport';

/**
 * The generic methods by method and path, kept while the wizard and back-office islands move to
 * the typed functions (decision 043): new code calls the functions of `endpoints`.
 */
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

/** The registrants' client over a transport: the typed endpoints, and the generic methods. */
export const publicClientOver = (transport: Transport) => ({ ...clientOf(transport.request), ...endpoints(transport) });
