/**
 * The back office's exports (issue 11): which files there are, and how a cell is written in a CSV
 * file that Excel opens safely: UTF-8 with a byte-order mark (so Excel reads Chinese as UTF-8, not
 * the system's code page), CRLF rows, RFC 4180 quoting, and text that would start a formula
 * neutralised with a leading `'` (OWASP "CSV injection").
 */
import { toTaipeiInput, taipeiDay } from './taipei-time';

export const EXPORT_DATASETS = ['orders', 'registrations', 'badges'] as const;
export type ExportDataset = (typeof EXPORT_DATASETS)[number];
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A cell: text, a number, an instant (shown in Taipei time), an amount, or empty. */
export type Cell =
  string | number | Date | { readonly cents: number; readonly currency: 'TWD' | 'USD' } | null | undefined;

/** The byte-order mark that tells Excel a CSV file is UTF-8. */
export const CSV_BOM = '\uFEFF';

/**
 * Text that a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage
 * return before one) gets a leading `'`, which Excel and LibreOffice show as plain text (OWASP).
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** An amount in its currency's units: TWD 1,000 is 1000, US$35.50 is 35.5. */
export const moneyUnits = (cents: number) => cents / 100;

/** A date-time as the files show it: Taipei wall-clock time, `2026-11-04 09:30`. */
export const exportDateTime = (value: Date) => toTaipeiInput(value).replace('T', ' ');

/** A cell's text in a CSV file (before quoting): amounts as plain numbers with their decimals. */
export function csvText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  if (cell instanceof Date) return exportDateTime(cell);
  if (typeof cell === 'object')
    return cell.currency === 'USD' ? moneyUnits(cell.cents).toFixed(2) : String(moneyUnits(cell.cents));
  return neutraliseFormula(cell);
}

/** A field of a CSV row: quoted (quotes doubled) when it holds a quote, a comma or a line break. */
export const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** One CSV row, CRLF-terminated (RFC 4180). */
export const csvRow = (cells: readonly Cell[]) => `${cells.map((c) => csvField(csvText(c))).join(',')}\r\n`;

/** The file's name: `tccf-orders-market-earlybird-2026-11-20.csv` (the Taipei day of the export). */
export function exportFileName(dataset: ExportDataset, eventSlug: string | null, now: Date, format: ExportFormat) {
  const scope = (eventSlug ?? 'all-events').replace(/[^a-z0-9-]/gi, '-');
  return `tccf-${dataset}-${scope}-${taipeiDay(now)}.${format}`;
}
