import { money, times, type Money } from './money';

/** What an event charges per item; 0 USD means the event is not offered in USD. */
export type PriceList = { priceCentsTwd: number; priceCentsUsd: number };

/**
 * The price of an order, computed once when it is placed and stored on the order: every later
 * step (trade info, a declared transfer, the gateway's answer) reads these, never the event's
 * current price.
 */
export type OrderPrice = {
  quantity: number;
  unit: { twd: Money; usd: Money | null };
  total: { twd: Money; usd: Money | null };
};

export function priceOrder(list: PriceList, quantity: number): OrderPrice {
  const twd = money(list.priceCentsTwd, 'TWD');
  const usd = list.priceCentsUsd > 0 ? money(list.priceCentsUsd, 'USD') : null;
  return {
    quantity,
    unit: { twd, usd },
    total: { twd: times(twd, quantity), usd: usd && times(usd, quantity) },
  };
}

/** Whether an order of this price is charged at all (free orders skip payment). */
export const isCharged = (price: Pick<OrderPrice, 'total'>) => price.total.twd.cents > 0;

/** The amount due in a currency, or null when the order cannot be paid in it. */
export function amountIn(price: Pick<OrderPrice, 'total'>, currency: 'TWD' | 'USD'): Money | null {
  return currency === 'TWD' ? price.total.twd : price.total.usd;
}
