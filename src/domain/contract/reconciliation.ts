/*
 * The back office's money screens on the wire (decision 043): transfers being checked, bank
 * statement imports (decision 026) and refunds due.
 */
import type { StatementMapping } from '@domain/bank-statement';

/** A transfer being checked (GET /admin/transfers). */
export type TransferRow = {
  orderNo: string;
  registrationType: string;
  paymentType: string | null;
  remitter: string | null;
  senderBank: string | null;
  lastFiveDigits: string | null;
  currency: string;
  amountCents: number;
  paymentExpiresAt: string | null;
  createdAt: string;
  declaredAt: string | null;
  email: string;
  name: string | null;
  eventName: string;
};

/** A file read for the mapping step (POST /admin/bank-imports/preview). */
export type StatementPreview = {
  fileName: string;
  encoding: 'utf-8' | 'big5' | 'utf-16le';
  replaced: number;
  delimiter: string;
  columnCount: number;
  rowCount: number;
  rows: string[][];
  mapping: StatementMapping;
  remembered: boolean;
};

/** An import in the recent list (GET /admin/bank-imports). */
export type ImportSummary = {
  id: string;
  fileName: string;
  encoding: string;
  importedBy: string;
  createdAt: string;
  lines: number;
  matched: number;
  ambiguous: number;
  unmatched: number;
  alreadyImported: number;
  paid: number;
};

/** An order as a statement line names it. */
export type LineOrder = {
  orderId: string;
  orderNo: string;
  email: string;
  name: string | null;
  currency: string;
  amountCents: number;
  lastFiveDigits: string | null;
  paymentStatus: string;
  eventName: string;
};

export type ImportLine = {
  id: string;
  lineNo: number;
  kind: 'credit' | 'debit' | 'unreadable';
  bookedOn: string | null;
  amountCents: number | null;
  currency: string | null;
  accountLastFive: string | null;
  memo: string;
  cells: string[];
  outcome: 'matched' | 'ambiguous' | 'unmatched' | 'already_imported' | 'debit' | 'unreadable' | 'paid';
  reason: string | null;
  candidates: LineOrder[];
  paidOrder: LineOrder | null;
  paidBy: string | null;
  paidAt: string | null;
  /** The line seen before in another import (absent when none). */
  original?: {
    importId: string;
    fileName: string;
    importedAt: string;
    lineNo: number;
    outcome: ImportLine['outcome'];
    paidOrder: LineOrder | null;
  } | null;
};

/** One import with its lines (GET /admin/bank-imports/{id}). */
export type ImportView = {
  id: string;
  fileName: string;
  encoding: string;
  importedBy: string;
  createdAt: string;
  columnCount: number;
  /** Lines per outcome (camelCase keys: `alreadyImported`). */
  counts: Record<string, number>;
  lines: ImportLine[];
};

/** A refund due (GET /admin/refunds). */
export type RefundRow = {
  paymentId: string;
  orderNo: string;
  email: string;
  name: string | null;
  eventSlug: string;
  eventName: string;
  method: string;
  currency: string;
  amountCents: number;
  reason: string | null;
  gatewayTradeNo: string | null;
  at: string;
  /** Cents already refunded of this payment (partial refunds, issue 22). */
  refundedCents: number;
};

/** `POST /admin/orders/{orderNo}/return-transfer`: the order is unpaid again, with a new deadline. */
export type TransferReturned = { orderNo: string; result: 'returned'; paymentExpiresAt: string | null };

/** One line of `POST /admin/bank-imports/{id}/confirm`: paid, or refused with the order core's code. */
export type LineConfirmation = { lineId: string; result: string } & Record<string, unknown>;
export type ImportConfirmed = { data: LineConfirmation[]; meta: { paid: number; refused: number } };

/** `POST /admin/bank-lines/{lineId}/assign`. */
export type LineAssigned = { lineId: string; result: 'paid'; orderNo: string };

/** `POST /admin/refunds/{paymentId}/refunded`. */
/** The current edition's payment settings (`GET|PUT /admin/editions/current/payment-settings`, issue 22). */
export type EditionPaymentSettings = {
  editionId: string;
  /** The edition's own choice; null: ATM_VIRTUAL_ACCOUNTS decides. */
  atmEnabled: boolean | null;
  /** What applies: ATM transfers go through NewebPay virtual accounts. */
  atmVirtualAccounts: boolean;
};

/** A card payment refunded through NewebPay (`POST /admin/payments/{paymentId}/refund`, issue 22). */
export type CardRefunded = {
  refundId: string;
  paymentId: string;
  /** `cancel`: the authorisation cancelled (before settlement); `refund`: refunded after it. */
  kind: 'cancel' | 'refund';
  amountCents: number;
  currency: string;
  /** `refunded` once nothing is left of the payment; else as it was (`paid`, `refund_due`). */
  paymentStatus: string;
  gatewayTradeNo: string | null;
};

/**
 * What a card refund would do (`GET /admin/payments/{paymentId}/refund-preview`, issue 22): the
 * gateway's call by the trade's settlement state (null: the gateway could not be asked), what is
 * left, whether a part may be refunded, and the invoice's void or allowance for a whole or a part.
 */
export type CardRefundPreview = {
  paymentId: string;
  currency: string;
  amountCents: number;
  refundedCents: number;
  balanceCents: number;
  gatewayCall: 'cancel' | 'refund' | null;
  gatewayStatus: string | null;
  partialAllowed: boolean;
  invoice: {
    number: string | null;
    status: string;
    whole: 'void' | 'allowance' | 'none';
    partial: 'allowance' | 'none';
  } | null;
};

export type RefundRecorded = { paymentId: string; result: 'refunded'; refundReference: string | null };
