import { describe, expect, it } from 'vitest';
import { fromGatewayAmount, money, times, toGatewayAmount } from './money';
import { amountIn, isCharged, priceOrder } from './pricing';

describe('money', () => {
  it('is whole cents, never negative or fractional', () => {
    expect(money(100_000, 'TWD')).toEqual({ cents: 100_000, currency: 'TWD' });
    expect(() => money(-1, 'TWD')).toThrow(RangeError);
    expect(() => money(1.5, 'USD')).toThrow(RangeError);
  });

  it('multiplies by a whole quantity of at least one', () => {
    expect(times(money(3_500, 'USD'), 3)).toEqual({ cents: 10_500, currency: 'USD' });
    expect(() => times(money(3_500, 'USD'), 0)).toThrow(RangeError);
  });

  it.each([
    [100_000, 1000],
    [100, 1],
    [0, 0],
  ])('TWD %i cents is Amt %i for the gateway', (cents, amt) => {
    expect(toGatewayAmount(money(cents, 'TWD'))).toBe(amt);
    expect(fromGatewayAmount(amt)).toEqual(money(cents, 'TWD'));
  });

  it('the gateway charges whole TWD only: USD or a fraction of a dollar is refused, never rounded', () => {
    expect(() => toGatewayAmount(money(3_500, 'USD'))).toThrow(/TWD/);
    expect(() => toGatewayAmount(money(100_050, 'TWD'))).toThrow(/whole/);
  });
});

describe('pricing', () => {
  it('fixes unit and total in both currencies when the order is placed', () => {
    const price = priceOrder({ priceCentsTwd: 100_000, priceCentsUsd: 3_500 }, 3);
    expect(price).toEqual({
      quantity: 3,
      unit: { twd: money(100_000, 'TWD'), usd: money(3_500, 'USD') },
      total: { twd: money(300_000, 'TWD'), usd: money(10_500, 'USD') },
    });
    expect(isCharged(price)).toBe(true);
    expect(amountIn(price, 'USD')).toEqual(money(10_500, 'USD'));
  });

  it('an event without a USD price cannot be paid in USD; a free event is not charged', () => {
    const twdOnly = priceOrder({ priceCentsTwd: 50_000, priceCentsUsd: 0 }, 1);
    expect(twdOnly.total.usd).toBeNull();
    expect(amountIn(twdOnly, 'USD')).toBeNull();
    expect(isCharged(priceOrder({ priceCentsTwd: 0, priceCentsUsd: 0 }, 1))).toBe(false);
  });
});
