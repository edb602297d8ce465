/**
 * Domain errors: what a rule refused, as a stable code with the spec's English wording and an
 * i18n key for the UI (`apiError.<code>`). Services throw them; the API maps each code to an
 * HTTP status in one table (src/server/api/errors.ts) and answers the spec's error body.
 */
export const DOMAIN_ERRORS = {
  not_found: 'Not found',
  event_type_not_supported: 'This event type cannot be registered',
  invalid_registration_type: 'This event does not take that registration type',
  registration_not_open: 'Event not yet open',
  registration_closed: 'Event registration has closed',
  demonstration_invalid: 'This event requires an exhibit badge; please buy a Professional badge first',
  event_capacity_full: 'This event is full. Please go back to the home page to register for other events.',
  demonstration_exists: 'One e-mail can apply for only one badge',
  invalid_photo: 'No personal photo selected',
  link_expired: 'This link has expired, please contact support',
  link_used: 'This link has already been used',
  link_not_for_user: 'This link was issued to another e-mail address',
  order_paid: 'A paid order cannot update remittance or invoice details',
  order_closed: 'This order is no longer open for payment',
  form_modify_expired: 'Order details can no longer be changed',
  payment_type_locked: 'A transfer awaiting confirmation cannot switch to card payment',
  currency_unavailable: 'This order cannot be paid in that currency',
  order_not_payable: 'This order cannot be paid',
  order_superseded: 'The owner has another live order or badge since this order lapsed',
  not_approved: 'This registration must be approved before it can be paid',
  not_awaiting_approval: 'This order does not need approval',
  already_approved: 'This order is already approved',
  order_not_rejectable: 'Only a registration that is not yet paid can be rejected',
  order_not_cancelable: 'This order cannot be canceled',
  order_state_changed: 'The order changed meanwhile; please reload and try again',
  reason_required: 'A reason is required',
  not_refund_due: 'This payment is not waiting for a refund',
  not_refundable: 'This payment cannot be refunded through the gateway',
  refund_exceeds_balance: 'The refund must be more than zero and at most what is left of the payment',
  partial_refund_unsettled:
    'A partial refund is possible once the card payment is settled (after the gateway’s nightly close)',
  refund_in_progress: 'A refund of this payment is being made; reload in a moment',
  refund_refused: 'The gateway refused the refund',
  gateway_unavailable: 'The payment gateway cannot be reached right now, please try again in a moment',
  atm_over_limit: 'ATM transfers take at most TWD 49,999: pay by remittance',
  invalid_market_identity: 'This event does not offer that participation type',
  invalid_country: 'Choose a country from the list',
  invalid_logo: 'The company logo must be a file you uploaded as a logo (png, jpeg or .ai)',
  work_not_found: 'A selected work is not one of your works on the content site',
  content_site_unavailable: 'The content site cannot be reached right now, please try again later',
  no_registration_form: 'This event type has no registration form',
  '1': 'The work is already used in another pitching registration, please choose again',
  pitching_work_limit: 'Each applicant can enter at most 5 works across its pitching registrations',
  mixed_work_genres: 'Projects and pieces cannot be entered together',
  one_work_per_story: 'Story to Screen takes one work per entry',
  invalid_upload: 'Upload the file again',
  invalid_email: 'Enter a valid e-mail address',
  link_revoked: 'This link has been withdrawn by the organiser, please contact support',
  link_past_edition: 'This link was for a past edition of the fair: it gives no badge for the current one',
  event_changed: 'The event was changed by someone else meanwhile; reload it and try again',
  event_status_conflict: 'The event is not in a state this change starts from (an archived event stays archived)',
  event_has_orders: 'This event has registrations: it cannot go back to draft (archive it instead)',
  edition_changed: 'The edition was changed by someone else meanwhile; reload it and try again',
  no_current_edition: 'There is no current edition yet: create the edition first',
  not_checking: 'This order has no transfer being checked',
  amount_mismatch: 'The amount or currency of the bank line differs from what the order is to pay',
  line_not_open: 'This bank line has been used already, or is not a credit',
  service_unavailable: 'The service is briefly unavailable, please try again in a moment',
  invalid_purpose: 'Unknown upload purpose',
  empty_file: 'The file is empty',
  file_too_large: 'The file is too large',
  unsupported_file_type: 'This file type is not accepted here',
  upload_quota_exceeded: 'Upload limit reached; please try again later',
  storage_unavailable: 'File storage is briefly unavailable, please try again in a moment',
  insufficient_storage: 'File storage is full, please try again later',
  identity_unavailable: 'The sign-in service cannot be reached right now, please try again in a moment',
  slot_taken: 'This slot has just been taken; please choose another one',
  meeting_limit: 'You have reached the limit of meeting requests',
  meeting_state: 'This meeting request has changed meanwhile; reload and try again',
  cancel_cutoff: 'This meeting can no longer be cancelled here; please contact the organiser',
  person_busy: 'You already have a meeting at this time',
  no_table_free: 'No table of the business meeting centre is free at this time',
  own_exhibitor: 'You cannot request a meeting with your own company',
  party_busy: 'The buyer or the exhibitor already has a meeting at this time',
  table_taken: 'This table already holds a meeting at this time',
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    /** Overrides the catalogue's wording (e.g. "Order not found"). */
    message?: string,
    /** Extra fields of the error body (e.g. validation `issues`). */
    readonly details?: Record<string, unknown>,
    /** When the refusal ends by itself: the answer's Retry-After (a quota). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message ?? DOMAIN_ERRORS[code]);
    this.name = 'DomainError';
  }

  /** The i18n key the UI shows for this error. */
  get messageKey() {
    return `apiError.${this.code}` as const;
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

/** "<What> not found", the one 404 of the domain. */
export const notFoundError = (what = 'Resource') => new DomainError('not_found', `${what} not found`);
