import type { invoiceActions, invoices } from '../db/schema';

type InvoiceRow = typeof invoices.$inferSelect;
type ActionRow = typeof invoiceActions.$inferSelect;

/** One CSV field: quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised (spreadsheets). */
const field = (value: string | number | null | undefined) => {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const taipei = (d: Date | null) =>
  d ? new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ') : '';

/**
 * A day's invoices for the accountant (UTF-8 with BOM, so spreadsheets read the Chinese): the
 * invoices issued that day, then the voids and allowances made that day. Amounts in whole TWD;
 * sales and tax apart.
 */
export function csvOf(day: { issued: InvoiceRow[]; acted: { action: ActionRow; invoice: InvoiceRow }[] }): string {
  const header = [
    'record',
    'invoice_number',
    'random_code',
    'date',
    'order_no',
    'kind',
    'buyer',
    'ubn',
    'carrier',
    'sales_twd',
    'tax_twd',
    'total_twd',
    'status',
    'allowance_no',
    'reason',
  ];
  const lines = [header.join(',')];
  for (const i of day.issued) {
    lines.push(
      [
        'invoice',
        i.number,
        i.randomCode,
        taipei(i.issuedAt),
        i.merchantOrderNo,
        i.kind,
        i.buyerName,
        i.buyerUbn,
        i.loveCode ? `donation ${i.loveCode}` : i.carrierNumber ? `${i.carrierType} ${i.carrierNumber}` : i.carrierType,
        i.amountTwd - i.tax,
        i.tax,
        i.amountTwd,
        i.status,
        '',
        '',
      ]
        .map(field)
        .join(','),
    );
  }
  for (const { action, invoice } of day.acted) {
    const tax = action.amountTwd - Math.round(action.amountTwd / 1.05);
    lines.push(
      [
        action.kind,
        invoice.number,
        invoice.randomCode,
        taipei(action.doneAt),
        invoice.merchantOrderNo,
        invoice.kind,
        invoice.buyerName,
        invoice.buyerUbn,
        '',
        action.amountTwd - tax,
        tax,
        action.amountTwd,
        action.status,
        action.allowanceNo,
        action.reason,
      ]
        .map(field)
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
