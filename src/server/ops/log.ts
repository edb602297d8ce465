import { currentRequestId } from './request-context';

/*
 * The log: one JSON object per line on the console, `{level, message, requestId?, ...data}`.
 * Every line written while a request is served names that request (request-context.ts), so an
 * operator finds all lines of the request a client reports by the X-Request-Id it was answered.
 */

export const LOG_LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = Exclude<keyof typeof LOG_LEVELS, 'silent'>;
export type Log = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

/** JSON lines on the console at or above `level` (LOG_LEVEL). */
export function consoleLog(level: keyof typeof LOG_LEVELS): Log {
  return (at, message, data) => {
    if (LOG_LEVELS[at] >= LOG_LEVELS[level]) console[at](JSON.stringify({ level: at, message, ...data }));
  };
}

/** `log`, each line written during a request carrying that request's id (unless it names one). */
export function withRequestIds<L extends LogLevel>(
  log: (level: L, message: string, data?: Record<string, unknown>) => void,
): typeof log {
  return (level, message, data) => {
    const requestId = currentRequestId();
    log(level, message, requestId && data?.requestId === undefined ? { requestId, ...data } : data);
  };
}
