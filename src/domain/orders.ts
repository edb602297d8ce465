/** The display rules of spec §4 for orders (their wire shape: ./contract/orders). */
import type { Order, Payment } from './contract/orders';
import { isIssued, isLive, type ApprovalStatus, type PaymentStatus } from './order-lifecycle';

export type { ApprovalStatus, PaymentStatus };
export type DisplayedPaymentStatus = 'free' | 'unpaid' | 'checking' | 'paid' | 'overdue' | 'canceled';
export type RegistrationStatus = 'submitted' | 'completed' | 'cancelled';

export type { IncludedBadgeLink, Order, OrderWork, Payment, Receipt } from './contract/orders';

/** The server's `pending` is shown as unpaid (spec §4). */
export function displayedPaymentStatus(status: PaymentStatus | string): DisplayedPaymentStatus {
  if (status === 'pending') return 'unpaid';
  if (status === 'free' || status === 'checking' || status === 'paid' || status === 'overdue' || status === 'canceled')
    return status;
  return 'canceled';
}

/**
 * Registration status derived from payment status (spec §4): unpaid → submitted (the place is
 * reserved); checking, paid, free → completed; overdue and anything else → cancelled.
 */
export function registrationStatus(status: PaymentStatus | string): RegistrationStatus {
  const shown = displayedPaymentStatus(status);
  if (shown === 'unpaid') return 'submitted';
  if (shown === 'checking' || shown === 'paid' || shown === 'free') return 'completed';
  return 'cancelled';
}

/** Whether an order's remittance and invoice details may still be changed (spec §4 Form editing). */
export function editState(
  order: Pick<Order, 'paymentStatus' | 'formModifyExpiresAt'>,
  now: Date,
): 'editable' | 'paid' | 'expired' | 'closed' {
  if (isIssued(order.paymentStatus)) return 'paid';
  if (!isLive(order.paymentStatus)) return 'closed';
  if (order.formModifyExpiresAt && new Date(order.formModifyExpiresAt).getTime() < now.getTime()) return 'expired';
  return 'editable';
}

/**
 * Whether the registration form behind an order (exhibitor or pitching form, contact info) may
 * still be edited on the contact page (spec §2, §4 Form editing): a live, not rejected order,
 * before the event's `formModifyExpiresAt` (no deadline: while the order is live). Payment does
 * not lock the form; it locks remittance and invoice details (editState).
 */
export function registrationFormEditable(
  order: Pick<Order, 'paymentStatus' | 'approvalStatus'> & { formModifyExpiresAt: string | Date | null },
  now: Date,
): boolean {
  if (!isLive(order.paymentStatus) || order.approvalStatus === 'rejected') return false;
  return !order.formModifyExpiresAt || new Date(order.formModifyExpiresAt).getTime() > now.getTime();
}

/**
 * When editing the registration form closed, for an order whose form could be edited until then
 * (live, not rejected, its event's `formModifyExpiresAt` passed): the summary says so instead of
 * dropping the edit link without a word. Null while it can be edited, or when it never could.
 */
export function registrationFormClosedAt(
  order: Pick<Order, 'paymentStatus' | 'approvalStatus'> & { formModifyExpiresAt: string | Date | null },
  now: Date,
): Date | null {
  if (!isLive(order.paymentStatus) || order.approvalStatus === 'rejected' || !order.formModifyExpiresAt) return null;
  const at = new Date(order.formModifyExpiresAt);
  return at.getTime() <= now.getTime() ? at : null;
}

/**
 * The headline of an order (order list card, summary): what the registrant should know first.
 * The spec's registration status (derived from payment alone) says "completed" for a transfer
 * still being checked and for a free registration still waiting for the organiser; the headline
 * says so instead. Closed orders read cancelled; a rejection wins over everything.
 */
export type HeadlineStatus =
  'rejected' | 'cancelled' | 'pending_approval' | 'checking' | 'awaiting_payment' | 'completed';

export function headlineStatus(order: Pick<Order, 'paymentStatus' | 'approvalStatus'>): HeadlineStatus {
  if (order.approvalStatus === 'rejected') return 'rejected';
  const shown = displayedPaymentStatus(order.paymentStatus);
  if (shown === 'overdue' || shown === 'canceled') return 'cancelled';
  if (order.approvalStatus === 'pending_approval' || order.approvalStatus === 'auditing') return 'pending_approval';
  if (shown === 'checking') return 'checking';
  if (shown === 'unpaid') return 'awaiting_payment';
  return 'completed';
}

/** Whether an order stands: live (holds its place or badge) and not rejected. */
export const isStanding = (order: Pick<Order, 'paymentStatus' | 'approvalStatus'>) =>
  isLive(order.paymentStatus) && order.approvalStatus !== 'rejected';

/**
 * Whether the latest card attempt came back declined: the gateway answered after the attempt
 * started, and not with success (processing page: "the payment did not go through").
 */
export function cardDeclined(payment: Pick<Payment, 'type' | 'gatewayAt' | 'cardStartedAt' | 'gatewayStatus'> | null) {
  return (
    !!payment &&
    payment.type === 'credit_card' &&
    !!payment.gatewayAt &&
    !!payment.cardStartedAt &&
    new Date(payment.gatewayAt).getTime() >= new Date(payment.cardStartedAt).getTime() &&
    payment.gatewayStatus !== 'SUCCESS'
  );
}
