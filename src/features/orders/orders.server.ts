import { ApiError, type ApiClient } from '../../lib/api';
import type { Order } from './orders';

/** Orders page size (spec §9). */
export const ORDERS_PAGE_SIZE = 100;

export type OrdersResult =
  | { kind: 'ok'; orders: Order[] }
  | { kind: 'unauthorized' }
  | { kind: 'error'; status: number; statusText: string };

/** Loads the signed-in user's orders (up to 100, newest first) for the orders page. */
export async function loadOrders(api: ApiClient): Promise<OrdersResult> {
  try {
    const body = await api.get<{ data: Order[] }>('/api/v1/orders', { limit: ORDERS_PAGE_SIZE });
    return { kind: 'ok', orders: body.data };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { kind: 'unauthorized' };
    if (error instanceof ApiError) return { kind: 'error', status: error.status, statusText: error.statusText || error.message };
    throw error;
  }
}
