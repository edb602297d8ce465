import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { ALL_FIELDS } from '@domain/kinds';
import type { Db } from '../db/client';
import { eventNameColumns, withOrderOwner } from '../db/order-joins';
import { badges, events, files, orderContents, orders, receipts, registrations, users } from '../db/schema';

/*
 * What the exports read, a page at a time in a stable order (keyset pagination on the creation
 * time and id, so a page costs the same at the end of a long export as at its start, and rows
 * added meanwhile do not shift the pages). Nothing is read until the file's consumer asks for
 * the next page.
 */

/** Rows per database page. */
export const EXPORT_PAGE = 500;

/** An event, or every event. */
export type ExportScope = { eventId: string | null };

type Cursor = { at: string; id: string };

/**
 * Reads pages of `read(after)` until one is short. `read` orders by (created_at, id) and returns
 * each row's position as text (`cursorAt`, the timestamp to the microsecond, which a JS Date
 * would round) and `cursorId`.
 */
async function* keyset<R extends { cursorAt: string; cursorId: string }>(
  read: (after: Cursor | null) => Promise<R[]>,
): AsyncGenerator<R[]> {
  let after: Cursor | null = null;
  for (;;) {
    const rows = await read(after);
    if (rows.length) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursorAt, id: last.cursorId };
  }
}

/** The table whose (created_at, id) orders an export's pages. */
type KeysetKey = { createdAt: AnyPgColumn; id: AnyPgColumn };

/** The columns `keyset` reads each row's position from. */
const cursorColumns = (key: KeysetKey) => ({
  cursorAt: sql<string>`${key.createdAt}::text`,
  cursorId: sql<string>`${key.id}::text`,
});

/** One page of `query`: the scope's rows after the cursor, in `key`'s order. */
function pageOf<T extends PgSelect>(query: T, key: KeysetKey, scope: ExportScope, cursor: Cursor | null) {
  return query
    .where(
      and(
        scope.eventId ? eq(orders.eventId, scope.eventId) : undefined,
        cursor ? sql`(${key.createdAt}, ${key.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(key.createdAt), asc(key.id))
    .limit(EXPORT_PAGE);
}

/** The registrant's name: the account's, else the badge applicant's, else the exhibitor contact's. */
const personName = sql<string | null>`coalesce(nullif(${users.name}, ''),
  nullif(${registrations.form}->'applicant'->>'nameEn', ''), nullif(${registrations.contact}->>'contactName', ''))`;
/** The company an order names (exhibitor form, badge applicant), English first. */
const companyName = sql<string | null>`coalesce(nullif(${registrations.form}->>'companyNameEn', ''),
  nullif(${registrations.form}->>'companyNameZh', ''),
  nullif(${registrations.form}->'applicant'->>'companyNameEn', ''),
  nullif(${registrations.form}->'applicant'->>'companyNameZh', ''))`;

/** Orders, oldest first. */
export function orderRows(db: Db, scope: ExportScope) {
  return keyset((cursor) =>
    pageOf(
      withOrderOwner(
        db
          .select({
            ...cursorColumns(orders),
            order: orders,
            email: users.email,
            name: personName,
            company: companyName,
            ...eventNameColumns,
            receiptKind: receipts.kind,
            invoiceTitle: receipts.invoiceTitle,
            ubn: receipts.unifiedBusinessNumber,
          })
          .from(orders)
          .$dynamic(),
      )
        .leftJoin(registrations, eq(registrations.orderId, orders.id))
        .leftJoin(receipts, eq(receipts.orderId, orders.id)),
      orders,
      scope,
      cursor,
    ),
  );
}
/** A row of the pages an export reads. */
type RowOf<G> = G extends AsyncGenerator<(infer R)[]> ? R : never;
export type OrderExportRow = RowOf<ReturnType<typeof orderRows>>;

/** Registrations (orders with a stored form), oldest first, with their works and the names of their files. */
export async function* registrationRows(db: Db, scope: ExportScope) {
  const pages = keyset((cursor) =>
    pageOf(
      withOrderOwner(
        db
          .select({
            ...cursorColumns(orders),
            orderId: orders.id,
            orderNo: orders.orderNo,
            registrationType: orders.registrationType,
            paymentStatus: orders.paymentStatus,
            approvalStatus: orders.approvalStatus,
            createdAt: orders.createdAt,
            eventType: events.type,
            ...eventNameColumns,
            email: users.email,
            name: personName,
            form: registrations.form,
            contact: registrations.contact,
            formUpdatedAt: registrations.updatedAt,
          })
          .from(orders)
          .$dynamic(),
      ).innerJoin(registrations, eq(registrations.orderId, orders.id)),
      orders,
      scope,
      cursor,
    ),
  );
  for await (const page of pages) {
    const ids = page.map((r) => r.orderId);
    const works = await db
      .select({ orderId: orderContents.orderId, title: orderContents.title, titleZh: orderContents.titleZh })
      .from(orderContents)
      .where(inArray(orderContents.orderId, ids))
      .orderBy(asc(orderContents.orderId), asc(orderContents.contentId));
    const fileIds = [...new Set(page.flatMap((r) => fileIdsOf(r.form)))];
    const names = fileIds.length
      ? await db.select({ id: files.id, name: files.name }).from(files).where(inArray(files.id, fileIds))
      : [];
    const fileNames = new Map(names.map((f) => [f.id, f.name]));
    yield page.map((r) => ({
      ...r,
      form: (r.form ?? {}) as Record<string, unknown>,
      contact: (r.contact ?? {}) as Record<string, unknown>,
      works: works.filter((w) => w.orderId === r.orderId),
      fileNames,
    }));
  }
}
export type RegistrationExportRow = RowOf<ReturnType<typeof registrationRows>>;

/** The file ids a stored form names (`personalPhotoFileId`, `companyLogoFileId`, …), nested ones too. */
function fileIdsOf(form: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key.endsWith('FileId') && typeof v === 'string' && /^[0-9a-f-]{36}$/i.test(v)) out.push(v);
      else if (typeof v === 'object') walk(v);
    }
  };
  walk(form);
  return out;
}

/**
 * What the registrations of the scope need as columns: the event types they come from (each
 * kind's form sections) and the longest of each list the kinds store (numbered columns: copyright
 * contacts, team members, companies), read once before the first row so the header row can be
 * written first.
 */
export async function registrationShape(db: Db, scope: ExportScope) {
  const length = (key: string) =>
    sql<number>`coalesce(max(case when jsonb_typeof(${registrations.form}->${key}) = 'array'
      then jsonb_array_length(${registrations.form}->${key}) else 0 end), 0)`;
  const lists = ALL_FIELDS.filter((f) => f.kind === 'list').map((f) => f.key);
  const rows = await db
    .select({ type: events.type, ...Object.fromEntries(lists.map((key) => [key, length(key)])) })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(scope.eventId ? eq(orders.eventId, scope.eventId) : undefined)
    .groupBy(events.type);
  return {
    types: rows.map((r) => r.type),
    /** The longest of each list, by its key. */
    lists: Object.fromEntries(
      lists.map((key) => [key, Math.max(0, ...rows.map((r) => Number((r as Record<string, unknown>)[key])))]),
    ) as Record<string, number>,
  };
}
export type RegistrationShape = Awaited<ReturnType<typeof registrationShape>>;

/** Badges, oldest first, with their order and holder. */
export function badgeRows(db: Db, scope: ExportScope) {
  return keyset((cursor) =>
    pageOf(
      db
        .select({
          ...cursorColumns(badges),
          badge: badges,
          orderNo: orders.orderNo,
          paymentStatus: orders.paymentStatus,
          ...eventNameColumns,
          email: users.email,
          accountName: users.name,
        })
        .from(badges)
        .innerJoin(orders, eq(orders.id, badges.orderId))
        .innerJoin(events, eq(events.id, orders.eventId))
        .innerJoin(users, eq(users.id, badges.userId))
        .$dynamic(),
      badges,
      scope,
      cursor,
    ),
  );
}
export type BadgeExportRow = RowOf<ReturnType<typeof badgeRows>>;
