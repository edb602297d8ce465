import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { localized } from '@lib/routes';
import type { ImportLinesProps } from './transfers/ImportLines';
import type { ImportView, RefundRow, TransferRow } from './reconciliation';
import type { RefundListProps } from './refunds/RefundList';
import type { CardRefundProps } from './refunds/CardRefund';
import type { StatementImportProps } from './transfers/StatementImport';
import type { TransferQueueProps } from './transfers/TransferQueue';
import { islandBase } from './admin-ops.server';

/*
 * Page loaders of the back office's money screens (issue 11): transfers being checked, statement
 * imports, refunds due; and the props of their islands.
 */

export const loadTransfers = (api: ApiClient) => load(async () => (await api.admin.transfers.list()).data);

export const loadImports = (api: ApiClient) => load(async () => (await api.admin.bankImports.list()).data);

export const loadImport = (api: ApiClient, id: string) => load(async () => (await api.admin.bankImports.get(id)).data);

export const loadRefunds = (api: ApiClient) => load(async () => (await api.admin.refunds.list()).data);

/** The import page's path without the import's id. */
export const importBase = (locals: App.Locals) => localized(locals.locale, '/admin/transfers/imports/');

const orderBase = (locals: App.Locals) => localized(locals.locale, '/admin/orders/');

export const transferQueueProps = (locals: App.Locals, rows: TransferRow[], headingId: string): TransferQueueProps => ({
  ...islandBase(locals, ['admin.transfers.', 'pay.type.']),
  rows,
  headingId,
  orderBase: orderBase(locals),
  now: new Date().toISOString(),
});

export const statementImportProps = (locals: App.Locals): StatementImportProps => ({
  ...islandBase(locals, ['admin.imports.']),
  importBase: importBase(locals),
});

export const importLinesProps = (locals: App.Locals, view: ImportView): ImportLinesProps => ({
  ...islandBase(locals, ['admin.import.']),
  view,
  orderBase: orderBase(locals),
  importBase: importBase(locals),
});

export const refundListProps = (locals: App.Locals, rows: RefundRow[], headingId: string): RefundListProps => ({
  ...islandBase(locals, ['admin.refunds.', 'admin.refundReason.', 'admin.cardRefund.', 'pay.type.']),
  rows,
  headingId,
  orderBase: orderBase(locals),
});

/** The card refund button of a payment (the refunds list's rows, the order page's goodwill refund). */
export const cardRefundProps = (
  locals: App.Locals,
  payment: { id: string },
  orderNo: string,
  variant: CardRefundProps['variant'],
): CardRefundProps => ({
  ...islandBase(locals, ['admin.cardRefund.', 'admin.refunds.gateway.', 'admin.refunds.refused', 'admin.refunds.back']),
  paymentId: payment.id,
  orderNo,
  variant,
});
