/**
 * E-invoices on the wire (issue 22): an order's invoice (`GET /orders/{id}`, `GET /demonstration`),
 * and the back office's list, retry and settings (`/admin/invoices…`, `/admin/invoice-settings`).
 */
import type { CarrierType, InvoiceKind, InvoiceStatus } from '@domain/invoices';

/** A void (作廢) or allowance (折讓) of an invoice, with its reason (a code such as `order_canceled`, or the organiser's words). */
export type InvoiceAction = {
  kind: 'void' | 'allowance';
  status: 'pending' | 'done' | 'failed';
  reason: string;
  /** Whole TWD, tax included. */
  amountTwd: number;
  allowanceNo: string | null;
  at: string;
};

/** An order's e-invoice once issued (null before). Amounts in whole TWD, tax included; `tax` of it (shown apart on B2B). */
export type Invoice = {
  status: InvoiceStatus;
  number: string | null;
  randomCode: string | null;
  issuedAt: string | null;
  kind: InvoiceKind;
  carrierType: CarrierType;
  amountTwd: number;
  tax: number;
  remainingTwd: number;
  actions: InvoiceAction[];
};

/** A row of the back office's invoice list. */
export type AdminInvoice = Invoice & {
  id: string;
  orderId: string;
  orderNo: string;
  eventName: string;
  buyerName: string;
  buyerUbn: string | null;
  buyerEmail: string;
  carrierNumber: string | null;
  loveCode: string | null;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
};

/** An invoice's item name for the orders of one event type, in both languages (empty: the event's name). */
export type InvoiceItemName = { eventType: string; en: string; zh: string };

/** The edition's invoice settings (`GET|PUT /admin/invoice-settings`): item names by event type, both languages. */
export type InvoiceSettings = {
  editionId: string;
  enabled: boolean;
  itemNames: InvoiceItemName[];
  /** Read only: whether the embedded sandbox issues the invoices (no EZPAY_URL). */
  sandbox: boolean;
};
