/** Orders as the API client sees them (camelCase) and the display rules of spec §4. */
import { isIssued, isLive, type ApprovalStatus, type PaymentStatus } from './order-lifecycle';
import { isBadgeRegistrationType } from './registration-kinds';

export type { ApprovalStatus, PaymentStatus };
export type DisplayedPaymentStatus = 'free' | 'unpaid' | 'checking' | 'paid' | 'overdue' | 'canceled';
export type RegistrationStatus = 'submitted' | 'completed' | 'cancelled';

export type Payment = {
  type: 'credit_card' | 'atm' | 'TWD' | 'USD' | null;
  status: PaymentStatus;
  dueDate: string | null;
  /** Amounts in cents. */
  amountTwd: number | null;
  amountUsd: number | null;
  unitPriceTwd: number | null;
  unitPriceUsd: number | null;
  remitter: string | null;
  senderBank: string | null;
  lastFiveDigits: string | null;
  /** The last card attempt's result from the gateway. */
  gatewayStatus: string | null;
  gatewayMessage: string | null;
  gatewayAt: string | null;
  cardStartedAt: string | null;
};

export type Receipt = {
  kind: 'personal' | 'company';
  invoiceTitle: string | null;
  unifiedBusinessNumber: string | null;
};

export type Order = {
  orderId: string;
  id: string;
  orderNo: string;
  eventName: string;
  eventSlug: string;
  eventType: string;
  eventTime: string;
  eventEndAt: string;
  eventLocation: string;
  registrationType: string;
  formModifyExpiresAt: string | null;
  quantity: number;
  paymentStatus: PaymentStatus;
  paymentExpiresAt: string | null;
  approvalStatus: ApprovalStatus | null;
  /** The organiser's reason, when the registration was rejected. */
  rejectedReason: string | null;
  registrationId: string | null;
  currency: 'TWD' | 'USD';
  amountCents: number;
  payment: Payment | null;
  receipt: Receipt | null;
  contents: { id: string; title: string }[];
  createdAt: string;
};

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

export const isBadgeOrder = (order: Pick<Order, 'registrationType'>) => isBadgeRegistrationType(order.registrationType);

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
