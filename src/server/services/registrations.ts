import { isUuid } from '@domain/validation';
import { and, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { registrationWindowState } from '@domain/events';
import { EVENT_REGISTRATION_TYPES } from '@domain/registration-kinds';
import { ApiError, badRequest, notFound } from '../api/errors';
import type { Db } from '../db/client';
import { newOrderNo } from './order-no';
import { badges, events, orders, payments, registrations } from '../db/schema';
import { isUniqueViolation } from './db-errors';
import { expireOverdueOrders, paymentDeadline } from './payments';

export type RegistrationContext = { now: Date; orderPrefix: string; paymentDays: number };
type Created = {
  orderId: string;
  id: string;
  orderNo: string;
  eventSlug: string;
  paymentStatus: string;
  approvalStatus: string | null;
  existing: boolean;
};

async function liveOrder(db: Db, userId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.eventId, eventId),
        notInArray(orders.paymentStatus, ['overdue', 'canceled']),
      ),
    )
    .limit(1);
  return row;
}

/** Whether unpaid orders past their deadline still hold seats of the event (the expiry run has not reached them yet). */
async function hasLapsedSeats(db: Db, eventId: string, now: Date) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.eventId, eventId),
        eq(orders.paymentStatus, 'pending'),
        eq(orders.holdsSeat, true),
        lt(orders.paymentExpiresAt, now),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Registers the user for an event (audit, general, online). Rules, in order: the event and its
 * type, the registration window, an exhibit badge, one registration per user and event (a repeat
 * answers the existing order), then a seat: taken by one conditional UPDATE in the same
 * transaction as the order, so concurrent requests can never oversell (DESIGN D12).
 */
export async function registerForEvent(
  db: Db,
  input: { userId: string; eventSlug: string; registrationType?: string | undefined },
  ctx: RegistrationContext,
): Promise<Created> {
  const [event] = await db.select().from(events).where(eq(events.slug, input.eventSlug)).limit(1);
  if (!event) throw notFound('Event');
  const registrationType = EVENT_REGISTRATION_TYPES[event.type];
  if (!registrationType) throw badRequest('event_type_not_supported', 'This event type cannot be registered');
  if (input.registrationType && input.registrationType !== registrationType) {
    throw badRequest('invalid_registration_type', `This event takes registration type ${registrationType}`);
  }
  const window = registrationWindowState(event, ctx.now);
  if (window === 'not_open') throw badRequest('registration_not_open', 'Event not yet open');
  if (window === 'closed') throw badRequest('registration_closed', 'Event registration has closed');
  // An exhibit badge that is issued: paid or free (a transfer still being checked does not count).
  const [badge] = await db
    .select({ id: badges.id })
    .from(badges)
    .innerJoin(orders, eq(orders.id, badges.orderId))
    .where(and(eq(badges.userId, input.userId), inArray(orders.paymentStatus, ['paid', 'free'])))
    .limit(1);
  if (!badge)
    throw badRequest(
      'demonstration_invalid',
      'This event requires an exhibit badge; please buy a Professional badge first',
    );

  const view = (o: typeof orders.$inferSelect, existing: boolean): Created => ({
    orderId: o.id,
    id: o.id,
    orderNo: o.orderNo,
    eventSlug: event.slug,
    paymentStatus: o.paymentStatus,
    approvalStatus: o.approvalStatus,
    existing,
  });
  let existing = await liveOrder(db, input.userId, event.id);
  // The user's own unpaid order past its deadline is overdue, not a live registration to answer.
  if (existing?.paymentStatus === 'pending' && existing.paymentExpiresAt && existing.paymentExpiresAt < ctx.now) {
    await expireOverdueOrders(db, ctx.now, { userId: input.userId });
    existing = await liveOrder(db, input.userId, event.id);
  }
  if (existing) return view(existing, true);

  const charged = event.priceCentsTwd > 0;
  const expires = charged ? paymentDeadline(ctx.now, event.registerEndAt, ctx.paymentDays) : null;
  const claimSeat = () =>
    db.transaction(async (tx) => {
      const [seat] = await tx
        .update(events)
        .set({ seatsTaken: sql`${events.seatsTaken} + 1` })
        .where(and(eq(events.id, event.id), or(isNull(events.capacity), lt(events.seatsTaken, events.capacity))))
        .returning({ id: events.id });
      if (!seat)
        throw badRequest(
          'event_capacity_full',
          'This event is full. Please go back to the home page to register for other events.',
        );
      const [order] = await tx
        .insert(orders)
        .values({
          orderNo: newOrderNo(ctx.orderPrefix, ctx.now),
          userId: input.userId,
          eventId: event.id,
          registrationType,
          paymentStatus: charged ? 'pending' : 'free',
          approvalStatus: event.requiresApproval ? 'pending_approval' : null,
          paymentExpiresAt: expires,
          currency: 'TWD',
          amountCents: event.priceCentsTwd,
          holdsSeat: true,
        })
        .returning();
      if (charged) {
        await tx.insert(payments).values({
          orderId: order!.id,
          status: 'pending',
          dueDate: expires,
          amountTwd: event.priceCentsTwd,
          amountUsd: event.priceCentsUsd || null,
          unitPriceTwd: event.priceCentsTwd,
          unitPriceUsd: event.priceCentsUsd || null,
        });
      }
      await tx.insert(registrations).values({ orderId: order!.id, userId: input.userId, form: { agreeTerms: true } });
      return view(order!, false);
    });
  try {
    try {
      return await claimSeat();
    } catch (error) {
      // Full, but lapsed unpaid orders still hold seats (the expiry run is throttled): release
      // them now and try once more, so a freed seat is never refused.
      if (
        !(error instanceof ApiError && error.code === 'event_capacity_full') ||
        !(await hasLapsedSeats(db, event.id, ctx.now))
      )
        throw error;
      await expireOverdueOrders(db, ctx.now);
      return await claimSeat();
    }
  } catch (error) {
    // The same user twice at once: the loser's transaction (and its seat) rolled back.
    if (isUniqueViolation(error)) {
      const again = await liveOrder(db, input.userId, event.id);
      if (again) return view(again, true);
    }
    throw error;
  }
}

/** A registration (the form behind an order) of its owner. */
export async function findRegistration(db: Db, userId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.id, id), eq(registrations.userId, userId)))
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    registrationId: row.id,
    orderId: row.orderId,
    form: row.form,
    contact: row.contact,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
