import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AdminOrderQuery } from '@domain/admin';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { eventNameColumns, ownerColumns, withOrderOwner } from '../db/order-joins';
import {
  badges,
  events,
  files,
  orderContents,
  orderEvents,
  orderPayments,
  orders,
  receipts,
  registrations,
  users,
} from '../db/schema';
import { CURRENT_EDITION_ID, ofEdition } from '../badges/badge-edition';
import { includedBadgeCount, includedBadgeLinks } from '../badges/included-badges';

/*
 * The back office's view of orders (issue 11): search across every registrant, and one order
 * with everything the registrant submitted, its payments and its history. Reads only: every
 * change goes through the order core's services (order-state, payments).
 */

/** Escapes LIKE's wildcards so a search for "50%" finds "50%". */
const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The company names a registration or badge carries (exhibitor form, badge applicant, printed badge). */
const companyNames = sql<string>`concat_ws(' ',
  ${registrations.form}->>'companyNameEn', ${registrations.form}->>'companyNameZh',
  ${registrations.form}->'applicant'->>'companyNameEn', ${registrations.form}->'applicant'->>'companyNameZh',
  ${badges.companyNameEn}, ${badges.companyNameZh})`;
/** The person's names on the order besides the account's (badge form, exhibitor contact). */
const personNames = sql<string>`concat_ws(' ',
  ${users.name}, ${registrations.form}->'applicant'->>'nameEn', ${registrations.form}->'applicant'->>'nameZh',
  ${registrations.contact}->>'contactName', ${badges.nameEn}, ${badges.nameZh})`;

function searchWhere(query: AdminOrderQuery): SQL | undefined {
  const where: SQL[] = [];
  const q = query.q?.trim();
  if (q) {
    const like = likeText(q);
    where.push(
      or(
        ilike(orders.orderNo, like),
        ilike(users.email, like),
        sql`${personNames} ilike ${like}`,
        sql`${companyNames} ilike ${like}`,
      )!,
    );
  }
  if (query.event) where.push(eq(events.slug, query.event));
  if (query.type) where.push(eq(orders.registrationType, query.type));
  if (query.payment) where.push(eq(orders.paymentStatus, query.payment));
  if (query.approval === 'none') where.push(sql`${orders.approvalStatus} is null`);
  else if (query.approval) where.push(eq(orders.approvalStatus, query.approval));
  return where.length ? and(...where) : undefined;
}

const listSelection = {
  orderId: orders.id,
  orderNo: orders.orderNo,
  registrationType: orders.registrationType,
  paymentStatus: orders.paymentStatus,
  approvalStatus: orders.approvalStatus,
  paymentType: orders.paymentType,
  currency: orders.currency,
  amountCents: orders.amountCents,
  quantity: orders.quantity,
  paymentExpiresAt: orders.paymentExpiresAt,
  createdAt: orders.createdAt,
  ...ownerColumns,
  eventSlug: events.slug,
  eventType: events.type,
  ...eventNameColumns,
  company: companyNames,
};

/** The orders with their account, event, registration and badge: what the search reads. */
function withJoins<T extends PgSelect>(query: T) {
  return withOrderOwner(query)
    .leftJoin(registrations, eq(registrations.orderId, orders.id))
    .leftJoin(badges, eq(badges.orderId, orders.id));
}

/** Orders matching the query, newest first (oldest first with `sort=oldest`), a page at a time. */
export async function searchOrders(db: Db, query: AdminOrderQuery) {
  const limit = query.limit ?? 50;
  const page = query.page ?? 1;
  const where = searchWhere(query);
  const oldest = query.sort === 'oldest';
  const rows = await withJoins(db.select(listSelection).from(orders).$dynamic())
    .where(where)
    .orderBy(
      oldest ? asc(orders.createdAt) : desc(orders.createdAt),
      oldest ? asc(orders.orderNo) : desc(orders.orderNo),
    )
    .limit(limit)
    .offset((page - 1) * limit);
  // A short first page is the whole result: no need to count.
  const total =
    page === 1 && rows.length < limit
      ? rows.length
      : ((await withJoins(db.select({ n: count() }).from(orders).$dynamic()).where(where))[0]?.n ?? 0);
  return { items: rows.map((r) => ({ ...r, company: r.company.trim() || null })), total, page, limit };
}

export type AdminOrderRow = Awaited<ReturnType<typeof searchOrders>>['items'][number];

/** How many orders wait for an organiser, and the current edition's badges, for the back office's home. */
export async function backOfficeCounts(db: Db) {
  const [row] = await db
    .select({
      awaitingApproval: sql<number>`count(*) filter (where ${orders.approvalStatus} in ('pending_approval', 'auditing') and ${orders.paymentStatus} in ('pending', 'free'))`,
      transfersChecking: sql<number>`count(*) filter (where ${orders.paymentStatus} = 'checking')`,
    })
    .from(orders);
  const [refunds] = await db.select({ n: count() }).from(orderPayments).where(eq(orderPayments.status, 'refund_due'));
  // The badge desk's figure: the current edition's badges (a past edition's are not handed out).
  const [pickups] = await db
    .select({
      issued: count(),
      pickedUp: sql<number>`count(${badges.pickedUpAt})`,
    })
    .from(badges)
    .where(ofEdition(badges.editionId, CURRENT_EDITION_ID));
  return {
    awaitingApproval: Number(row?.awaitingApproval ?? 0),
    transfersChecking: Number(row?.transfersChecking ?? 0),
    refundsDue: refunds?.n ?? 0,
    badgesIssued: pickups?.issued ?? 0,
    badgesPickedUp: Number(pickups?.pickedUp ?? 0),
  };
}

/** The file ids a stored form names (`personalPhotoFileId`, `companyLogoFileId`, `storyOutlineFileId`…). */
function fileIdsOf(form: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key.endsWith('FileId') && typeof v === 'string') out.push(v);
      else if (typeof v === 'object') walk(v);
    }
  };
  walk(form);
  return out;
}

/** One order with everything the back office shows: who, what they submitted, money, history. */
export async function adminOrder(db: Db, orderNo: string) {
  const [row] = await withOrderOwner(
    db
      .select({
        order: orders,
        event: events,
        user: { id: users.id, email: users.email, name: users.name },
        receipt: receipts,
        registration: registrations,
        badge: badges,
      })
      .from(orders)
      .$dynamic(),
  )
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(registrations, eq(registrations.orderId, orders.id))
    .leftJoin(badges, eq(badges.orderId, orders.id))
    .where(eq(orders.orderNo, orderNo))
    .limit(1);
  if (!row) return undefined;
  const id = row.order.id;
  const fileIds = [
    ...new Set([
      ...fileIdsOf(row.registration?.form),
      ...(row.badge?.personalPhotoFileId ? [row.badge.personalPhotoFileId] : []),
    ]),
  ];
  const linkCount = includedBadgeCount(row.event);
  const [contents, payments, history, fileRows, links] = await Promise.all([
    db.select().from(orderContents).where(eq(orderContents.orderId, id)),
    db.select().from(orderPayments).where(eq(orderPayments.orderId, id)).orderBy(asc(orderPayments.createdAt)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id)),
    fileIds.length
      ? db
          .select({
            id: files.id,
            name: files.name,
            contentType: files.contentType,
            size: files.size,
            purpose: files.purpose,
          })
          .from(files)
          .where(inArray(files.id, fileIds))
      : Promise.resolve([]),
    linkCount > 0 ? includedBadgeLinks(db, id) : Promise.resolve([]),
  ]);
  return { ...row, contents, payments, history, files: fileRows, includedLinks: links };
}

export type AdminOrder = NonNullable<Awaited<ReturnType<typeof adminOrder>>>;

/** A file the back office may open: any file an order names (organisers see what was submitted). */
export async function adminFile(db: Db, id: string) {
  const [row] = await db.select().from(files).where(eq(files.id, id)).limit(1);
  return row;
}
