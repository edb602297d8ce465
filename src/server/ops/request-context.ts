import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/*
 * The request a piece of work belongs to (decision 040): its id, set once where the request
 * enters the process (the pages' middleware, or the API for a caller that reaches it without
 * the pages) and read by every log line written while it is served, however deep the call.
 * The SSR pages' in-process API calls run inside their page's request: one id for both.
 */

type RequestContext = { requestId: string; memo?: Map<string, unknown> };

const storage = new AsyncLocalStorage<RequestContext>();

/** An id a proxy or client may send in X-Request-Id: printable, no spaces, 8–128 characters. */
const ACCEPTED = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request id to use: the one sent in X-Request-Id when it is plausible, else a fresh UUID. */
export function requestIdFrom(header: string | null | undefined): string {
  return header && ACCEPTED.test(header) ? header : randomUUID();
}

/** Runs `fn` as part of the request `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/**
 * What one request may compute once and reuse, for the rest of that request only (none outside a
 * request): a page's in-process API calls each authenticate the same credential (decision 060).
 */
export function requestMemo(): Map<string, unknown> | undefined {
  const context = storage.getStore();
  if (!context) return undefined;
  return (context.memo ??= new Map());
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
