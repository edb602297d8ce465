import { object, optional, size, string } from 'superstruct';
import {
  EXPORT_DATASETS,
  EXPORT_FORMATS,
  exportFileName,
  type ExportDataset,
  type ExportFormat,
} from '@domain/exports';
import { badgeColumns, labelsFor, orderColumns, registrationColumns, type Column } from '../../exports/columns';
import { badgeRows, orderRows, registrationRows, registrationShape, type ExportScope } from '../../exports/sources';
import { csvStream, xlsxStream } from '../../exports/writers';
import { findEventBySlug } from '../../events/events';
import { requireRight } from './admin';
import type { ApiApp, RouteContext } from '../context';
import { notFound } from '../errors';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
const FILE = new RegExp(`^(${EXPORT_DATASETS.join('|')})\\.(${EXPORT_FORMATS.join('|')})$`);

/**
 * The back office's exports (issue 11), under the organiser gate (`/admin/*`; a GET, so the page
 * links to it and the browser downloads it with the sign-in cookie): orders, registrations with
 * their form fields, and badges, for one event or all, as CSV or XLSX, streamed as they are read.
 * Headers and names of statuses and fields are in the caller's language (`lang`, then
 * Accept-Language).
 */
export function adminExportRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  // `event` empty (the form's "all events") is every event.
  const Query = object({ event: optional(size(string(), 0, 100)), lang: optional(string()) });

  app.get('/admin/exports/:file', requireRight('money'), async (c) => {
    const match = FILE.exec(c.req.param('file'));
    if (!match) throw notFound('Export');
    const dataset = match[1] as ExportDataset;
    const format = match[2] as ExportFormat;
    const query = ctx.validQuery(c, Query);
    const event = query.event ? await findEventBySlug(deps.db, query.event) : undefined;
    if (query.event && !event) throw notFound('Event');
    const scope: ExportScope = { eventId: event?.id ?? null };
    const words = labelsFor(c.get('locale'));
    const by = c.get('user').email;
    const report = (error: unknown) =>
      ctx.log('error', 'export failed while streaming', { dataset, format, by, error: String(error) });
    // Who took personal data out, and which: the log keeps it (the file itself is not stored).
    ctx.log('info', 'back office export', { dataset, format, event: event?.slug ?? null, by });

    const stream = <R>(columns: Column<R>[], pages: AsyncGenerator<R[]>) =>
      format === 'csv'
        ? csvStream(columns, pages, report)
        : xlsxStream(words.l(`admin.exports.${dataset}`), columns, pages, report);
    const body =
      dataset === 'orders'
        ? stream(orderColumns(words), orderRows(deps.db, scope))
        : dataset === 'badges'
          ? stream(badgeColumns(words), badgeRows(deps.db, scope))
          : stream(
              registrationColumns(words, await registrationShape(deps.db, scope)),
              registrationRows(deps.db, scope),
            );
    const name = exportFileName(dataset, event?.slug ?? null, ctx.now(), format);
    return new Response(body, {
      headers: {
        'content-type': CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
