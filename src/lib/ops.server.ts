import { getConfig } from '@server/config';
import { consoleLog, withRequestIds, type Log } from '@server/ops/log';
import { recordRequest } from '@server/ops/metrics';
import { requestIdFrom, withRequestId } from '@server/ops/request-context';

/*
 * What the pages' server side needs of operations (decision 040): the request id of each
 * request, the log that names it on every line, and the request's duration in the metrics.
 */

let log: Log | undefined;
/** The server's log (JSON lines, LOG_LEVEL), each line naming the request being served. */
export function pageLog(): Log {
  log ??= withRequestIds(consoleLog(getConfig().LOG_LEVEL));
  return log;
}

/**
 * Serves a request as `requestId` (from X-Request-Id when plausible, else new): everything `fn`
 * does, the in-process API calls of its page included, logs that id.
 */
export function servingRequest<T>(requestIdHeader: string | null, fn: (requestId: string) => Promise<T>): Promise<T> {
  const requestId = requestIdFrom(requestIdHeader);
  return withRequestId(requestId, () => fn(requestId));
}

/** One answered page (or endpoint other than the API, which records its own), by route pattern. */
export function recordPageRequest(routePattern: string, method: string, status: number, seconds: number): void {
  recordRequest(routePattern, method, status, seconds);
}
