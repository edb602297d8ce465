/**
 * Bank statement imports (issue 11, transfers screen; decision 026). An organiser uploads the
 * CSV export of the bank account; its lines are read through the column mapping remembered for
 * that format, each credit is matched with the open transfers (domain reconciliation), and the
 * import and every line are stored with their outcome. Nothing is paid until an organiser
 * confirms the matched lines (or assigns one by hand): each payment then goes through the order
 * core (`pay`, an `order_payments` record, the `paid` event naming the line), in its own
 * transaction with the line locked, the amount checked again against the order as it is then.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import {
  columnCountOf,
  decodeStatement,
  detectDelimiter,
  formatSignature,
  lineKeys,
  parseCsv,
  pickMapping,
  readStatement,
  type EncodingChoice,
  type StatementMapping,
} from '@domain/bank-statement';
import type { LineOrder as WireLineOrder } from '@domain/contract';
import { DomainError, notFoundError } from '@domain/errors';
import type { Currency } from '@domain/money';
import { PAYABLE_APPROVALS } from '@domain/order-lifecycle';
import { isTransfer, TRANSFER_TYPES } from '@domain/payments';
import { amountMatches, matchLines, type LineMatch, type OpenTransfer } from '@domain/reconciliation';
import { isUuid } from '@domain/validation';
import type { Db, Tx } from '../db/client';
import { eventNameColumns, ownerColumns, withOrderOwner } from '../db/order-joins';
import { bankImportLines, bankImports, bankStatementMappings, orders } from '../db/schema';
import { lockOrder, type ActorRef, type OrderSet } from '../orders/order-state';
import { payLocked, type PaymentContext } from '../payments/payments';

type LineRow = typeof bankImportLines.$inferSelect;

/** How many records of a file the mapping step shows. */
const PREVIEW_ROWS = 12;

/** Reads a file's records: decoded as chosen (or detected), split into CSV records. */
function recordsOf(bytes: Uint8Array, encoding: EncodingChoice) {
  const decoded = decodeStatement(bytes, encoding);
  const delimiter = detectDelimiter(decoded.text);
  return { ...decoded, delimiter, rows: parseCsv(decoded.text, delimiter) };
}

/** How many columns and lines a file has (checked against a mapping before importing). */
export function statementShape(bytes: Uint8Array, encoding: EncodingChoice) {
  const { rows } = recordsOf(bytes, encoding);
  return { columnCount: columnCountOf(rows), rowCount: rows.length };
}

/**
 * The mapping step: the file's first records, its encoding (detected or as chosen) and the
 * mapping to preselect (the one remembered for this format, else a guess). Writes nothing.
 */
export async function analyzeStatement(db: Db, bytes: Uint8Array, encoding: EncodingChoice) {
  const file = recordsOf(bytes, encoding);
  const saved = await db
    .select({ signature: bankStatementMappings.signature, mapping: bankStatementMappings.mapping })
    .from(bankStatementMappings)
    .orderBy(desc(bankStatementMappings.updatedAt))
    .limit(50);
  const picked = pickMapping(
    file.rows,
    saved.map((s) => ({ signature: s.signature, mapping: s.mapping as StatementMapping })),
  );
  return {
    encoding: file.encoding,
    replaced: file.replaced,
    delimiter: file.delimiter,
    columnCount: columnCountOf(file.rows),
    rowCount: file.rows.length,
    rows: file.rows.slice(0, PREVIEW_ROWS),
    mapping: picked.mapping,
    remembered: picked.remembered,
  };
}

/** The orders a statement line can pay: transfers being checked, and sent back with their details kept. */
async function openTransfers(db: Db | Tx): Promise<OpenTransfer[]> {
  const rows = await db
    .select({
      orderId: orders.id,
      orderNo: orders.orderNo,
      currency: orders.currency,
      amountCents: orders.amountCents,
      lastFiveDigits: orders.lastFiveDigits,
      placedAt: orders.createdAt,
      deadline: orders.paymentExpiresAt,
    })
    .from(orders)
    .where(
      or(
        eq(orders.paymentStatus, 'checking'),
        and(
          eq(orders.paymentStatus, 'pending'),
          isNotNull(orders.lastFiveDigits),
          inArray(orders.paymentType, [...TRANSFER_TYPES]),
          or(sql`${orders.approvalStatus} is null`, eq(orders.approvalStatus, 'approved')),
        ),
      ),
    );
  return rows.map((r) => ({ ...r, currency: r.currency === 'USD' ? 'USD' : 'TWD' }));
}

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * Imports a statement: reads it through `mapping`, recognises lines imported before (their
 * fingerprints), matches the new credits, stores the import and all its lines, and remembers the
 * mapping for the format. Race-free: a line another import stored meanwhile conflicts on its
 * unique fingerprint and is stored as already imported.
 */
export async function importStatement(
  db: Db,
  input: { bytes: Uint8Array; fileName: string; encoding: EncodingChoice; mapping: StatementMapping },
  organiser: string,
  now: Date,
): Promise<string> {
  const file = recordsOf(input.bytes, input.encoding);
  const lines = readStatement(file.rows, input.mapping);
  const fingerprints = lineKeys(lines).map((k) => (k === null ? null : hash(k)));
  const known = new Map<string, string>();
  const wanted = fingerprints.filter((f): f is string => f !== null);
  for (let i = 0; i < wanted.length; i += 1000) {
    const found = await db
      .select({ id: bankImportLines.id, fingerprint: bankImportLines.fingerprint })
      .from(bankImportLines)
      .where(inArray(bankImportLines.fingerprint, wanted.slice(i, i + 1000)));
    for (const f of found) known.set(f.fingerprint!, f.id);
  }
  const fresh = lines.map((_, i) => fingerprints[i] === null || !known.has(fingerprints[i]!));
  const matches = matchLines(
    lines.filter((_, i) => fresh[i]),
    await openTransfers(db),
  );
  let next = 0;
  const outcomes: (LineMatch | null)[] = lines.map((_, i) => (fresh[i] ? matches[next++]! : null));

  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(bankImports)
      .values({
        fileName: input.fileName.slice(0, 255),
        encoding: file.encoding,
        mapping: input.mapping,
        importedBy: organiser,
        createdAt: now,
      })
      .returning({ id: bankImports.id });
    const importId = created!.id;
    const values = lines.map((line, i) => {
      const match = outcomes[i];
      return {
        importId,
        lineNo: line.lineNo,
        fingerprint: match ? fingerprints[i] : null,
        duplicateOf: match ? null : known.get(fingerprints[i]!)!,
        kind: line.kind,
        bookedOn: line.bookedOn,
        amountCents: line.kind === 'unreadable' ? null : line.amountCents,
        currency: line.kind === 'unreadable' ? null : line.currency,
        accountLastFive: line.accountLastFive,
        memo: line.memo.slice(0, 1000),
        cells: line.cells.map((c) => c.slice(0, 500)),
        outcome: match ? match.outcome : ('already_imported' as const),
        reason: match?.reason ?? null,
        candidates: match?.candidates ?? [],
      };
    });
    for (let i = 0; i < values.length; i += 200) {
      const chunk = values.slice(i, i + 200);
      const inserted = await tx
        .insert(bankImportLines)
        .values(chunk)
        .onConflictDoNothing({ target: bankImportLines.fingerprint })
        .returning({ fingerprint: bankImportLines.fingerprint });
      if (inserted.length === chunk.length) continue;
      // Stored by another import meanwhile: already imported.
      const stored = new Set(inserted.map((r) => r.fingerprint));
      const raced = chunk.filter((v) => v.fingerprint && !stored.has(v.fingerprint));
      const originals = await tx
        .select({ id: bankImportLines.id, fingerprint: bankImportLines.fingerprint })
        .from(bankImportLines)
        .where(
          inArray(
            bankImportLines.fingerprint,
            raced.map((v) => v.fingerprint!),
          ),
        );
      const byPrint = new Map(originals.map((o) => [o.fingerprint!, o.id]));
      await tx.insert(bankImportLines).values(
        raced.map((v) => ({
          ...v,
          fingerprint: null,
          duplicateOf: byPrint.get(v.fingerprint!) ?? null,
          outcome: 'already_imported' as const,
          reason: null,
          candidates: [],
        })),
      );
    }
    const signature = formatSignature(file.rows, input.mapping.headerRow, columnCountOf(file.rows));
    await tx
      .insert(bankStatementMappings)
      .values({ signature, mapping: input.mapping, encoding: file.encoding, updatedBy: organiser, updatedAt: now })
      .onConflictDoUpdate({
        target: bankStatementMappings.signature,
        set: { mapping: input.mapping, encoding: file.encoding, updatedBy: organiser, updatedAt: now },
      });
    return importId;
  });
}

const countOf = (outcome: string) =>
  sql<number>`(count(*) filter (where ${bankImportLines.outcome} = ${outcome}))::int`;

/** The latest imports, newest first, with how many lines each has of each outcome. */
export async function listImports(db: Db, limit = 20) {
  return db
    .select({
      id: bankImports.id,
      fileName: bankImports.fileName,
      encoding: bankImports.encoding,
      importedBy: bankImports.importedBy,
      createdAt: bankImports.createdAt,
      lines: sql<number>`count(${bankImportLines.id})::int`,
      matched: countOf('matched'),
      ambiguous: countOf('ambiguous'),
      unmatched: countOf('unmatched'),
      alreadyImported: countOf('already_imported'),
      paid: countOf('paid'),
    })
    .from(bankImports)
    .leftJoin(bankImportLines, eq(bankImportLines.importId, bankImports.id))
    .groupBy(bankImports.id)
    .orderBy(desc(bankImports.createdAt))
    .limit(limit);
}

/** An order as a line shows it (candidates, the order it paid): the wire's, with both event names. */
export type LineOrder = Omit<WireLineOrder, 'eventName'> & { eventNameEn: string; eventNameZh: string };

async function ordersByIds(db: Db, ids: string[]): Promise<Map<string, LineOrder>> {
  if (ids.length === 0) return new Map();
  const rows = await withOrderOwner(
    db
      .select({
        orderId: orders.id,
        orderNo: orders.orderNo,
        ...ownerColumns,
        currency: orders.currency,
        amountCents: orders.amountCents,
        lastFiveDigits: orders.lastFiveDigits,
        paymentStatus: orders.paymentStatus,
        ...eventNameColumns,
      })
      .from(orders)
      .$dynamic(),
  ).where(inArray(orders.id, ids));
  return new Map(rows.map((r) => [r.orderId, r]));
}

/** One import with its lines, the orders they name, and for lines imported before, what became of the first. */
export async function getImport(db: Db, id: string) {
  if (!isUuid(id)) return undefined;
  const [found] = await db.select().from(bankImports).where(eq(bankImports.id, id)).limit(1);
  if (!found) return undefined;
  const lines = await db
    .select()
    .from(bankImportLines)
    .where(eq(bankImportLines.importId, id))
    .orderBy(asc(bankImportLines.lineNo));
  const originalIds = lines.map((l) => l.duplicateOf).filter((x): x is string => !!x);
  const originals = originalIds.length
    ? await db
        .select({ line: bankImportLines, importedAt: bankImports.createdAt, fileName: bankImports.fileName })
        .from(bankImportLines)
        .innerJoin(bankImports, eq(bankImports.id, bankImportLines.importId))
        .where(inArray(bankImportLines.id, originalIds))
    : [];
  const orderIds = new Set<string>();
  for (const l of [...lines, ...originals.map((o) => o.line)]) {
    for (const c of l.candidates as string[]) orderIds.add(c);
    if (l.paidOrderId) orderIds.add(l.paidOrderId);
  }
  return {
    import: found,
    lines,
    originals: new Map(originals.map((o) => [o.line.id, o])),
    orders: await ordersByIds(db, [...orderIds]),
  };
}

export type LinePayment =
  | { lineId: string; lineNo: number; result: 'paid'; orderNo: string }
  | { lineId: string; lineNo: number; result: 'refused'; code: string; message: string };

/** The outcomes a line may still pay an order from. */
const OPEN_OUTCOMES = ['matched', 'ambiguous', 'unmatched'] as const;

/**
 * Pays an order from a statement line, in one transaction: the line locked (one payment per line,
 * even with two organisers at it), the order locked, the line's amount and currency checked
 * against what the order is to pay now (never paid otherwise), then the order core's `pay` with a
 * payment record, the line marked paid with the order and the record.
 */
async function payFromLine(
  db: Db,
  lineId: string,
  order: { orderId: string } | { orderNo: string },
  actor: ActorRef,
  ctx: PaymentContext,
  only?: 'matched',
): Promise<{ orderNo: string }> {
  return db.transaction(async (tx) => {
    const [line] = await tx
      .select({ line: bankImportLines, fileName: bankImports.fileName })
      .from(bankImportLines)
      .innerJoin(bankImports, eq(bankImports.id, bankImportLines.importId))
      .where(eq(bankImportLines.id, lineId))
      .for('update', { of: bankImportLines })
      .limit(1);
    if (!line) throw notFoundError('Line');
    const l: LineRow = line.line;
    if (
      l.kind !== 'credit' ||
      !(OPEN_OUTCOMES as readonly string[]).includes(l.outcome) ||
      (only && l.outcome !== only)
    )
      throw new DomainError('line_not_open');
    const locked = await lockOrder(
      tx,
      'orderId' in order ? eq(orders.id, order.orderId) : eq(orders.orderNo, order.orderNo),
    );
    if (!locked) throw notFoundError('Order');
    const o = locked.order;
    if (o.paymentStatus === 'paid') throw new DomainError('order_paid', 'This order is paid already');
    if (!(PAYABLE_APPROVALS as readonly (string | null)[]).includes(o.approvalStatus))
      throw new DomainError('not_approved');
    const declared = isTransfer(o.paymentType) && (o.paymentStatus === 'checking' || o.lastFiveDigits !== null);
    const lineMoney = { currency: l.currency as Currency, amountCents: l.amountCents! };
    if (
      !amountMatches(lineMoney, {
        declared: declared ? { currency: o.currency === 'USD' ? 'USD' : 'TWD', amountCents: o.amountCents } : null,
        totalTwdCents: o.totalTwdCents,
        totalUsdCents: o.totalUsdCents,
      })
    )
      throw new DomainError('amount_mismatch');
    // Nothing declared (paid without telling us): the statement says how.
    const set: OrderSet = declared
      ? {}
      : {
          paymentType: lineMoney.currency === 'USD' ? 'USD' : 'TWD',
          currency: lineMoney.currency,
          amountCents: lineMoney.amountCents,
          lastFiveDigits: o.lastFiveDigits ?? l.accountLastFive,
        };
    const paymentId = await payLocked(tx, locked, actor, ctx, {
      set,
      payload: {
        source: 'bank_statement',
        importId: l.importId,
        lineId: l.id,
        lineNo: l.lineNo,
        bookedOn: l.bookedOn,
        fileName: line.fileName,
      },
    });
    await tx
      .update(bankImportLines)
      .set({
        outcome: 'paid',
        paidOrderId: o.id,
        orderPaymentId: paymentId,
        paidBy: actor.id ?? actor.kind,
        paidAt: ctx.now,
      })
      .where(eq(bankImportLines.id, l.id));
    return { orderNo: o.orderNo };
  });
}

const refused = (line: { id: string; lineNo: number }, error: unknown): LinePayment => {
  if (!(error instanceof DomainError)) throw error;
  return { lineId: line.id, lineNo: line.lineNo, result: 'refused', code: error.code, message: error.message };
};

/**
 * Confirms the matched lines of an import (all, or those listed), each paying its order in its
 * own transaction: a line whose order changed meanwhile (paid by card, canceled, another amount
 * declared) is refused alone, says why, and stays open.
 */
export async function confirmMatched(
  db: Db,
  importId: string,
  lineIds: string[] | undefined,
  actor: ActorRef,
  ctx: PaymentContext,
): Promise<LinePayment[]> {
  if (!isUuid(importId)) throw notFoundError('Import');
  const [found] = await db.select({ id: bankImports.id }).from(bankImports).where(eq(bankImports.id, importId));
  if (!found) throw notFoundError('Import');
  const lines = await db
    .select({ id: bankImportLines.id, lineNo: bankImportLines.lineNo, candidates: bankImportLines.candidates })
    .from(bankImportLines)
    .where(
      and(
        eq(bankImportLines.importId, importId),
        eq(bankImportLines.outcome, 'matched'),
        lineIds ? inArray(bankImportLines.id, lineIds.filter(isUuid)) : undefined,
      ),
    )
    .orderBy(asc(bankImportLines.lineNo));
  const results: LinePayment[] = [];
  for (const line of lines) {
    const [orderId] = line.candidates as string[];
    try {
      const paid = await payFromLine(db, line.id, { orderId: orderId! }, actor, ctx, 'matched');
      results.push({ lineId: line.id, lineNo: line.lineNo, result: 'paid', orderNo: paid.orderNo });
    } catch (error) {
      results.push(refused(line, error));
    }
  }
  return results;
}

/** Assigns an open line by hand to an order (its number), with the same amount and currency check. */
export async function assignLine(
  db: Db,
  lineId: string,
  orderNo: string,
  actor: ActorRef,
  ctx: PaymentContext,
): Promise<{ orderNo: string }> {
  if (!isUuid(lineId)) throw notFoundError('Line');
  return payFromLine(db, lineId, { orderNo }, actor, ctx);
}
