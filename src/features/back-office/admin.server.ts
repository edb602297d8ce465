import type { AstroGlobal } from 'astro';
import type { AdminOrderQuery } from '@domain/admin';
import { commandsAllowed, type ApprovalStatus, type CommandType, type PaymentStatus } from '@domain/order-lifecycle';
import type { OrderAction, OrderActionsProps } from './orders/OrderActions';
import { pickMessages } from '@i18n/i18n';
import { localePath } from '@i18n/locales';
import { ApiError, type ApiClient } from '@lib/api';
import { serverApi } from '@lib/embedded-api.server';
import { load, loadFailure } from '@lib/load';
import type { AdminOrderDetail, Organiser } from '@domain/contract/admin';

export type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderRow,
  BackOfficeCounts,
  Organiser,
} from '@domain/contract/admin';

/*
 * The back office's page loaders (issue 11): every page asks the API who is asking first, so a
 * registrant sees "for organisers only" (403) and a visitor is sent to sign in, and the role is
 * read on every request.
 */

/** The outcome of the back office's gate: the organiser and an API client, or what the page shows. */
export type AdminGate =
  | { kind: 'ok'; organiser: Organiser; api: ApiClient }
  | { kind: 'signin' }
  | { kind: 'forbidden' }
  | { kind: 'error'; status: number };

/** Whether the signed-in user is an organiser (GET /admin/me). */
export async function adminGate(astro: Pick<AstroGlobal, 'locals'>): Promise<AdminGate> {
  if (!astro.locals.token) return { kind: 'signin' };
  const api = await serverApi(astro.locals);
  try {
    const me: Organiser = (await api.admin.me()).data;
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

/** One page of the order search. */
export const loadAdminOrders = (api: ApiClient, query: Partial<Record<keyof AdminOrderQuery, string | number>>) =>
  load(() => api.admin.orders.list(query));

export const loadSummary = (api: ApiClient) => load(async () => (await api.admin.summary()).data);

/** The events, for the search's event filter. */
export const loadEvents = (api: ApiClient) => load(async () => (await api.events.list()).data);

export const loadAdminOrder = (api: ApiClient, orderNo: string) =>
  load(async () => (await api.admin.orders.get(orderNo)).data);

/** The back office's actions in the order they are shown, each the order core's command. */
const ACTIONS: [OrderAction, CommandType][] = [
  ['approve', 'approve'],
  ['start-review', 'start_review'],
  ['mark-paid', 'pay'],
  ['reject', 'reject'],
  ['cancel', 'cancel'],
];

/** The OrderActions island's props: the actions the order's state allows (the domain's table). */
export function orderActionsProps(locals: App.Locals, order: AdminOrderDetail): OrderActionsProps {
  const allowed = commandsAllowed({
    paymentStatus: order.paymentStatus as PaymentStatus,
    approvalStatus: order.approvalStatus as ApprovalStatus | null,
  });
  return {
    locale: locals.locale,
    base: `/${localePath(locals.locale)}`,
    messages: pickMessages(locals.locale, ['admin.action.', 'dialog.', 'apiError.']),
    orderNo: order.orderNo,
    // A transfer is confirmed only on a charged order (a free one has nothing to pay).
    actions: ACTIONS.filter(
      ([action, command]) => allowed.includes(command) && (action !== 'mark-paid' || order.totalTwdCents > 0),
    ).map(([action]) => action),
  };
}
