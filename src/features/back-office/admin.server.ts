import type { AstroGlobal } from 'astro';
import type { AdminOrderQuery } from '@domain/admin';
import { commandsAllowed, type ApprovalStatus, type CommandType, type PaymentStatus } from '@domain/order-lifecycle';
import type { OrderAction, OrderActionsProps } from './orders/OrderActions';
import { ApiError, type ApiClient } from '@lib/api';
import { serverApi } from '@lib/embedded-api.server';
import { signInRedirect } from '@lib/auth.server';
import { load, loadFailure, type LoadFailure, type LoadResult } from '@lib/load';
import type { AdminOrderDetail, Organiser } from '@domain/contract/admin';
import { can, type Right, type Role } from '@domain/roles';
import { check } from '@domain/validation';
import type { Struct } from 'superstruct';

export type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderRow,
  BackOfficeCounts,
  Organiser,
} from '@domain/contract/admin';
import { islandProps } from '@lib/island-props.server';

/*
 * The back office's page loaders (issue 11): every page asks the API who is asking first, so a
 * registrant sees "for organisers only" (403) and a visitor is sent to sign in, and the role is
 * read on every request.
 */

/** The outcome of the back office's gate: the organiser and an API client, or what the page shows. */
export type AdminGate =
  | { kind: 'ok'; organiser: Organiser; api: ApiClient }
  | { kind: 'signin' }
  /** Not on the team, or (`role`) a member whose role lacks the page's right. */
  | { kind: 'forbidden'; role?: Role }
  | { kind: 'error'; status: number };

/**
 * Whether the signed-in user is on the team (`api.admin.me`) and, when the page names one, whose
 * role has the page's right (issue 21): 403 otherwise, as the API answers.
 */
export async function adminGate(astro: Pick<AstroGlobal, 'locals'>, right: Right): Promise<AdminGate> {
  if (!astro.locals.token) return { kind: 'signin' };
  const api = await serverApi(astro.locals);
  try {
    const me: Organiser = (await api.admin.me()).data;
    if (!can(me.role, right)) return { kind: 'forbidden', role: me.role };
    return { kind: 'ok', organiser: me, api };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { kind: 'signin' };
    if (error.status === 403) return { kind: 'forbidden' };
    return { kind: 'error', status: loadFailure(error).status };
  }
}

/** The page status of a gate that does not let the page show its content: 403, or the check's 5xx. */
export const gateStatus = (gate: AdminGate): number | undefined =>
  gate.kind === 'forbidden' ? 403 : gate.kind === 'error' ? gate.status : undefined;

type OkGate = Extract<AdminGate, { kind: 'ok' }>;
type Loads = readonly (Promise<LoadResult<unknown>> | null)[];

/** A back-office page once its gate let it load: the gate, each load's outcome, the first failure. */
export type AdminPage<L extends Loads> = {
  redirect: null;
  gate: Exclude<AdminGate, { kind: 'signin' }>;
  /** Each load's outcome (null: not loaded: the gate refused, or the page asked for none). */
  results: { [K in keyof L]: Awaited<L[K]> | null };
  /** Each load's data, null unless it loaded (the page shows what it has). */
  data: { [K in keyof L]: Extract<Awaited<L[K]>, { kind: 'ok' }>['data'] | null };
  /** The first load that failed (the layout shows the error page's words; the status is its 5xx). */
  failed: LoadFailure | undefined;
  /** A load found nothing (the status is 404; the page says what it did not find). */
  notFound: boolean;
};

/**
 * A back-office page's start: who is asking (a visitor is sent to sign in: return `redirect`),
 * then the page's loads, all at once; the page's status is the gate's (403, 5xx), the first
 * failed load's (5xx), or 404 when a load found nothing. A status the page set before (400 for a filter out of its lists) stays
 * unless one of these replaces it.
 */
export async function adminPage<const L extends Loads>(
  astro: AstroGlobal,
  loads: (gate: OkGate) => L,
  right: Right,
): Promise<{ redirect: Response } | AdminPage<L>> {
  const gate = await adminGate(astro, right);
  if (gate.kind === 'signin') return { redirect: signInRedirect(astro) };
  const status = gateStatus(gate);
  if (status) astro.response.status = status;
  const results = (gate.kind === 'ok' ? await Promise.all(loads(gate)) : []) as AdminPage<L>['results'];
  const outcomes = results as readonly (LoadResult<unknown> | null)[];
  const failed = outcomes.find((r): r is LoadFailure => r?.kind === 'error');
  const notFound = outcomes.some((r) => r?.kind === 'not_found');
  if (failed) astro.response.status = failed.status;
  else if (notFound) astro.response.status = 404;
  const data = outcomes.map((r) => (r?.kind === 'ok' ? r.data : null)) as AdminPage<L>['data'];
  return { redirect: null, gate, results, data, failed, notFound };
}

/**
 * A list page's filter, read from its URL (`read`), and whether it is out of its lists by the
 * API's own struct (`invalid`): the page then names it, with status 400, and loads no list.
 */
export function listFilter<Q, T, S>(
  astro: Pick<AstroGlobal, 'response' | 'url'>,
  read: (params: URLSearchParams) => Q,
  struct: Struct<T, S>,
) {
  const query = read(astro.url.searchParams);
  const invalid = !check(query, struct).ok;
  if (invalid) astro.response.status = 400;
  return { query, invalid };
}

/** One page of the order search. */
export const loadAdminOrders = (api: ApiClient, query: Partial<Record<keyof AdminOrderQuery, string | number>>) =>
  load(() => api.admin.orders.list(query));

export const loadSummary = (api: ApiClient) => load(async () => (await api.admin.summary()).data);

/** The events, for the search's event filter. */
export const loadEvents = (api: ApiClient) => load(async () => (await api.events.list()).data);

export const loadAdminOrder = (api: ApiClient, orderNo: string) =>
  load(async () => (await api.admin.orders.get(orderNo)).data);

/** The back office's actions in the order they are shown, each the order core's command. */
const ACTIONS: [OrderAction, CommandType, Right][] = [
  ['approve', 'approve', 'review'],
  ['start-review', 'start_review', 'review'],
  ['mark-paid', 'pay', 'money'],
  ['reject', 'reject', 'review'],
  ['cancel', 'cancel', 'orders'],
];

/**
 * The OrderActions island's props: the actions the order's state allows (the domain's table) and
 * the team member's role has the right of (the API's, issue 21).
 */
export function orderActionsProps(locals: App.Locals, order: AdminOrderDetail, role: Role): OrderActionsProps {
  const allowed = commandsAllowed({
    paymentStatus: order.paymentStatus as PaymentStatus,
    approvalStatus: order.approvalStatus as ApprovalStatus | null,
  });
  return {
    ...islandProps(locals.locale, ['admin.action.', 'dialog.', 'apiError.']),
    orderNo: order.orderNo,
    // A transfer is confirmed only on a charged order (a free one has nothing to pay).
    actions: ACTIONS.filter(
      ([action, command, right]) =>
        can(role, right) && allowed.includes(command) && (action !== 'mark-paid' || order.totalTwdCents > 0),
    ).map(([action]) => action),
  };
}

/** A list's pages for AdminList: where it is, how many, and page n's link (the same filter). */
export function listPages(
  meta: { page: number; limit: number; total: number },
  path: string,
  query: Record<string, string | undefined>,
) {
  const params = Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return {
    page: meta.page,
    pages: Math.max(1, Math.ceil(meta.total / meta.limit)),
    href: (n: number) => `${path}?${new URLSearchParams({ ...params, page: String(n) })}`,
  };
}
