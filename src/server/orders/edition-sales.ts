import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { EditionSales, EventSales } from '@domain/contract';
import { ISSUED_STATUSES, LIVE_STATUSES } from '@domain/order-lifecycle';
import type { Db } from '../db/client';
import { events, invoices, meetings } from '../db/schema';
import { currentEdition } from '../editions/editions';

/*
 * What the current edition has sold, event by event (the back office's home): registrations
 * still live and those issued (paid, or free and accepted), seats taken against capacity, and
 * the money — what the gateway or the bank actually brought in for the event's orders, less
 * what went back by a refund the gateway (or the organiser, for a transfer) completed. Money is
 * counted per currency: TWD and USD are never added together.
 */

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** Payment records whose money arrived (a refund due or made does not undo the arrival). */
const ARRIVED = ['paid', 'refund_due', 'refunded'] as const;

/** The outer row's event, spelt out: drizzle leaves a single table's columns unqualified. */
const EVENT_ID = sql.raw('"events"."id"');

function moneyOf(currency: 'TWD' | 'USD') {
  const received = sql<number>`coalesce((select sum(p.amount_cents) from order_payments p
      join orders o on o.id = p.order_id
      where o.event_id = ${EVENT_ID} and p.currency = ${currency} and p.status in (${inList(ARRIVED)})), 0)`;
  const refunded = sql<number>`coalesce((select sum(r.amount_cents) from payment_refunds r
      join orders o on o.id = r.order_id
      where o.event_id = ${EVENT_ID} and r.currency = ${currency} and r.outcome = 'succeeded'), 0)`;
  return { received, refunded };
}

/** The current edition's sales, or null when there is no edition yet (a fresh portal). */
export async function editionSales(db: Db): Promise<EditionSales | null> {
  const edition = await currentEdition(db);
  if (!edition) return null;
  const twd = moneyOf('TWD');
  const usd = moneyOf('USD');
  const rows = await db
    .select({
      slug: events.slug,
      type: events.type,
      nameEn: events.nameEn,
      nameZh: events.nameZh,
      status: events.status,
      capacity: events.capacity,
      seatsTaken: events.seatsTaken,
      live: sql<number>`(select count(*) from orders o where o.event_id = ${EVENT_ID}
        and o.payment_status in (${inList(LIVE_STATUSES)})
        and (o.approval_status is null or o.approval_status <> 'rejected'))`,
      issued: sql<number>`(select count(*) from orders o where o.event_id = ${EVENT_ID}
        and o.payment_status in (${inList(ISSUED_STATUSES)})
        and (o.approval_status is null or o.approval_status = 'approved'))`,
      receivedTwd: twd.received,
      refundedTwd: twd.refunded,
      receivedUsd: usd.received,
      refundedUsd: usd.refunded,
    })
    .from(events)
    .where(and(eq(events.editionId, edition.id), ne(events.status, 'archived')))
    .orderBy(asc(events.startTime), asc(events.slug));
  const list: EventSales[] = rows.map((r) => ({
    slug: r.slug,
    type: r.type,
    nameEn: r.nameEn,
    nameZh: r.nameZh,
    status: r.status,
    capacity: r.capacity,
    seatsTaken: r.seatsTaken,
    live: Number(r.live),
    issued: Number(r.issued),
    netTwdCents: Number(r.receivedTwd) - Number(r.refundedTwd),
    refundedTwdCents: Number(r.refundedTwd),
    netUsdCents: Number(r.receivedUsd) - Number(r.refundedUsd),
    refundedUsdCents: Number(r.refundedUsd),
  }));
  const sum = (key: 'live' | 'issued' | 'netTwdCents' | 'refundedTwdCents' | 'netUsdCents' | 'refundedUsdCents') =>
    list.reduce((total, row) => total + row[key], 0);
  const [work] = await db
    .select({
      invoicesFailed: sql<number>`(select count(*) from ${invoices} where ${invoices.status} = 'failed')`,
      meetingRequests: sql<number>`(select count(*) from ${meetings}
        where ${meetings.editionId} = ${edition.id} and ${meetings.status} = 'requested')`,
      meetingsAccepted: sql<number>`(select count(*) from ${meetings}
        where ${meetings.editionId} = ${edition.id} and ${meetings.status} = 'accepted')`,
    })
    .from(sql`(select 1) as one`);
  return {
    edition: { slug: edition.slug, nameEn: edition.nameEn, nameZh: edition.nameZh },
    events: list,
    totals: {
      live: sum('live'),
      issued: sum('issued'),
      netTwdCents: sum('netTwdCents'),
      refundedTwdCents: sum('refundedTwdCents'),
      netUsdCents: sum('netUsdCents'),
      refundedUsdCents: sum('refundedUsdCents'),
    },
    invoicesFailed: Number(work?.invoicesFailed ?? 0),
    meetingRequests: Number(work?.meetingRequests ?? 0),
    meetingsAccepted: Number(work?.meetingsAccepted ?? 0),
  };
}
