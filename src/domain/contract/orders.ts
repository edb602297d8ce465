/**
 * Orders and registrations on the wire (decision 043): `GET /orders`, `GET|PUT /orders/{id}`,
 * `POST /orders?event=`, `GET|PUT /registrations/{id}`, the badge order.
 */
import type { ApprovalStatus, PaymentStatus } from '@domain/order-lifecycle';

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
};

export type Receipt = {
  kind: 'personal' | 'company';
  invoiceTitle: string | null;
  unifiedBusinessNumber: string | null;
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
  createdAt: string;
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
