import { and, eq, inArray } from 'drizzle-orm';
import { DomainError, notFoundError } from '@domain/errors';
import { registrationWindowState } from '@domain/events';
import { ISSUED_STATUSES } from '@domain/order-lifecycle';
import { kindOf, registrationTypeFor, takesEventRegistration } from '@domain/registration-kinds';
import { isUuid } from '@domain/validation';
import type { Db } from '../db/client';
import { badges, events, orders, registrations } from '../db/schema';
import { isUniqueViolation } from './db-errors';
import {
  expireOverdueOrders,
  liveOrderOf,
  placeOrder,
  type OrderContext,
  type OrderRow,
  type PlacedFrom,
} from './order-state';

export type RegistrationContext = OrderContext;
type Created = {
  orderId: string;
  id: string;
  orderNo: string;
  eventSlug: string;
  paymentStatus: string;
  approvalStatus: string | null;
  existing: boolean;
};

/** Whether the user holds an issued badge (paid or free; a transfer still being checked does not count). */
async function hasIssuedBadge(db: Db, userId: string) {
  const [badge] = await db
    .select({ id: badges.id })
    .from(badges)
    .innerJoin(orders, eq(orders.id, badges.orderId))
    .where(and(eq(badges.userId, userId), inArray(orders.paymentStatus, ISSUED_STATUSES)))
    .limit(1);
  return badge !== undefined;
}

/**
 * Registers the user for an event through the registration-kind registry. Rules, in order: the
 * event and its kind, the registration type, the registration window, an issued badge where the
 * kind needs one, one live registration per user and event (a repeat answers the existing order),
 * then `placeOrder` (seat, price, approval).
 */
export async function registerForEvent(
  db: Db,
  input: { userId: string; email: string; eventSlug: string; registrationType?: string | undefined } & PlacedFrom,
  ctx: RegistrationContext,
): Promise<Created> {
  const [event] = await db.select().from(events).where(eq(events.slug, input.eventSlug)).limit(1);
  if (!event) throw notFoundError('Event');
  const kind = kindOf(event.type);
  // Badges have their own calls; Market and pitching are not open yet.
  if (!takesEventRegistration(kind)) throw new DomainError('event_type_not_supported');
  const type = registrationTypeFor(kind, input.registrationType);
  if (!type.ok)
    throw new DomainError(
      'invalid_registration_type',
      `This event takes registration type ${kind.registrationTypes.join(' or ')}`,
    );
  const window = registrationWindowState(event, ctx.now);
  if (window === 'not_open') throw new DomainError('registration_not_open');
  if (window === 'closed') throw new DomainError('registration_closed');
  if (kind.requiresBadge && !(await hasIssuedBadge(db, input.userId))) throw new DomainError('demonstration_invalid');

  const view = (o: OrderRow, existing: boolean): Created => ({
    orderId: o.id,
    id: o.id,
    orderNo: o.orderNo,
    eventSlug: event.slug,
    paymentStatus: o.paymentStatus,
    approvalStatus: o.approvalStatus,
    existing,
  });
  let existing = await liveOrderOf(db, input.userId, event.id);
  // The user's own unpaid order past its deadline is overdue, not a live registration to answer.
  if (existing?.paymentStatus === 'pending' && existing.paymentExpiresAt && existing.paymentExpiresAt < ctx.now) {
    await expireOverdueOrders(db, ctx.now, { userId: input.userId });
    existing = await liveOrderOf(db, input.userId, event.id);
  }
  if (existing) return view(existing, true);
  try {
    const order = await placeOrder(
      db,
      {
        user: { id: input.userId, email: input.email },
        event,
        registrationType: type.type,
        form: { agreeTerms: true },
        actor: { kind: 'registrant', id: input.userId },
        locale: input.locale,
        siteOrigin: input.siteOrigin,
      },
      ctx,
    );
    return view(order, false);
  } catch (error) {
    // The same user twice at once: the loser's transaction (and its seat) rolled back.
    if (isUniqueViolation(error)) {
      const again = await liveOrderOf(db, input.userId, event.id);
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
