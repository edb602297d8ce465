import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** An error the API answers with its status and the body `{code, message, error}`. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found`);
export const unauthorized = (message = 'Sign-in required') => new ApiError(401, 'unauthorized', message);
export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new ApiError(400, code, message, details);

/** The error body of the wire format. */
export function errorBody(error: ApiError) {
  return { code: error.code, message: error.message, error: error.message, ...(error.details ?? {}) };
}
