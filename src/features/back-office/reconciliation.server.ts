import { pickMessages } from '@i18n/i18n';
import { localePath } from '@i18n/locales';
import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { localized } from '@lib/routes';
import type { ImportLinesProps } from './transfers/ImportLines';
import type { ImportView, RefundRow, TransferRow } from './reconciliation';
import type { RefundListProps } from './refunds/RefundList';
import type { CardRefundProps } from './refunds/CardRefund';
import type { StatementImportProps } from './transfers/StatementImport';
import type { TransferQueueProps } from './transfers/TransferQueue';

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

const common = (locals: App.Locals, prefixes: string[]) => ({
  locale: locals.locale,
  base: `/${localePath(locals.locale)}`,
  messages: pickMessages(locals.locale, [...prefixes, 'dialog.', 'apiError.']),
});
const orderBase = (locals: App.Locals) => localized(locals.locale, '/admin/orders/');

export const transferQueueProps = (locals: App.Locals, rows: TransferRow[], headingId: string): TransferQueueProps => ({
  ...common(locals, ['admin.transfers.', 'pay.type.']),
  rows,
  headingId,
  orderBase: orderBase(locals),
  now: new Date().toISOString(),
});

export const statementImportProps = (locals: App.Locals): StatementImportProps => ({
  ...common(locals, ['admin.imports.']),
  importBase: importBase(locals),
});

export const importLinesProps = (locals: App.Locals, view: ImportView): ImportLinesProps => ({
  ...common(locals, ['admin.import.']),
  view,
  orderBase: orderBase(locals),
  importBase: importBase(locals),
});

export const refundListProps = (locals: App.Locals, rows: RefundRow[], headingId: string): RefundListProps => ({
  ...common(locals, ['admin.refunds.', 'admin.refundReason.', 'admin.cardRefund.', 'pay.type.']),
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
  ...common(locals, ['admin.cardRefund.', 'admin.refunds.gateway.', 'admin.refunds.refused', 'admin.refunds.back']),
  paymentId: payment.id,
  orderNo,
  variant,
});
