import { inArray } from 'drizzle-orm';
import { array, boolean, enums, object, optional, pattern, size, string } from 'superstruct';
import { EVENT_TYPES } from '@domain/kinds/types';
import type { AdminInvoice, Data, InvoiceSettings, Sendable } from '@domain/contract';
import { INVOICE_STATUSES } from '@domain/invoices';
import { isUuid } from '@domain/validation';
import { currentEdition } from '../../editions/editions';
import { invoiceActions, invoiceSettings } from '../../db/schema';
import { invoiceSettingsOf, invoicesOfDay, invoiceView, listInvoices, retryInvoice } from '../../invoices/invoices';
import { csvOf } from '../../invoices/invoice-csv';
import type { ApiApp, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { requireRight } from './admin';

const ListQuery = object({
  status: optional(enums(INVOICE_STATUSES)),
  q: optional(size(string(), 0, 100)),
  lang: optional(string()),
});
const DayQuery = object({ day: pattern(string(), /^\d{4}-\d{2}-\d{2}$/), lang: optional(string()) });
const Name = size(string(), 0, 30);
const SettingsBody = object({
  enabled: boolean(),
  itemNames: size(array(object({ eventType: enums(EVENT_TYPES), en: Name, zh: Name })), 0, 50),
});

/**
 * The back office's e-invoices (issue 22, right `money`): the list (status filter, search), retry
 * of a failed one, a day's CSV for the accountant, and the edition's invoice settings. Registered
 * after `adminRoutes` (its `/admin/*` gate runs first).
 */
export function adminInvoiceRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  const money = requireRight('money');

  app.get('/admin/invoices', money, async (c) => {
    const query = ctx.validQuery(c, ListQuery);
    const rows = await listInvoices(deps.db, { status: query.status, q: query.q });
    const actions = rows.length
      ? await deps.db
          .select()
          .from(invoiceActions)
          .where(
            inArray(
              invoiceActions.invoiceId,
              rows.map((r) => r.invoice.id),
            ),
          )
          .orderBy(invoiceActions.createdAt)
      : [];
    const zh = c.get('locale') === 'zh-TW';
    return ctx.send(c, {
      data: rows.map(({ invoice, eventNameEn, eventNameZh }) => ({
        ...invoiceView(
          invoice,
          actions.filter((a) => a.invoiceId === invoice.id),
        ),
        id: invoice.id,
        orderId: invoice.orderId,
        orderNo: invoice.merchantOrderNo,
        eventName: zh ? eventNameZh || eventNameEn : eventNameEn,
        buyerName: invoice.buyerName,
        buyerUbn: invoice.buyerUbn,
        buyerEmail: invoice.buyerEmail,
        carrierNumber: invoice.carrierNumber,
        loveCode: invoice.loveCode,
        attempts: invoice.attempts,
        nextAttemptAt: invoice.nextAttemptAt,
        lastError: invoice.lastError,
        createdAt: invoice.createdAt,
      })),
    } satisfies Sendable<Data<AdminInvoice[]>>);
  });

  app.post('/admin/invoices/:invoiceId/retry', money, async (c) => {
    const id = c.req.param('invoiceId');
    if (!isUuid(id) || !(await retryInvoice(deps.db, id, ctx.now()))) throw notFound('Failed invoice');
    return ctx.send(c, { data: { result: 'queued' } });
  });

  app.get('/admin/invoices/export', money, async (c) => {
    const { day } = ctx.validQuery(c, DayQuery);
    const csv = csvOf(await invoicesOfDay(deps.db, day));
    c.header('content-type', 'text/csv; charset=utf-8');
    c.header('content-disposition', `attachment; filename="invoices-${day}.csv"`);
    c.header('cache-control', 'no-store');
    return c.body(csv);
  });

  const settingsView = async () => {
    const edition = await currentEdition(deps.db);
    if (!edition) throw notFound('Current edition');
    const settings = await invoiceSettingsOf(deps.db, edition.id);
    return {
      editionId: edition.id,
      enabled: settings.enabled,
      itemNames: EVENT_TYPES.map((eventType) => ({
        eventType,
        en: settings.itemNames[eventType]?.en ?? '',
        zh: settings.itemNames[eventType]?.zh ?? '',
      })),
      sandbox: deps.invoices?.sandbox ?? true,
    } satisfies Sendable<InvoiceSettings>;
  };

  app.get('/admin/invoice-settings', money, async (c) => ctx.send(c, { data: await settingsView() }));

  app.put('/admin/invoice-settings', money, async (c) => {
    const body = await ctx.readJson(c, SettingsBody);
    const edition = await currentEdition(deps.db);
    if (!edition) throw badRequest('no_current_edition', 'There is no current edition');
    const itemNames = Object.fromEntries(
      body.itemNames.map((n) => [n.eventType, { en: n.en.trim(), zh: n.zh.trim() }]),
    );
    const values = { enabled: body.enabled, itemNames, updatedAt: ctx.now() };
    await deps.db
      .insert(invoiceSettings)
      .values({ editionId: edition.id, ...values })
      .onConflictDoUpdate({ target: invoiceSettings.editionId, set: values });
    return ctx.send(c, { data: await settingsView() });
  });
}
