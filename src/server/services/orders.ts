import { isUuid } from '@domain/validation';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Locale } from '@i18n/locales';
import type { Db } from '../db/client';
import { events, orderContents, orders, payments, receipts, registrations } from '../db/schema';

type OrderRow = typeof orders.$inferSelect;
type EventRow = typeof events.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
type ReceiptRow = typeof receipts.$inferSelect;

/** The wire view of an order (spec §3 Order). */
export function orderView(
  row: {
    order: OrderRow;
    event: EventRow;
    payment: PaymentRow | null;
    receipt: ReceiptRow | null;
    registrationId: string | null;
  },
  contents: { id: string; title: string }[],
  locale: Locale,
) {
  const { order, event, payment, receipt } = row;
  const zh = locale === 'zh-TW';
  return {
    orderId: order.id,
    id: order.id,
    orderNo: order.orderNo,
    eventName: zh ? event.nameZh : event.nameEn,
    eventSlug: event.slug,
    eventType: event.type,
    eventTime: event.startTime,
    eventEndAt: event.endAt,
    eventLocation: zh ? event.locationZh : event.locationEn,
    registrationType: order.registrationType,
    formModifyExpiresAt: event.formModifyExpiresAt,
    quantity: order.quantity,
    paymentStatus: order.paymentStatus,
    paymentExpiresAt: order.paymentExpiresAt,
    approvalStatus: order.approvalStatus,
    registrationId: row.registrationId,
    currency: order.currency,
    amountCents: order.amountCents,
    payment: payment && {
      type: payment.type,
      status: payment.status,
      dueDate: payment.dueDate,
      amountTwd: payment.amountTwd,
      amountUsd: payment.amountUsd,
      unitPriceTwd: payment.unitPriceTwd,
      unitPriceUsd: payment.unitPriceUsd,
      remitter: payment.remitter,
      senderBank: payment.senderBank,
      lastFiveDigits: payment.lastFiveDigits,
      gatewayStatus: payment.gatewayStatus,
      gatewayMessage: payment.gatewayMessage,
      gatewayAt: payment.gatewayAt,
      cardStartedAt: payment.cardStartedAt,
    },
    receipt: receipt && {
      kind: receipt.kind,
      invoiceTitle: receipt.invoiceTitle,
      unifiedBusinessNumber: receipt.unifiedBusinessNumber,
    },
    contents,
    createdAt: order.createdAt,
  };
}

const orderSelection = {
  order: orders,
  event: events,
  payment: payments,
  receipt: receipts,
  registrationId: registrations.id,
};

function baseQuery(db: Db) {
  return db
    .select(orderSelection)
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(registrations, eq(registrations.orderId, orders.id));
}

async function contentsOf(db: Db, orderIds: string[]) {
  const byOrder = new Map<string, { id: string; title: string }[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db.select().from(orderContents).where(inArray(orderContents.orderId, orderIds));
  for (const r of rows) {
    const list = byOrder.get(r.orderId) ?? [];
    list.push({ id: r.contentId, title: r.title });
    byOrder.set(r.orderId, list);
  }
  return byOrder;
}

/** The caller's orders, newest first, one page at a time. */
export async function listOrders(db: Db, userId: string, page: { limit: number; page: number }, locale: Locale) {
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
  const contents = await contentsOf(
    db,
    rows.map((r) => r.order.id),
  );
  return {
    items: rows.map((r) => orderView(r, contents.get(r.order.id) ?? [], locale)),
    total,
  };
}

/** One order of the caller; another user's order is indistinguishable from a missing one. */
export async function findOrder(db: Db, userId: string, orderId: string, locale: Locale) {
  if (!isUuid(orderId)) return undefined;
  const [row] = await baseQuery(db)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .limit(1);
  if (!row) return undefined;
  const contents = await contentsOf(db, [row.order.id]);
  return orderView(row, contents.get(row.order.id) ?? [], locale);
}
