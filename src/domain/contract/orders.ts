/**
 * Orders and registrations on the wire (decision 043): `GET /orders`, `GET|PUT /orders/{id}`,
 * `POST /orders?event=`, `GET|PUT /registrations/{id}`, the badge order.
 */
import type { ApprovalStatus, PaymentStatus } from '@domain/order-lifecycle';
import type { CarrierType } from '@domain/invoices';
import type { Invoice } from './invoices';

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
  /** The organiser's message when the declared transfer was sent back (the order is unpaid again). */
  transferReturnedMessage?: string | null;
  /** The last card attempt's result from the gateway. */
  gatewayStatus: string | null;
  gatewayMessage: string | null;
  gatewayAt: string | null;
  cardStartedAt: string | null;
  /**
   * One order's view only (issue 22): how "ATM transfer" is paid — through a NewebPay virtual
   * account, by declaring the transfer's last five digits, or not at all (the total is above the
   * channel's limit: remittance only) — and the virtual account handed out, if any.
   */
  atmMode?: 'virtual_account' | 'declared' | 'unavailable';
  virtualAccount?: VirtualAccount | null;
};

/** An ATM virtual account handed out by NewebPay for an order. */
export type VirtualAccount = {
  bankCode: string;
  accountNo: string;
  /** Cents, TWD: the exact amount to transfer. */
  amountCents: number;
  expiresAt: string | null;
  status: 'issued' | 'paid' | 'expired';
};

export type Receipt = {
  kind: 'personal' | 'company';
  invoiceTitle: string | null;
  unifiedBusinessNumber: string | null;
  /** Where the e-invoice goes (issue 22); `none` for a company invoice. */
  carrierType: CarrierType;
  carrierNumber: string | null;
  loveCode: string | null;
};

export type OrderWork = {
  id: string;
  /** In the request's language. */
  title: string;
  titleEn: string;
  titleZh: string;
  genre: string | null;
  categoryId: number | null;
};

export type IncludedBadgeLink = {
  seq: number;
  identity: string;
  /** The claim page without the locale prefix: `/get-badge/{type}/{code}`. */
  path: string;
  expiresAt: string;
  usedAt: string | null;
  /** Who claimed it (name, else e-mail). */
  usedBy: string | null;
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
  /** Works chosen from the content site (Market, pitching), as they were when the order was placed. */
  contents: OrderWork[];
  /** One order's view only: the badges it includes, and their one-time links once issued. */
  includedBadges?: { count: number; links: IncludedBadgeLink[] } | null;
  /** One order's view only: its e-invoice once issued (null before, or none: free, USD). */
  invoice?: Invoice | null;
  /** One order's view only (issue 22): the money that went back, oldest first (empty: none). */
  refunds?: OrderRefund[];
  /** One order's view only: its event's edition (slug; null: none), whose pick-up schedule its pages show. */
  editionSlug?: string | null;
  createdAt: string;
};

/** A refund of an order's payment: the gateway's card cancel / refund, or one recorded by hand. */
export type OrderRefund = {
  /** Cents. */
  amountCents: number;
  currency: 'TWD' | 'USD';
  at: string;
  kind: 'cancel' | 'refund' | 'manual';
  /** Why, when it is one of the portal's reason codes (`order_canceled`, `duplicate_charge` …); the organiser's own words are not shown. */
  reason: string | null;
};

/** An order as `POST /orders` (and `POST /demonstration_order`) answers it to a wizard. */
export type PlacedOrder = {
  orderId: string;
  paymentStatus: string;
  approvalStatus: string | null;
  /** True when the same registration was already placed (200 instead of 201). */
  existing?: boolean;
};

/** A badge order as `POST /demonstration_order` answers it: the order to pay. */
export type BadgeOrderPlaced = {
  orderId: string;
  id: string;
  orderNo: string;
  eventSlug: string;
  paymentStatus: string;
};

/** A file of a form as the uploader shows it (`POST /files/upload` answers one). */
export type UploadedFile = { uid: string; name: string; url: string };

/** A registration as `GET /registrations/{id}` answers it. */
export type Registration = {
  id: string;
  registrationId: string;
  orderId: string;
  eventSlug: string;
  eventType: string;
  /** The kind's form the contact page edits (exhibitor, story, invoice), or null. */
  formType: string | null;
  form: Record<string, unknown>;
  contact: Record<string, unknown> | null;
  /** Market: whether the exhibitor directory lists it once its order is complete (issue 23). */
  directoryListed: boolean;
  formModifyExpiresAt: string | null;
  editable: boolean;
  createdAt: string;
  updatedAt: string;
  /** The files the form names, by field (`companyLogoFileId`), as the uploader shows a file. */
  files?: Record<string, UploadedFile>;
};
