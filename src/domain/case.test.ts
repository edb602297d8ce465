import { describe, expect, it } from 'vitest';
import { camelize, snakeize } from './case';

describe('wire key case', () => {
  it('camelizes nested objects and arrays', () => {
    expect(camelize({ order_id: 1, payment: { last_five_digits: '12345' }, data: [{ event_slug: 'a' }] })).toEqual({
      orderId: 1,
      payment: { lastFiveDigits: '12345' },
      data: [{ eventSlug: 'a' }],
    });
  });
  it('snakeizes and keeps dates and nulls', () => {
    const d = new Date(0);
    expect(snakeize({ eventTime: d, unifiedBusinessNumber: null, priceCentsTwd: 5 })).toEqual({
      event_time: d,
      unified_business_number: null,
      price_cents_twd: 5,
    });
  });
  it('round-trips', () => {
    const v = { formModifyExpiresAt: 'x', selectedContents: ['1'] };
    expect(camelize(snakeize(v))).toEqual(v);
  });
});
