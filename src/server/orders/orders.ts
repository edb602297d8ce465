import { isUuid } from '@domain/validation';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { events, orderContents, orderPayments, orders, receipts, registrations, virtualAccounts } from '../db/schema';
import { includedBadgeCount, includedBadgeLinks, type IncludedBadgeLink } from '../badges/included-badges';
import { latestCardAttempts } from '../payments/payments';
import { refundsOf } from '../payments/refunds';
import { atmEnabledFor, virtualAccountOf } from '../payments/vacc';

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
  /** One order only: the money that went back (issue 22). */
  refunds?: OrderRefund[];
  /** One order only: whether ATM goes through a virtual account, and the latest one handed out (issue 22). */
  atm?: { virtualAccounts: boolean; account: VirtualAccountRow | undefined };
};
type VirtualAccountRow = typeof virtualAccounts.$inferSelect;

export type OrderRefund = { amountCents: number; currency: string; at: Date; kind: string; reason: string | null };

/**
 * What the wire view of an order reads (api/views.ts orderView): an order list selects these
 * columns only. Its 100 rows of every column were most of what the database sent and the driver
 * parsed for the orders page (decision 060); a column orderView starts to read goes here.
 */
const ORDER_VIEW_COLUMNS = {
  id: orders.id,
  orderNo: orders.orderNo,
  eventId: orders.eventId,
  registrationType: orders.registrationType,
  quantity: orders.quantity,
  paymentStatus: orders.paymentStatus,
  paymentExpiresAt: orders.paymentExpiresAt,
  approvalStatus: orders.approvalStatus,
  rejectedReason: orders.rejectedReason,
  currency: orders.currency,
  amountCents: orders.amountCents,
  paymentType: orders.paymentType,
  totalTwdCents: orders.totalTwdCents,
  totalUsdCents: orders.totalUsdCents,
  unitPriceTwdCents: orders.unitPriceTwdCents,
  unitPriceUsdCents: orders.unitPriceUsdCents,
  remitter: orders.remitter,
  senderBank: orders.senderBank,
  lastFiveDigits: orders.lastFiveDigits,
  transferReturnedMessage: orders.transferReturnedMessage,
  createdAt: orders.createdAt,
} as const;
const EVENT_VIEW_COLUMNS = {
  id: events.id,
  slug: events.slug,
  type: events.type,
  nameEn: events.nameEn,
  nameZh: events.nameZh,
  startTime: events.startTime,
  endAt: events.endAt,
  locationEn: events.locationEn,
  locationZh: events.locationZh,
  formModifyExpiresAt: events.formModifyExpiresAt,
} as const;
const RECEIPT_VIEW_COLUMNS = {
  kind: receipts.kind,
  invoiceTitle: receipts.invoiceTitle,
  unifiedBusinessNumber: receipts.unifiedBusinessNumber,
  carrierType: receipts.carrierType,
  carrierNumber: receipts.carrierNumber,
  loveCode: receipts.loveCode,
} as const;
const CARD_VIEW_COLUMNS = {
  orderId: orderPayments.orderId,
  gatewayStatus: orderPayments.gatewayStatus,
  gatewayMessage: orderPayments.gatewayMessage,
  gatewayAt: orderPayments.gatewayAt,
  createdAt: orderPayments.createdAt,
} as const;

/** An order as its wire view reads it: an OrderRecord has all of this (and more). */
export type OrderViewRecord = {
  order: Pick<OrderRow, keyof typeof ORDER_VIEW_COLUMNS>;
  event: Pick<EventRow, keyof typeof EVENT_VIEW_COLUMNS>;
  receipt: Pick<ReceiptRow, keyof typeof RECEIPT_VIEW_COLUMNS> | null;
  registrationId: string | null;
  card: Pick<CardAttempt, keyof typeof CARD_VIEW_COLUMNS> | undefined;
  contents: OrderContent[];
  includedBadges?: OrderRecord['includedBadges'];
  refunds?: OrderRecord['refunds'];
  atm?: OrderRecord['atm'];
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
  receipt: receipts,
  registrationId: registrations.id,
};

/**
 * Orders with their receipt and registration. The events come by a second query (eventsOf): a
 * list of 100 orders names about ten events, and joining them repeated every event's texts (both
 * languages' descriptions) on every row, which was most of the bytes the database sent.
 */
function baseQuery(db: Db) {
  return db
    .select(orderSelection)
    .from(orders)
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(registrations, eq(registrations.orderId, orders.id));
}

async function eventsOf(db: Db, rows: { order: OrderRow }[]) {
  const ids = [...new Set(rows.map((r) => r.order.eventId))];
  const byId = new Map<string, EventRow>();
  if (ids.length === 0) return byId;
  for (const e of await db.select().from(events).where(inArray(events.id, ids))) byId.set(e.id, e);
  return byId;
}

/** The rows with their events (every order has one: orders.event_id is a foreign key). */
const withEvents = <R extends { order: OrderRow }>(rows: R[], byId: Map<string, EventRow>) =>
  rows.map((r) => ({ ...r, event: byId.get(r.order.eventId)! }));

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

/** Content rows as orders carry them, by order. */
function contentsByOrder(rows: (typeof orderContents.$inferSelect)[]) {
  const byOrder = new Map<string, OrderContent[]>();
  for (const r of rows) {
    const list = byOrder.get(r.orderId) ?? [];
    list.push({ id: r.contentId, titleEn: r.title, titleZh: r.titleZh, genre: r.genre, categoryId: r.categoryId });
    byOrder.set(r.orderId, list);
  }
  return byOrder;
}

/**
 * The four statements of an order list, prepared once per database handle (the SQL is built
 * once; on PostgreSQL each is a named statement, planned once per connection). Each takes the
 * user's id alone, so all four run at once: the page of orders (with the whole list's length as
 * a window count), and the events, works and latest card attempts of all the user's orders (a
 * registrant has a few; more than the page needs is cheaper than a second round trip).
 */
function prepareListStatements(db: Db) {
  const userId = sql.placeholder('userId');
  const mine = db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
  return {
    page: db
      .select({
        order: ORDER_VIEW_COLUMNS,
        receipt: RECEIPT_VIEW_COLUMNS,
        registrationId: registrations.id,
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(orders)
      .leftJoin(receipts, eq(receipts.orderId, orders.id))
      .leftJoin(registrations, eq(registrations.orderId, orders.id))
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt), desc(orders.orderNo))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare('orders_list_page'),
    events: db
      .select(EVENT_VIEW_COLUMNS)
      .from(events)
      .where(
        inArray(events.id, db.selectDistinct({ id: orders.eventId }).from(orders).where(eq(orders.userId, userId))),
      )
      .prepare('orders_list_events'),
    contents: db
      .select()
      .from(orderContents)
      .where(inArray(orderContents.orderId, mine))
      .prepare('orders_list_contents'),
    cards: db
      .selectDistinctOn([orderPayments.orderId], CARD_VIEW_COLUMNS)
      .from(orderPayments)
      .where(and(inArray(orderPayments.orderId, mine), eq(orderPayments.method, 'credit_card')))
      .orderBy(orderPayments.orderId, desc(orderPayments.createdAt), desc(orderPayments.attempt))
      .prepare('orders_list_cards'),
  };
}
const statements = new WeakMap<Db, ReturnType<typeof prepareListStatements>>();
function listStatements(db: Db) {
  let prepared = statements.get(db);
  if (!prepared) statements.set(db, (prepared = prepareListStatements(db)));
  return prepared;
}
/** The caller's orders, newest first, one page at a time. */
export async function listOrders(
  db: Db,
  userId: string,
  page: { limit: number; page: number },
): Promise<{ items: OrderViewRecord[]; total: number }> {
  const q = listStatements(db);
  const [found, eventRows, contentRows, cardRows] = await Promise.all([
    q.page.execute({ userId, limit: page.limit, offset: (page.page - 1) * page.limit }),
    q.events.execute({ userId }),
    q.contents.execute({ userId }),
    q.cards.execute({ userId }),
  ]);
  // The window count is the list's length; a page past the end has no row to carry it.
  const total =
    found[0]?.total ??
    (page.page === 1
      ? 0
      : ((await db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)))[0]?.n ?? 0));
  const byId = new Map(eventRows.map((e) => [e.id, e]));
  const contents = contentsByOrder(contentRows);
  const cards = new Map(cardRows.map((c) => [c.orderId, c]));
  return {
    items: found.map(({ total: _total, ...r }) => ({
      ...r,
      event: byId.get(r.order.eventId)!,
      card: cards.get(r.order.id),
      contents: contents.get(r.order.id) ?? [],
    })),
    total,
  };
}

/** One order of the caller; another user's order is indistinguishable from a missing one. */
export async function findOrder(db: Db, userId: string, orderId: string): Promise<OrderRecord | undefined> {
  if (!isUuid(orderId)) return undefined;
  const [found] = await baseQuery(db)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .limit(1);
  if (!found) return undefined;
  const [row] = withEvents([found], await eventsOf(db, [found]));
  if (!row) return undefined;
  const count = includedBadgeCount(row.event);
  const [contents, cards, links, refunds, atmOn, account] = await Promise.all([
    contentsOf(db, [row.order.id]),
    latestCardAttempts(db, [row.order.id]),
    count > 0 ? includedBadgeLinks(db, row.order.id) : [],
    refundsOf(db, [row.order.id]),
    atmEnabledFor(db, row.order.eventId),
    virtualAccountOf(db, row.order.id),
  ]);
  return {
    ...row,
    atm: { virtualAccounts: atmOn, account },
    refunds: refunds.get(row.order.id) ?? [],
    card: cards.get(row.order.id),
    contents: contents.get(row.order.id) ?? [],
    ...(count > 0 ? { includedBadges: { count, links } } : {}),
  };
}
