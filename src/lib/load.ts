import { ApiError } from './api';
import { pageLog } from './ops.server';

/*
 * Page loaders' outcomes (spec §8): a call's data, or what the page does instead (404, 401, or an
 * error page with the 5xx status and its reason phrase only).
 */

/** A loader call the API failed: the 5xx status the page answers with and its reason phrase. */
export type LoadFailure = { kind: 'error'; status: number; statusText: string };

export type LoadResult<T> = { kind: 'ok'; data: T } | { kind: 'not_found' } | { kind: 'unauthorized' } | LoadFailure;

const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * A failed API call as pages show it (spec §8 error page): the page answers with a 5xx status
 * (the API's own 500/503/504, 504 when the call timed out, 502 for anything else the page cannot
 * use) and only that status's standard phrase. The API's URL, its error text and the transport
 * error go to the log, never to the reader.
 */
export function loadFailure(error: ApiError): LoadFailure {
  const status = error.status in REASONS ? error.status : error.code === 'timeout' ? 504 : 502;
  pageLog()('error', 'API call failed', {
    status: error.status,
    code: error.code,
    error: error.message,
    ...(error.detail ? { detail: error.detail } : {}),
  });
  return { kind: 'error', status, statusText: REASONS[status]! };
}

/** Runs a loader call and sorts its outcome the way pages handle them (spec §8). */
export async function load<T>(call: () => Promise<T>): Promise<LoadResult<T>> {
  try {
    return { kind: 'ok', data: await call() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { kind: 'unauthorized' };
    if (error.status === 404) return { kind: 'not_found' };
    return loadFailure(error);
  }
}
