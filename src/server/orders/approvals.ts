/**
 * The approvals queue of the back office (issue 11): the orders waiting for an organiser's
 * decision (audit events, Market online…), oldest first, with what an organiser needs to decide
 * at a glance; and approving several at once, each through the order core in its own
 * transaction, so one that changed meanwhile is refused alone and says why.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { DomainError } from '@domain/errors';
import { AWAITING_APPROVAL, commandsAllowed } from '@domain/order-lifecycle';
import type { Db } from '../db/client';
import { ofEdition } from '../badges/badge-edition';
import { eventNameColumns, ownerColumns, withOrderOwner } from '../db/order-joins';
import { badges, events, orderContents, orders, registrations } from '../db/schema';
import { applyCommand, lockOrder, type ActorRef, type OrderContext, type TransitionContext } from './order-state';

/** The most orders the queue shows at once (the rest follow as the first are decided). */
export const APPROVAL_QUEUE_LIMIT = 500;

/**
 * What an organiser saw of an order: its row and its registration form, changed at these times.
 * A bulk approval sent with the version it was decided on refuses an order changed since.
 */
const version = sql<string>`to_char(greatest(${orders.updatedAt}, coalesce(${registrations.updatedAt}, ${orders.updatedAt})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The orders waiting for approval, oldest first. */
export async function approvalQueue(db: Db) {
  const waiting = and(
    inArray(orders.approvalStatus, [...AWAITING_APPROVAL]),
    inArray(orders.paymentStatus, ['pending', 'free']),
  );
  const rows = await withOrderOwner(
    db
      .select({
        orderNo: orders.orderNo,
        registrationType: orders.registrationType,
        approvalStatus: orders.approvalStatus,
        paymentStatus: orders.paymentStatus,
        currency: orders.currency,
        amountCents: orders.amountCents,
        createdAt: orders.createdAt,
        version,
        ...ownerColumns,
        eventSlug: events.slug,
        ...eventNameColumns,
        // The exhibitor form's company (Market), else the company on the registrant's badge.
        companyEn: sql<
          string | null
        >`coalesce(nullif(${registrations.form}->>'companyNameEn', ''), nullif(${badges.companyNameEn}, ''))`,
        companyZh: sql<
          string | null
        >`coalesce(nullif(${registrations.form}->>'companyNameZh', ''), nullif(${badges.companyNameZh}, ''))`,
        badgeIdentity: badges.identity,
        works: sql<number>`(select count(*) from ${orderContents} where ${orderContents.orderId} = ${orders.id})::int`,
      })
      .from(orders)
      .$dynamic(),
  )
    .leftJoin(registrations, eq(registrations.orderId, orders.id))
    // The applicant's badge of the order's event's edition (one per edition, decision 068).
    .leftJoin(
      badges,
      and(
        eq(badges.userId, orders.userId),
        ofEdition(badges.editionId, sql`(select e.edition_id from events e where e.id = ${orders.eventId})`),
      ),
    )
    .where(waiting)
    .orderBy(asc(orders.createdAt), asc(orders.orderNo))
    .limit(APPROVAL_QUEUE_LIMIT);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(waiting);
  return { items: rows, total: count?.n ?? rows.length };
}

export type ApprovalResult =
  { orderNo: string; result: 'approved' } | { orderNo: string; result: 'refused'; code: string; message: string };

/**
 * Approves each order through the order core, one transaction per order, in the order given:
 * one refusal (already decided, canceled meanwhile, changed since `version`) leaves the others
 * approved. Answers every order's outcome.
 */
export async function approveOrders(
  db: Db,
  items: { orderNo: string; version?: string | undefined }[],
  ctx: TransitionContext & Pick<OrderContext, 'paymentDays'>,
  actor: ActorRef,
): Promise<ApprovalResult[]> {
  const results: ApprovalResult[] = [];
  for (const item of items) {
    try {
      await db.transaction(async (tx) => {
        const locked = await lockOrder(tx, eq(orders.orderNo, item.orderNo));
        if (!locked) throw new DomainError('not_found', 'Order not found');
        // The order core's own refusal (decided meanwhile…) comes first: it says more.
        if (item.version !== undefined && commandsAllowed(locked.order).includes('approve')) {
          const [row] = await tx
            .select({ version })
            .from(orders)
            .leftJoin(registrations, eq(registrations.orderId, orders.id))
            .where(eq(orders.id, locked.order.id));
          // The registrant edited the order or its form after the organiser read it: look again.
          if (row?.version !== item.version)
            throw new DomainError(
              'order_state_changed',
              'The order changed after the list was loaded; review it again',
            );
        }
        await applyCommand(tx, locked, { type: 'approve' }, actor, ctx);
      });
      results.push({ orderNo: item.orderNo, result: 'approved' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({ orderNo: item.orderNo, result: 'refused', code: error.code, message: error.message });
    }
  }
  return results;
}
