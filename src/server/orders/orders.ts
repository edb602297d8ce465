import { isUuid } from '@domain/validation';
import { and, eq, getTableName, inArray, sql } from 'drizzle-orm';
import { PgTimestamp, type PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import {
  editions,
  events,
  orderContents,
  orderPayments,
  orders,
  receipts,
  registrations,
  users,
  virtualAccounts,
} from '../db/schema';
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
  /** One order only: its event's edition (slug; null: none), whose pick-up schedule it shows (decision 068). */
  editionSlug?: string | null;
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
  editionSlug?: OrderRecord['editionSlug'];
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

/** Columns of one table as the list's JSON carries them: in this order, positionally. */
type Columns = Record<string, PgColumn>;

/**
 * One row of `columns` as a JSON array, timestamps as epoch milliseconds (a JSON number; turned
 * back into the `Date` drizzle would have made, truncated to the millisecond as drizzle's is).
 */
const jsonColumns = (columns: Columns) =>
  Object.values(columns)
    .map((c) => {
      const name = `${getTableName(c.table)}.${c.name}`;
      return c instanceof PgTimestamp ? `floor(extract(epoch from ${name}) * 1000)::int8` : name;
    })
    .join(', ');
const jsonRow = (columns: Columns) => sql.raw(`json_build_array(${jsonColumns(columns)})`);

/** The reader of jsonRow's arrays: an object of `columns`' keys (`offset`: where they start in the array). */
function rowReader<T>(columns: Columns, offset = 0): (row: unknown[]) => T {
  const keys = Object.keys(columns);
  const dates = Object.values(columns).map((c) => c instanceof PgTimestamp);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = row[offset + i];
      out[keys[i]!] = dates[i] && value !== null ? new Date(value as number) : value;
    }
    return out as T;
  };
}

/** An order's content (a work, a project) as the order views and the directory read it. */
export const CONTENT_COLUMNS = {
  orderId: orderContents.orderId,
  id: orderContents.contentId,
  titleEn: orderContents.title,
  titleZh: orderContents.titleZh,
  genre: orderContents.genre,
  categoryId: orderContents.categoryId,
} as const;

const ORDER_WIDTH = Object.keys(ORDER_VIEW_COLUMNS).length;
const RECEIPT_WIDTH = Object.keys(RECEIPT_VIEW_COLUMNS).length;
const readOrder = rowReader<OrderViewRecord['order']>(ORDER_VIEW_COLUMNS);
const readReceipt = rowReader<NonNullable<OrderViewRecord['receipt']>>(RECEIPT_VIEW_COLUMNS, ORDER_WIDTH);
const readEvent = rowReader<OrderViewRecord['event']>(EVENT_VIEW_COLUMNS);
const readContent = rowReader<OrderContent & { orderId: string }>(CONTENT_COLUMNS);
const readCard = rowReader<NonNullable<OrderViewRecord['card']>>(CARD_VIEW_COLUMNS);

/** What the list's one statement answers: its text is one JSON document. */
type ListDocument = {
  total: number;
  /** Per order: ORDER_VIEW_COLUMNS, then RECEIPT_VIEW_COLUMNS, then whether it has a receipt, then the registration id. */
  orders: unknown[][] | null;
  events: unknown[][] | null;
  contents: unknown[][] | null;
  cards: unknown[][] | null;
};

/**
 * An order list in ONE statement answering ONE JSON text (decision 067): the page of orders with
 * their receipts and registrations, the events they name, their works and their latest card
 * attempts, and the length of the whole list. Four statements of rows cost a field each to the
 * driver (PGlite copies every field of a row on its own, `pg` parses each); one text field is one
 * copy and one `JSON.parse`. Prepared once per database handle (on PostgreSQL a named statement,
 * planned once per connection). The rows are arrays in the columns' order (jsonRow) to keep the
 * text short; rowReader turns them back into the objects the four statements answered.
 */
function prepareListStatement(db: Db) {
  const userId = () => sql.placeholder('userId');
  // The page as a window over the user's orders, newest first (orders_user_created_idx), with
  // the orders' columns and the length of the whole list (a window's count is taken before the
  // limit): read once, not looked up again by id nor counted by a second scan (decision 069).
  // Names are written out: the tables' own names, so that jsonRow's columns resolve in each
  // subquery (the page's orders are read as `orders`).
  const document = sql<string>`(with page as (
      select o.*, count(*) over () as list_total,
        row_number() over (order by o.created_at desc, o.order_no desc) as n
      from orders o where o.user_id = ${userId()}
      order by o.created_at desc, o.order_no desc
      limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}
    )
    select json_build_object(
      -- A page past the end has no rows to carry the length: then it is counted.
      'total', coalesce((select max(list_total) from page),
          (select count(*) from orders o where o.user_id = ${userId()})),
      'orders', (select json_agg(json_build_array(
            ${sql.raw(jsonColumns(ORDER_VIEW_COLUMNS))}, ${sql.raw(jsonColumns(RECEIPT_VIEW_COLUMNS))}, receipts.order_id is not null,
            registrations.id) order by orders.n)
          from page as orders
          left join receipts on receipts.order_id = orders.id
          left join registrations on registrations.order_id = orders.id),
      'events', (select json_agg(${jsonRow(EVENT_VIEW_COLUMNS)}) from events
          where events.id in (select event_id from page)),
      'contents', (select json_agg(${jsonRow(CONTENT_COLUMNS)}) from order_contents
          where order_contents.order_id in (select id from page)),
      'cards', (select json_agg(${jsonRow(CARD_VIEW_COLUMNS)}) from (
          select distinct on (p.order_id) p.* from order_payments p
          where p.order_id in (select id from page) and p.method = 'credit_card'
          order by p.order_id, p.created_at desc, p.attempt desc) as order_payments)
    )::text)`;
  return db.select({ document }).from(users).where(eq(users.id, userId())).prepare('orders_list_json');
}
const statements = new WeakMap<Db, ReturnType<typeof prepareListStatement>>();
function listStatement(db: Db) {
  let prepared = statements.get(db);
  if (!prepared) statements.set(db, (prepared = prepareListStatement(db)));
  return prepared;
}
/** The caller's orders, newest first, one page at a time. */
export async function listOrders(
  db: Db,
  userId: string,
  page: { limit: number; page: number },
): Promise<{ items: OrderViewRecord[]; total: number }> {
  const [row] = await listStatement(db).execute({ userId, limit: page.limit, offset: (page.page - 1) * page.limit });
  if (!row) return { items: [], total: 0 };
  // A row's JSON holds the wire view's nested arrays of at most a page: JSON.parse is bounded.
  const found = JSON.parse(row.document) as ListDocument;
  const byId = new Map<string, OrderViewRecord['event']>();
  for (const e of found.events ?? []) {
    const event = readEvent(e);
    byId.set(event.id, event);
  }
  const contents = new Map<string, OrderContent[]>();
  for (const c of found.contents ?? []) {
    const { orderId, ...content } = readContent(c);
    const list = contents.get(orderId) ?? [];
    list.push(content);
    contents.set(orderId, list);
  }
  const cards = new Map<string, NonNullable<OrderViewRecord['card']>>();
  for (const c of found.cards ?? []) {
    const card = readCard(c);
    cards.set(card.orderId, card);
  }
  return {
    items: (found.orders ?? []).map((r) => {
      const order = readOrder(r);
      return {
        order,
        receipt: r[ORDER_WIDTH + RECEIPT_WIDTH] ? readReceipt(r) : null,
        registrationId: r[ORDER_WIDTH + RECEIPT_WIDTH + 1] as string | null,
        event: byId.get(order.eventId)!,
        card: cards.get(order.id),
        contents: contents.get(order.id) ?? [],
      };
    }),
    total: Number(found.total),
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
  const [contents, cards, links, refunds, atmOn, account, edition] = await Promise.all([
    contentsOf(db, [row.order.id]),
    latestCardAttempts(db, [row.order.id]),
    count > 0 ? includedBadgeLinks(db, row.order.id) : [],
    refundsOf(db, [row.order.id]),
    atmEnabledFor(db, row.order.eventId),
    virtualAccountOf(db, row.order.id),
    row.event.editionId
      ? db.select({ slug: editions.slug }).from(editions).where(eq(editions.id, row.event.editionId)).limit(1)
      : [],
  ]);
  return {
    ...row,
    editionSlug: edition[0]?.slug ?? null,
    atm: { virtualAccounts: atmOn, account },
    refunds: refunds.get(row.order.id) ?? [],
    card: cards.get(row.order.id),
    contents: contents.get(row.order.id) ?? [],
    ...(count > 0 ? { includedBadges: { count, links } } : {}),
  };
}
