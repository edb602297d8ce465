/**
 * Orders as their kinds make them count: a badge order (one e-mail, one badge), the user's
 * standing registration for an event, and whether the user holds an issued badge (what event
 * registration needs). Server-rendered pages read these; islands never load the registry.
 */
import { isIssued } from '@domain/order-lifecycle';
import { isStanding, type Order } from '@domain/orders';
import { isBadgeRegistrationType, kindOf } from './index';
import type { EventType } from './types';

export const isBadgeOrder = (order: Pick<Order, 'registrationType'>) => isBadgeRegistrationType(order.registrationType);

/**
 * The user's standing order for an event (the event page's and home card's "You are registered"),
 * newest first. For a badge event, any standing badge order counts: one e-mail holds one badge.
 */
export function standingOrderFor<
  O extends Pick<Order, 'paymentStatus' | 'approvalStatus' | 'eventSlug' | 'registrationType' | 'createdAt'>,
>(orders: readonly O[], event: { slug: string; type: EventType }): O | undefined {
  const badgeEvent = kindOf(event.type).issuesBadge;
  return orders
    .filter((o) => isStanding(o) && (badgeEvent ? isBadgeOrder(o) : o.eventSlug === event.slug))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
}

/**
 * Whether the user holds an issued badge (paid or free; a transfer still being checked does not
 * count), as event registration requires (`demonstration_invalid` otherwise, spec §6).
 */
export const holdsIssuedBadge = (orders: readonly Pick<Order, 'registrationType' | 'paymentStatus'>[]) =>
  orders.some((o) => isBadgeOrder(o) && isIssued(o.paymentStatus));
