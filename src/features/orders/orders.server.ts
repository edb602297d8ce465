import { ApiError, type ApiClient } from '@lib/api';
import type { Order } from '@domain/orders';

/** Orders page size (spec §9). */
export const ORDERS_PAGE_SIZE = 100;

export type LoadResult<T> =
  | { kind: 'ok'; data: T }
  | { kind: 'not_found' }
  | { kind: 'unauthorized' }
  | { kind: 'error'; status: number; statusText: string };

/** Runs a loader call and sorts its outcome the way pages handle them (spec §8). */
export async function load<T>(call: () => Promise<T>): Promise<LoadResult<T>> {
  try {
    return { kind: 'ok', data: await call() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { kind: 'unauthorized' };
    if (error.status === 404) return { kind: 'not_found' };
    return { kind: 'error', status: error.status, statusText: error.statusText || error.message };
  }
}

/** The signed-in user's orders (up to 100, newest first) for the orders page. */
export const loadOrders = (api: ApiClient) =>
  load(async () => (await api.get<{ data: Order[] }>('/api/v1/orders', { limit: ORDERS_PAGE_SIZE })).data);

/** One order of the signed-in user. */
export const loadOrder = (api: ApiClient, orderId: string) =>
  load(async () => (await api.get<{ data: Order }>(`/api/v1/orders/${encodeURIComponent(orderId)}`)).data);
