import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import type { AdminInvoice, InvoiceSettings } from '@domain/contract/invoices';
import { INVOICE_STATUSES, type InvoiceStatus } from '@domain/invoices';
import type { InvoiceListProps } from './InvoiceList';
import { islandProps } from '@lib/island-props.server';

/** The back office's e-invoices page (issue 22): its query, loaders and the islands' props. */
export function invoiceQuery(url: URL): { status?: InvoiceStatus; q?: string } {
  const status = url.searchParams.get('status') ?? '';
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  return {
    ...((INVOICE_STATUSES as readonly string[]).includes(status) ? { status: status as InvoiceStatus } : {}),
    ...(q ? { q } : {}),
  };
}

export const loadInvoices = (api: ApiClient, query: { status?: string; q?: string }) =>
  load(async () => (await api.admin.invoices.list(query)).data);
export const loadInvoiceSettings = (api: ApiClient) => load(async () => (await api.admin.invoices.settings()).data);

export const invoiceListProps = (
  locals: App.Locals,
  rows: AdminInvoice[],
  settings: InvoiceSettings | null,
  today: string,
): InvoiceListProps => ({
  ...islandProps(locals.locale, ['admin.invoices.', 'invoice.', 'dialog.', 'apiError.', 'eventInfo.types.']),
  rows,
  settings,
  today,
});
