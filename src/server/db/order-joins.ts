import { eq } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { events, orders, users } from './schema';

/**
 * An order query with the account that placed each order and its event joined in: the shape
 * of most lists of orders (exports, transfers, refunds, approvals, the operator API). Takes a
 * `$dynamic()` select that already reads `orders`.
 */
export function withOrderOwner<T extends PgSelect>(query: T) {
  return query.innerJoin(users, eq(users.id, orders.userId)).innerJoin(events, eq(events.id, orders.eventId));
}

/** The event's name in both languages, as the lists show it beside an order. */
export const eventNameColumns = { eventNameEn: events.nameEn, eventNameZh: events.nameZh };

/** The account's email and name, as the lists show them beside an order. */
export const ownerColumns = { email: users.email, name: users.name };
