import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { headlineStatus, type HeadlineStatus, type Order } from '@domain/orders';
import { kindOf } from '@domain/kinds';
import { standingOrderFor } from '@domain/kinds/orders';
import { orderPages } from '@domain/kinds/pages';
import type { EventType } from '@domain/kinds/types';

/** Orders page size (spec §9). */
export const ORDERS_PAGE_SIZE = 100;

/** The signed-in user's orders (up to 100, newest first) for the orders page. */
export const loadOrders = (api: ApiClient) =>
  load(async () => (await api.orders.list({ limit: ORDERS_PAGE_SIZE })).data);

/** One order of the signed-in user. */
export const loadOrder = (api: ApiClient, orderId: string) => load(async () => (await api.orders.get(orderId)).data);

/**
 * The signed-in user's orders for marking events they are registered for (home, event page):
 * none when signed out (the page stays public and cacheable) or when the list cannot be loaded.
 */
export async function ordersForMarking(api: ApiClient, token: string | null): Promise<Order[]> {
  if (!token) return [];
  const result = await loadOrders(api);
  return result.kind === 'ok' ? result.data : [];
}

/**
 * "You are registered" for an event: where it links (the registration's summary, or My badge for
 * badges) and the registration's headline status (pending approval, awaiting payment, …).
 */
export type RegistrationLink = { path: string; badge: boolean; headline: HeadlineStatus };

/** The user's registration for an event, as the event card and page show it. */
export function registrationLink(
  orders: readonly Order[],
  event: { slug: string; type: EventType },
): RegistrationLink | undefined {
  const order = standingOrderFor(orders, event);
  if (!order) return undefined;
  const badge = kindOf(event.type).issuesBadge;
  return { path: badge ? '/account/badge' : orderPages(order).summary, badge, headline: headlineStatus(order) };
}
