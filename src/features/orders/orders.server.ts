import { ApiError, type ApiClient } from '@lib/api';
import { headlineStatus, standingOrderFor, type HeadlineStatus, type Order } from '@domain/orders';
import { orderPages } from '@domain/registration-kinds';

/** Orders page size (spec §9). */
export const ORDERS_PAGE_SIZE = 100;

/** A loader call the API failed: the 5xx status the page answers with and its reason phrase. */
export type LoadFailure = { kind: 'error'; status: number; statusText: string };

export type LoadResult<T> = { kind: 'ok'; data: T } | { kind: 'not_found' } | { kind: 'unauthorized' } | LoadFailure;

const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * A failed API call as pages show it (spec §8 error page): the page answers with a 5xx status
 * (the API's own 500/503/504, 504 when the call timed out, 502 for anything else the page cannot
 * use) and only that status's standard phrase. The API's URL, its error text and the transport
 * error go to the log, never to the reader.
 */
export function loadFailure(error: ApiError): LoadFailure {
  const status = error.status in REASONS ? error.status : error.code === 'timeout' ? 504 : 502;
  console.error(
    JSON.stringify({
      level: 'error',
      message: 'API call failed',
      status: error.status,
      code: error.code,
      error: error.message,
      ...(error.detail ? { detail: error.detail } : {}),
    }),
  );
  return { kind: 'error', status, statusText: REASONS[status]! };
}

/** Runs a loader call and sorts its outcome the way pages handle them (spec §8). */
export async function load<T>(call: () => Promise<T>): Promise<LoadResult<T>> {
  try {
    return { kind: 'ok', data: await call() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { kind: 'unauthorized' };
    if (error.status === 404) return { kind: 'not_found' };
    return loadFailure(error);
  }
}

/** The signed-in user's orders (up to 100, newest first) for the orders page. */
export const loadOrders = (api: ApiClient) =>
  load(async () => (await api.get<{ data: Order[] }>('/api/v1/orders', { limit: ORDERS_PAGE_SIZE })).data);

/** One order of the signed-in user. */
export const loadOrder = (api: ApiClient, orderId: string) =>
  load(async () => (await api.get<{ data: Order }>(`/api/v1/orders/${encodeURIComponent(orderId)}`)).data);

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
  event: { slug: string; type: string },
): RegistrationLink | undefined {
  const order = standingOrderFor(orders, event);
  if (!order) return undefined;
  const badge = event.type.startsWith('badge_');
  return { path: badge ? '/account/badge' : orderPages(order).summary, badge, headline: headlineStatus(order) };
}
