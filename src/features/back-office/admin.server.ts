import type { AstroGlobal } from 'astro';
import type { AdminOrderQuery } from '@domain/admin';
import type { RegistrationType } from '@domain/kinds/types';
import { commandsAllowed, type ApprovalStatus, type CommandType, type PaymentStatus } from '@domain/order-lifecycle';
import type { OrderAction, OrderActionsProps } from './orders/OrderActions';
import { pickMessages } from '@i18n/i18n';
import { localePath } from '@i18n/locales';
import { ApiError, type ApiClient } from '@lib/api';
import { serverApi } from '@lib/embedded-api.server';
import { load, loadFailure } from '@lib/load';

/*
 * The back office's page loaders (issue 11): every page asks the API who is asking first, so a
 * registrant sees "for organisers only" (403) and a visitor is sent to sign in, and the role is
 * read on every request.
 */

export type Organiser = { email: string; name: string | null };

/** The outcome of the back office's gate: the organiser and an API client, or what the page shows. */
export type AdminGate =
  | { kind: 'ok'; organiser: Organiser; api: ApiClient }
  | { kind: 'signin' }
  | { kind: 'forbidden' }
  | { kind: 'error'; status: number };

/** Whether the signed-in user is an organiser (GET /api/v1/admin/me). */
export async function adminGate(astro: Pick<AstroGlobal, 'locals'>): Promise<AdminGate> {
  if (!astro.locals.token) return { kind: 'signin' };
  const api = await serverApi(astro.locals);
  try {
    const me = (await api.get<{ data: Organiser }>('/api/v1/admin/me')).data;
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

/** An order as the back office's list shows it (GET /api/v1/admin/orders, camelCase). */
export type AdminOrderRow = {
  orderId: string;
  orderNo: string;
  registrationType: RegistrationType;
  paymentStatus: PaymentStatus;
  approvalStatus: ApprovalStatus | null;
  paymentType: string | null;
  currency: 'TWD' | 'USD';
  amountCents: number;
  quantity: number;
  paymentExpiresAt: string | null;
  createdAt: string;
  email: string;
  name: string | null;
  eventSlug: string;
  eventType: string;
  eventName: string;
  company: string | null;
};

export type AdminOrderPage = { data: AdminOrderRow[]; meta: { page: number; limit: number; total: number } };

/** One page of the order search. */
export const loadAdminOrders = (api: ApiClient, query: Partial<Record<keyof AdminOrderQuery, string | number>>) =>
  load(() => api.get<AdminOrderPage>('/api/v1/admin/orders', query));

/** What waits for an organiser (the back office's home). */
export type BackOfficeCounts = {
  awaitingApproval: number;
  transfersChecking: number;
  refundsDue: number;
  badgesIssued: number;
  badgesPickedUp: number;
};
export const loadSummary = (api: ApiClient) =>
  load(async () => (await api.get<{ data: BackOfficeCounts }>('/api/v1/admin/summary')).data);

/** The events, for the search's event filter. */
export const loadEvents = (api: ApiClient) =>
  load(async () => (await api.get<{ data: { slug: string; name: string; type: string }[] }>('/api/v1/events')).data);

/** One order with everything the back office shows (GET /api/v1/admin/orders/{orderNo}). */
export type AdminOrderDetail = {
  orderId: string;
  orderNo: string;
  registrationType: string;
  paymentStatus: string;
  approvalStatus: string | null;
  rejectedReason: string | null;
  paymentExpiresAt: string | null;
  paymentType: string | null;
  currency: 'TWD' | 'USD';
  amountCents: number;
  quantity: number;
  unitPriceTwdCents: number;
  unitPriceUsdCents: number | null;
  totalTwdCents: number;
  totalUsdCents: number | null;
  remitter: string | null;
  senderBank: string | null;
  lastFiveDigits: string | null;
  locale: string | null;
  createdAt: string;
  paidAt: string | null;
  approvedAt: string | null;
  user: { id: string; email: string; name: string | null };
  event: {
    slug: string;
    type: string;
    name: string;
    startTime: string;
    endAt: string;
    formModifyExpiresAt: string | null;
  };
  receipt: { kind: string; invoiceTitle: string | null; unifiedBusinessNumber: string | null } | null;
  registration: {
    id: string;
    form: Record<string, unknown>;
    contact: Record<string, unknown> | null;
    updatedAt: string;
  } | null;
  badge: {
    identity: string;
    nameZh: string;
    nameEn: string;
    companyNameZh: string;
    companyNameEn: string;
    personalPhotoFileId: string | null;
    pickedUpAt: string | null;
  } | null;
  contents: { id: string; titleEn: string; titleZh: string; genre: string | null; categoryId: number | null }[];
  files: { id: string; name: string; contentType: string; size: number; purpose: string; url: string }[];
  payments: {
    id: string;
    method: string;
    attempt: number | null;
    merchantOrderNo: string | null;
    currency: string;
    amountCents: number;
    status: string;
    gatewayTradeNo: string | null;
    gatewayStatus: string | null;
    gatewayMessage: string | null;
    refundReason: string | null;
    refundReference?: string | null;
    paidAt: string | null;
    refundedAt: string | null;
    createdAt: string;
  }[];
  includedLinks: { seq: number; path: string; usedAt: string | null; usedBy: string | null }[];
  history: {
    id: number;
    kind: string;
    actor: string;
    actorId: string | null;
    paymentStatusBefore: string | null;
    paymentStatusAfter: string;
    approvalStatusBefore: string | null;
    approvalStatusAfter: string | null;
    payload: Record<string, unknown>;
    createdAt: string;
  }[];
};

export const loadAdminOrder = (api: ApiClient, orderNo: string) =>
  load(
    async () => (await api.get<{ data: AdminOrderDetail }>(`/api/v1/admin/orders/${encodeURIComponent(orderNo)}`)).data,
  );

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
