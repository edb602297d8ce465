import { isUuid } from '@domain/validation';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { events, orderContents, orderPayments, orders, receipts, registrations } from '../db/schema';
import { includedBadgeCount, includedBadgeLinks, type IncludedBadgeLink } from './included-badges';
import { latestCardAttempts } from './payments';

type OrderRow = typeof orders.$inferSelect;
type EventRow = typeof events.$inferSelect;
type CardAttempt = typeof orderPayments.$inferSelect;
type ReceiptRow = typeof receipts.$inferSelect;

/** An order with what its views need: event, receipt, registration, latest card attempt, works. */
export type OrderRecord = {
  order: OrderRow;
  event: EventRow;
  receipt: ReceiptRow | null;
  registrationId: string | null;
  card: CardAttempt | undefined;
  contents: OrderContent[];
  /** One order only (never in lists): the badges it includes and their one-time links. */
  includedBadges?: { count: number; links: IncludedBadgeLink[] };
};

/** A work on an order, as it was when the order was placed. */
export type OrderContent = {
  id: string;
  titleEn: string;
  titleZh: string;
  genre: string | null;
  categoryId: number | null;
};

const orderSelection = {
  order: orders,
  event: events,
  receipt: receipts,
  registrationId: registrations.id,
};

function baseQuery(db: Db) {
  return db
    .select(orderSelection)
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(registrations, eq(registrations.orderId, orders.id));
}

async function contentsOf(db: Db, orderIds: string[]) {
  const byOrder = new Map<string, OrderContent[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db.select().from(orderContents).where(inArray(orderContents.orderId, orderIds));
  for (const r of rows) {
    const list = byOrder.get(r.orderId) ?? [];
    list.push({ id: r.contentId, titleEn: r.title, titleZh: r.titleZh, genre: r.genre, categoryId: r.categoryId });
    byOrder.set(r.orderId, list);
  }
  return byOrder;
}

/** The caller's orders, newest first, one page at a time. */
export async function listOrders(
  db: Db,
  userId: string,
  page: { limit: number; page: number },
): Promise<{ items: OrderRecord[]; total: number }> {
  const rows = await baseQuery(db)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.orderNo))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  // A short first page is the whole list: no need to count.
  const total =
    page.page === 1 && rows.length < page.limit
      ? rows.length
      : ((await db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)))[0]?.n ?? 0);
  const ids = rows.map((r) => r.order.id);
  const [contents, cards] = await Promise.all([contentsOf(db, ids), latestCardAttempts(db, ids)]);
  return {
    items: rows.map((r) => ({ ...r, card: cards.get(r.order.id), contents: contents.get(r.order.id) ?? [] })),
    total,
  };
}

/** One order of the caller; another user's order is indistinguishable from a missing one. */
export async function findOrder(db: Db, userId: string, orderId: string): Promise<OrderRecord | undefined> {
  if (!isUuid(orderId)) return undefined;
  const [row] = await baseQuery(db)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .limit(1);
  if (!row) return undefined;
  const count = includedBadgeCount(row.event);
  const [contents, cards, links] = await Promise.all([
    contentsOf(db, [row.order.id]),
    latestCardAttempts(db, [row.order.id]),
    count > 0 ? includedBadgeLinks(db, row.order.id) : [],
  ]);
  return {
    ...row,
    card: cards.get(row.order.id),
    contents: contents.get(row.order.id) ?? [],
    ...(count > 0 ? { includedBadges: { count, links } } : {}),
  };
}
