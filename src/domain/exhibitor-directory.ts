/**
 * The exhibitor directory (issue 23): who is listed, and the search and filters of
 * `GET /market/exhibitors` (the directory page's GET form sends the same). An exhibitor is a
 * Market registration: listed when its order is complete (the order headline's `completed`: paid,
 * or free, and approved where approval applies) and it has not opted out on its contact page.
 */
import { coerce, literal, optional, size, string, trimmed, type, type Infer, type Struct } from 'superstruct';
import { BUSINESS_TYPES, INDUSTRIES } from './kinds/market';
import { ISSUED_STATUSES, PAYABLE_APPROVALS, type ApprovalStatus, type PaymentStatus } from './order-lifecycle';
import { headlineStatus } from './orders';
import { CountryAlpha3, QueryInt } from './validation';
import { WORK_CATEGORIES } from './works';

/** Exhibitors per page of the directory (and the API's default `limit`). */
export const DIRECTORY_PAGE_SIZE = 24;
/** The most a page of the API answers. */
export const DIRECTORY_MAX_LIMIT = 100;
/** The longest search text. */
export const DIRECTORY_QUERY_MAX = 100;

/**
 * Whether a Market order's registration belongs in the directory: its order is complete (the
 * headline every order page shows) and the exhibitor did not opt out.
 */
export const isListedExhibitor = (order: {
  paymentStatus: PaymentStatus;
  approvalStatus: ApprovalStatus | null;
  directoryListed: boolean;
}) => order.directoryListed && headlineStatus(order) === 'completed';

/**
 * The same rule as the database reads it: the payment statuses and approval states of a complete
 * order (a test keeps it equal to `headlineStatus`).
 */
export const LISTED_ORDER_STATES = {
  paymentStatuses: ISSUED_STATUSES,
  /** null (none needed) or approved. */
  approvalStatuses: PAYABLE_APPROVALS,
} as const;

const Id = (values: readonly number[]) => QueryInt(Math.min(...values), Math.max(...values));
/** An optional query value; an empty one (a GET form's field left empty) is none. */
const Blankable = <T, S>(struct: Struct<T, S>) => coerce(optional(struct), literal(''), () => undefined);

/**
 * The directory's query (`GET /market/exhibitors?q=&industry=&business_category=&country=&work_category=&page=&limit=`),
 * as the query string gives it (snake_case, strings). Other
 * parameters are ignored; an empty value is no filter.
 */
export const ExhibitorQuery = type({
  /** Searched in both languages' company names and profiles and work titles. */
  q: Blankable(size(trimmed(string()), 0, DIRECTORY_QUERY_MAX)),
  industry: Blankable(Id(INDUSTRIES)),
  business_category: Blankable(Id(BUSINESS_TYPES)),
  country: Blankable(CountryAlpha3),
  work_category: Blankable(Id(WORK_CATEGORIES)),
  page: Blankable(QueryInt(1, 10_000)),
  limit: Blankable(QueryInt(1, DIRECTORY_MAX_LIMIT)),
});
export type ExhibitorQuery = Infer<typeof ExhibitorQuery>;

/** The filters of the directory as the server applies them. */
export type ExhibitorFilters = {
  q?: string | undefined;
  industry?: number | undefined;
  businessCategory?: number | undefined;
  country?: string | undefined;
  workCategory?: number | undefined;
  page?: number | undefined;
  limit?: number | undefined;
};

/** The query's filters (the search text trimmed, an empty one dropped). */
export function exhibitorFilters(query: ExhibitorQuery): ExhibitorFilters {
  return {
    q: query.q?.trim() || undefined,
    industry: query.industry,
    businessCategory: query.business_category,
    country: query.country,
    workCategory: query.work_category,
    page: query.page,
    limit: query.limit,
  };
}

/** Whether any filter or search is applied (the page says "no exhibitor matches" rather than "none yet"). */
export const isFiltered = (f: ExhibitorFilters) =>
  !!(f.q || f.industry || f.businessCategory || f.country || f.workCategory);

/** A search text as a LIKE pattern matching it anywhere (its `%`, `_` and `\` taken literally). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
