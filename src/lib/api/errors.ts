import { FetchError } from 'ofetch';
import { camelize } from '@domain/case';
import type { Messages, T } from '@i18n/t';

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

export const isTimeout = (error: unknown): boolean => {
  for (let e = error as { name?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++)
    if (e.name === 'TimeoutError') return true;
  return false;
};

/** An error answer (status and parsed body) as an ApiError: the body's code and message, else fixed ones. */
export function errorOfAnswer(status: number, body: unknown, statusText = '', detail = ''): ApiError {
  const data = camelize<Record<string, unknown>>(body && typeof body === 'object' ? body : {});
  return new ApiError(
    status,
    typeof data.code === 'string' ? data.code : `http_${status}`,
    typeof data.message === 'string' ? data.message : `HTTP ${status}`,
    data,
    statusText,
    detail,
  );
}

/**
 * The API's answer as an ApiError. Its message is the API's own (`message` of the error body) or,
 * without one, a fixed phrase: the transport's message names the URL and stays in `detail`.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const detail = String((error as Error)?.message ?? error);
  const status = error instanceof FetchError ? (error.statusCode ?? 0) : 0;
  if (error instanceof FetchError && status)
    return errorOfAnswer(status, error.data, error.statusMessage ?? '', detail);
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
