/**
 * Transfers being checked (issue 11, transfers screen): the orders whose registrant declared a
 * bank transfer, with what they declared, and sending one back with a message (return_transfer,
 * decision 025). Confirming one is the order core's markPaid (services/payments).
 */
import { asc, eq, sql } from 'drizzle-orm';
import { notFoundError } from '@domain/errors';
import type { Db } from '../db/client';
import { eventNameColumns, ownerColumns, withOrderOwner } from '../db/order-joins';
import { orderEvents, orders } from '../db/schema';
import {
  applyCommand,
  lockOrder,
  type ActorRef,
  type OrderContext,
  type TransitionContext,
} from '../orders/order-state';

/** When the transfer now being checked was declared (the latest transfer_declared event). */
const declaredAt = sql<Date | null>`(select max(${orderEvents.createdAt}) from ${orderEvents}
  where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.kind} = 'transfer_declared')`;

/** Orders whose transfer is being checked, the longest waiting first. */
export async function transfersBeingChecked(db: Db) {
  const rows = await withOrderOwner(
    db
      .select({
        orderNo: orders.orderNo,
        registrationType: orders.registrationType,
        paymentType: orders.paymentType,
        remitter: orders.remitter,
        senderBank: orders.senderBank,
        lastFiveDigits: orders.lastFiveDigits,
        currency: orders.currency,
        amountCents: orders.amountCents,
        paymentExpiresAt: orders.paymentExpiresAt,
        createdAt: orders.createdAt,
        declaredAt,
        ...ownerColumns,
        ...eventNameColumns,
      })
      .from(orders)
      .$dynamic(),
  )
    .where(eq(orders.paymentStatus, 'checking'))
    .orderBy(asc(sql`coalesce(${declaredAt}, ${orders.updatedAt})`), asc(orders.orderNo))
    .limit(1000);
  // The subquery comes back as text from some drivers: make it a date either way.
  return rows.map((r) => ({ ...r, declaredAt: r.declaredAt ? new Date(r.declaredAt) : null }));
}

/**
 * Sends a declared transfer back to the registrant (return_transfer): unpaid again, the message
 * kept on the order (shown on its pay page and summary) and on the event (the e-mail tells it),
 * the declared details kept so the registrant corrects what is wrong, and a fair deadline.
 */
export async function returnTransfer(
  db: Db,
  orderNo: string,
  message: string,
  ctx: TransitionContext & Pick<OrderContext, 'paymentDays'>,
  actor: ActorRef,
) {
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, eq(orders.orderNo, orderNo));
    if (!locked) throw notFoundError('Order');
    const { order } = locked;
    return applyCommand(tx, locked, { type: 'return_transfer', message }, actor, ctx, {
      set: { transferReturnedMessage: message.trim() },
      payload: {
        declared: {
          paymentType: order.paymentType,
          remitter: order.remitter,
          senderBank: order.senderBank,
          lastFiveDigits: order.lastFiveDigits,
          currency: order.currency,
          amountCents: order.amountCents,
        },
      },
    });
  });
}
