import type { Context } from 'hono';
import type {
  Data,
  ImportConfirmed,
  ImportSummary,
  ImportView,
  LineAssigned,
  CardRefunded,
  CardRefundPreview,
  EditionPaymentSettings,
  RefundRecorded,
  RefundRow,
  Sendable,
  StatementPreview,
  TransferReturned,
  TransferRow,
} from '@domain/contract';
import { array, boolean, integer, nullable, object, optional, refine, size, string } from 'superstruct';
import { eq } from 'drizzle-orm';
import { editions } from '../../db/schema';
import { currentEdition } from '../../editions/editions';
import { audit } from '../../audit/audit';
import { atmSetting } from '../../payments/vacc';
import { DomainError } from '@domain/errors';
import {
  ENCODING_CHOICES,
  StatementMapping,
  columnCountOf,
  mappedColumns,
  type EncodingChoice,
} from '@domain/bank-statement';
import { camelize } from '@domain/case';
import { check, hasNul, isUuid } from '@domain/validation';
import type { Locale } from '@i18n/locales';
import {
  analyzeStatement,
  assignLine,
  confirmMatched,
  getImport,
  importStatement,
  listImports,
  statementShape,
  type LineOrder,
} from '../../reconciliation/bank-imports';
import { listRefundsDue, markRefunded } from '../../payments/payments';
import { returnTransfer, transfersBeingChecked } from '../../reconciliation/transfers';
import { requireRight } from './admin';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { readMultipart } from '../multipart';
import { withEventName, withEventNames } from '../views';
import { organiserActor } from './admin-approvals';
import { cardRefundPreview, refundCardPayment } from '../../payments/refunds';

const Message = object({ message: size(string(), 1, 2000) });
const Reference = object({ reference: size(string(), 1, 200) });
const Confirm = object({ lineIds: optional(size(array(string()), 0, 10_000)) });
const PaymentSettings = object({ atmEnabled: nullable(boolean()) });
const Assign = object({ orderNo: size(string(), 1, 40) });
/** Whole TWD in cents (the gateway takes whole dollars), at most a card payment's size. */
const CardRefund = object({
  amountCents: optional(refine(integer(), 'whole TWD', (n) => n >= 100 && n <= 100_000_000 && n % 100 === 0)),
  reason: size(string(), 1, 500),
});

/** A statement file sent as multipart/form-data (`file`, `encoding`, and `mapping` as JSON when importing). */
async function readStatementForm(c: Context<Env>) {
  const form = await readMultipart(c);
  const file = form.file;
  if (!(file instanceof File)) throw badRequest('validation_failed', 'file: a file part is required');
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length === 0) throw badRequest('empty_statement', 'The file is empty');
  // A spreadsheet or any other binary file: ask for the CSV export (UTF-16 text keeps its NULs).
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe;
  if ((bytes[0] === 0x50 && bytes[1] === 0x4b) || (!utf16 && bytes.includes(0)))
    throw badRequest('not_csv', 'This is not a CSV text file: export the statement as CSV');
  const encoding = (typeof form.encoding === 'string' && form.encoding ? form.encoding : 'auto') as EncodingChoice;
  if (!(ENCODING_CHOICES as readonly string[]).includes(encoding))
    throw badRequest('validation_failed', `encoding: expected one of ${ENCODING_CHOICES.join(', ')}`, {
      issues: [{ path: 'encoding', message: `Expected one of ${ENCODING_CHOICES.join(', ')}` }],
    });
  const name = file.name && !hasNul(file.name) ? file.name : 'statement.csv';
  return { bytes, encoding, fileName: name, mapping: form.mapping };
}

/** The mapping part of an import: JSON (snake_case), validated by the domain's struct. */
function readMapping(raw: unknown) {
  if (typeof raw !== 'string') throw badRequest('validation_failed', 'mapping: the column mapping is required');
  let parsed: unknown;
  try {
    parsed = camelize(JSON.parse(raw));
  } catch {
    throw badRequest('invalid_json', 'mapping: not valid JSON');
  }
  const result = check(parsed, StatementMapping);
  if (!result.ok) {
    const issues = result.issues.map((i) => ({ path: `mapping.${i.path}`, message: i.message }));
    throw badRequest('validation_failed', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
  }
  return result.value;
}

/**
 * The money side of the back office (issue 11): transfers being checked (mark paid is
 * `/admin/orders/{orderNo}/mark-paid`; send back with a message here), bank statement imports
 * (decision 026) and refunds due. Registered after `adminRoutes`, whose `/admin/*` gate
 * (organisers only: 401 visitor, 403 registrant) runs before these handlers. Every change goes
 * through the order core with the organiser as actor.
 */
export function adminTransferRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;

  app.get('/admin/transfers', requireRight('money'), async (c) => {
    const data = withEventNames(await transfersBeingChecked(deps.db), c.get('locale'));
    return ctx.send(c, { data } satisfies Sendable<Data<TransferRow[]>>);
  });

  app.post('/admin/orders/:orderNo/return-transfer', requireRight('money'), async (c) => {
    const body = await ctx.readJson(c, Message);
    if (!body.message.trim()) throw badRequest('reason_required', 'Write the message to the registrant');
    const orderNo = c.req.param('orderNo');
    const order = await returnTransfer(deps.db, orderNo, body.message, ctx.orderCtx(), organiserActor(c));
    return ctx.send(c, {
      data: { orderNo, result: 'returned', paymentExpiresAt: order.paymentExpiresAt },
    } satisfies Sendable<Data<TransferReturned>>);
  });

  // ---- Bank statement imports ------------------------------------------------------------------
  app.post('/admin/bank-imports/preview', requireRight('money'), async (c) => {
    const form = await readStatementForm(c);
    return ctx.send(c, {
      data: { fileName: form.fileName, ...(await analyzeStatement(deps.db, form.bytes, form.encoding)) },
    } satisfies Sendable<Data<StatementPreview>>);
  });

  app.post('/admin/bank-imports', requireRight('money'), async (c) => {
    const form = await readStatementForm(c);
    const mapping = readMapping(form.mapping);
    // A mapping made for another file (its columns beyond this one's) would read nothing.
    const shape = statementShape(form.bytes, form.encoding);
    if (mappedColumns(mapping).some((n) => n >= shape.columnCount) || mapping.headerRow > shape.rowCount)
      throw badRequest(
        'mapping_out_of_range',
        `The mapping names columns or a header line this file does not have (${shape.columnCount} columns, ${shape.rowCount} lines)`,
      );
    const id = await importStatement(
      deps.db,
      { bytes: form.bytes, fileName: form.fileName, encoding: form.encoding, mapping },
      c.get('user').email,
      ctx.now(),
    );
    return ctx.send(c, { data: await importView(id, c.get('locale')) } satisfies Sendable<Data<ImportView>>, 201);
  });

  app.get('/admin/bank-imports', requireRight('money'), async (c) =>
    ctx.send(c, { data: await listImports(deps.db) } satisfies Sendable<Data<ImportSummary[]>>),
  );

  app.get('/admin/bank-imports/:importId', requireRight('money'), async (c) => {
    const view = await importView(c.req.param('importId'), c.get('locale'));
    return ctx.send(c, { data: view } satisfies Sendable<Data<ImportView>>);
  });

  // Confirms the matched lines (all of the import's, or those listed): every line's outcome.
  app.post('/admin/bank-imports/:importId/confirm', requireRight('money'), async (c) => {
    const body = await ctx.readJson(c, Confirm);
    const results = await confirmMatched(
      deps.db,
      c.req.param('importId'),
      body.lineIds,
      organiserActor(c),
      ctx.orderCtx(),
    );
    const paid = results.filter((r) => r.result === 'paid').length;
    return ctx.send(c, {
      data: results,
      meta: { paid, refused: results.length - paid },
    } satisfies Sendable<ImportConfirmed>);
  });

  app.post('/admin/bank-lines/:lineId/assign', requireRight('money'), async (c) => {
    const body = await ctx.readJson(c, Assign);
    const paid = await assignLine(
      deps.db,
      c.req.param('lineId'),
      body.orderNo.trim(),
      organiserActor(c),
      ctx.orderCtx(),
    );
    return ctx.send(c, {
      data: { lineId: c.req.param('lineId'), result: 'paid', orderNo: paid.orderNo },
    } satisfies Sendable<Data<LineAssigned>>);
  });

  // ---- Refunds due ------------------------------------------------------------------------------
  app.get('/admin/refunds', requireRight('money'), async (c) => {
    const data = withEventNames(await listRefundsDue(deps.db), c.get('locale'));
    return ctx.send(c, { data } satisfies Sendable<Data<RefundRow[]>>);
  });

  // A card payment refunded through NewebPay (issue 22): cancel before settlement, refund after;
  // a payment owed back or a paid one (the organiser's goodwill), in part where the gateway allows.
  app.post('/admin/payments/:paymentId/refund', requireRight('money'), async (c) => {
    const body = await ctx.readJson(c, CardRefund);
    if (!body.reason.trim()) throw badRequest('reason_required', 'reason: give the refund’s reason');
    if (!deps.gateway.api) throw new DomainError('gateway_unavailable');
    const result = await refundCardPayment(
      deps.db,
      deps.gateway.api,
      { paymentId: c.req.param('paymentId'), amountCents: body.amountCents, reason: body.reason.trim() },
      ctx.orderCtx(),
      organiserActor(c),
    );
    return ctx.send(c, { data: result } satisfies Sendable<Data<CardRefunded>>);
  });

  // What a card refund would do, for the back office's confirm dialog (issue 22).
  app.get('/admin/payments/:paymentId/refund-preview', requireRight('money'), async (c) =>
    ctx.send(c, {
      data: await cardRefundPreview(deps.db, deps.gateway.api, c.req.param('paymentId'), ctx.now()),
    } satisfies Sendable<Data<CardRefundPreview>>),
  );

  // The current edition's payment settings (issue 22): ATM through NewebPay virtual accounts.
  // Read by every role that reads the edition page; changed with `edition`, in the audit trail.
  app.get('/admin/editions/current/payment-settings', requireRight('read'), async (c) =>
    ctx.send(c, { data: await paymentSettings() } satisfies Sendable<Data<EditionPaymentSettings>>),
  );
  app.put('/admin/editions/current/payment-settings', requireRight('edition'), async (c) => {
    const body = await ctx.readJson(c, PaymentSettings);
    const edition = await currentEdition(deps.db);
    if (!edition) throw notFound('Edition');
    await deps.db.transaction(async (tx) => {
      await tx
        .update(editions)
        .set({ atmEnabled: body.atmEnabled, updatedAt: ctx.now() })
        .where(eq(editions.id, edition.id));
      await audit(tx, {
        actor: c.get('user').email,
        action: 'edition.payment_settings',
        subject: edition.slug,
        detail: { atmEnabled: body.atmEnabled },
      });
    });
    return ctx.send(c, { data: await paymentSettings() } satisfies Sendable<Data<EditionPaymentSettings>>);
  });
  async function paymentSettings() {
    const edition = await currentEdition(deps.db);
    if (!edition) throw notFound('Edition');
    return {
      editionId: edition.id,
      atmEnabled: edition.atmEnabled,
      atmVirtualAccounts: atmSetting(edition.atmEnabled),
    };
  }

  app.post('/admin/refunds/:paymentId/refunded', requireRight('money'), async (c) => {
    const body = await ctx.readJson(c, Reference);
    if (!body.reference.trim()) throw badRequest('reference_required', 'Give the refund reference');
    const record = await markRefunded(
      deps.db,
      c.req.param('paymentId'),
      ctx.orderCtx(),
      organiserActor(c),
      body.reference,
    );
    return ctx.send(c, {
      data: { paymentId: record.id, result: 'refunded', refundReference: record.refundReference },
    } satisfies Sendable<Data<RefundRecorded>>);
  });

  /** One import as the back office shows it: its lines, the orders they name, what became of lines seen before. */
  async function importView(id: string, locale: Locale) {
    const found = isUuid(id) ? await getImport(deps.db, id) : undefined;
    if (!found) throw notFound('Import');
    const orderView = (orderId: string | null) => {
      const o: LineOrder | undefined = orderId ? found.orders.get(orderId) : undefined;
      if (!o) return null;
      return withEventName(o, locale);
    };
    const counts: Record<string, number> = {};
    for (const l of found.lines) counts[l.outcome] = (counts[l.outcome] ?? 0) + 1;
    return {
      id: found.import.id,
      fileName: found.import.fileName,
      encoding: found.import.encoding,
      importedBy: found.import.importedBy,
      createdAt: found.import.createdAt,
      mapping: found.import.mapping,
      columnCount: columnCountOf(found.lines.map((l) => l.cells as string[])),
      counts,
      lines: found.lines.map((l) => {
        const original = l.duplicateOf ? found.originals.get(l.duplicateOf) : undefined;
        return {
          id: l.id,
          lineNo: l.lineNo,
          kind: l.kind,
          bookedOn: l.bookedOn,
          amountCents: l.amountCents,
          currency: l.currency,
          accountLastFive: l.accountLastFive,
          memo: l.memo,
          cells: l.cells,
          outcome: l.outcome,
          reason: l.reason,
          candidates: (l.candidates as string[]).map(orderView).filter((o) => o !== null),
          paidOrder: orderView(l.paidOrderId),
          paidBy: l.paidBy,
          paidAt: l.paidAt,
          original: original && {
            importId: original.line.importId,
            fileName: original.fileName,
            importedAt: original.importedAt,
            lineNo: original.line.lineNo,
            outcome: original.line.outcome,
            paidOrder: orderView(original.line.paidOrderId),
          },
        };
      }),
    };
  }
}
