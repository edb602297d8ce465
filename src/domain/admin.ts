/**
 * The back office (issue 11): the order search organisers run, validated the same way by the
 * search form's page and the API.
 */
import { enums, object, optional, size, string, trimmed, type Infer } from 'superstruct';
import { APPROVAL_STATUSES, PAYMENT_STATUSES } from './order-lifecycle';
import { REGISTRATION_TYPES } from './kinds/types';
import { filledParams, QueryInt } from './validation';

/** Orders per page of the back office's order list. */
export const ADMIN_PAGE_SIZE = 50;

/** The order search: free text (order number, name, e-mail, company) and filters. */
export const AdminOrderQuery = object({
  q: optional(size(trimmed(string()), 0, 200)),
  event: optional(size(string(), 1, 100)),
  type: optional(enums(REGISTRATION_TYPES)),
  payment: optional(enums(PAYMENT_STATUSES)),
  /** An approval status, or `none` for orders that need no approval. */
  approval: optional(enums([...APPROVAL_STATUSES, 'none'] as const)),
  sort: optional(enums(['newest', 'oldest'] as const)),
  page: optional(QueryInt(1, 100_000)),
  limit: optional(QueryInt(1, 500)),
  lang: optional(string()),
});
export type AdminOrderQuery = Infer<typeof AdminOrderQuery>;

/** The query as the search form sends it: empty fields dropped (a form submits every field). */
export const searchParamsOf = (params: URLSearchParams) =>
  filledParams(params, ['q', 'event', 'type', 'payment', 'approval', 'sort', 'page']);
