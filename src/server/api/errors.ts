import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorCode } from '@domain/errors';

/** An error of the HTTP layer itself (validation, body, auth), answered with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Headers the answer carries (Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found`);
export const unauthorized = (message = 'Sign-in required') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'This is for the organisers only') => new ApiError(403, 'forbidden', message);
export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new ApiError(400, code, message, details);
/** 429: too many requests in a window, with the seconds until it ends as Retry-After. */
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', `Too many requests; please try again in ${retryAfterSeconds} seconds`, undefined, {
    'retry-after': String(retryAfterSeconds),
  });

/**
 * The one table from a domain refusal to its HTTP status. 400: the request can never succeed as
 * sent (spec §8 codes); 403/404: whose and what; 409: the order's state does not allow it now.
 */
export const DOMAIN_ERROR_STATUS: Record<DomainErrorCode, ContentfulStatusCode> = {
  not_found: 404,
  event_type_not_supported: 400,
  invalid_registration_type: 400,
  registration_not_open: 400,
  registration_closed: 400,
  demonstration_invalid: 400,
  event_capacity_full: 400,
  invalid_photo: 400,
  reason_required: 400,
  currency_unavailable: 400,
  work_not_found: 400,
  link_expired: 404,
  link_not_for_user: 403,
  link_used: 409,
  demonstration_exists: 409,
  order_paid: 409,
  order_closed: 409,
  form_modify_expired: 409,
  payment_type_locked: 409,
  order_not_payable: 409,
  order_superseded: 409,
  not_approved: 409,
  not_awaiting_approval: 409,
  already_approved: 409,
  order_not_rejectable: 409,
  order_not_cancelable: 409,
  order_state_changed: 409,
  not_refund_due: 409,
  not_refundable: 409,
  refund_exceeds_balance: 409,
  partial_refund_unsettled: 409,
  refund_in_progress: 409,
  refund_refused: 409,
  gateway_unavailable: 503,
  atm_over_limit: 409,
  invalid_market_identity: 400,
  invalid_country: 400,
  invalid_logo: 400,
  content_site_unavailable: 503,
  no_registration_form: 400,
  '1': 400,
  pitching_work_limit: 400,
  invalid_email: 400,
  mixed_work_genres: 400,
  one_work_per_story: 400,
  invalid_upload: 400,
  link_revoked: 410,
  link_past_edition: 410,
  event_changed: 409,
  event_status_conflict: 409,
  event_has_orders: 409,
  edition_changed: 409,
  no_current_edition: 409,
  not_checking: 409,
  amount_mismatch: 409,
  line_not_open: 409,
  service_unavailable: 503,
  invalid_purpose: 400,
  empty_file: 400,
  file_too_large: 400,
  unsupported_file_type: 400,
  upload_quota_exceeded: 429,
  storage_unavailable: 503,
  insufficient_storage: 507,
  identity_unavailable: 503,
  slot_taken: 409,
  meeting_limit: 429,
  meeting_state: 409,
  cancel_cutoff: 409,
  person_busy: 409,
  no_table_free: 409,
  own_exhibitor: 400,
  party_busy: 409,
  table_taken: 409,
};

/** A domain refusal as the API's error. */
export const fromDomain = (error: DomainError) =>
  new ApiError(
    DOMAIN_ERROR_STATUS[error.code],
    error.code,
    error.message,
    error.details,
    error.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(error.retryAfterSeconds) },
  );

/** The error body of the wire format. */
export function errorBody(error: ApiError) {
  return { code: error.code, message: error.message, error: error.message, ...(error.details ?? {}) };
}
