import { describe, expect, it } from 'vitest';
import { camelize, snakeize, wireRoundTrip } from './case';

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

describe('wireRoundTrip', () => {
  const viaJson = (v: unknown) => camelize(JSON.parse(JSON.stringify(snakeize(v))));
  class Money {
    amountCents = 100;
    currency_code = 'TWD';
  }
  class Stamp {
    toJSON(key: unknown) {
      return `${typeof key} ${String(key)}`;
    }
  }
  const samples: Record<string, unknown> = {
    order: {
      orderId: 'o1',
      eventTime: new Date('2026-11-04T01:30:00Z'),
      payment: { lastFiveDigits: '12345', dueDate: null, gatewayAt: undefined, amountTwd: 1000 },
      contents: [{ titleEn: 'A', categoryId: 2 }, undefined, null, Number.NaN, () => 1],
      meta: { page: 1, limit: 20, total: Infinity },
    },
    'keys that do not round-trip': { someURL: 1, 'zh-TW': 'x', a_b: 2, aB: 3, line2Address: 4, _private: 5 },
    'class instances keep their keys until the client camelizes them': { money: new Money(), map: new Map([[1, 2]]) },
    'boxed primitives and nested arrays': { n: [[1, [2, [3]]]], s: Object('text'), b: Object(false) },
    'a date with a custom toJSON': { at: { toJSON: () => 'then' } },
    'dates (the same time twice, invalid, outside years 0–9999, overridden)': {
      first: new Date('2026-11-04T01:30:00.123Z'),
      again: [new Date('2026-11-04T01:30:00.123Z'), new Date(0)],
      invalid: new Date(Number.NaN),
      far: [new Date('+020000-01-01T00:00:00Z'), new Date('-000001-06-30T12:00:00Z')],
      own: Object.assign(new Date(0), { toJSON: () => 'own' }),
      subclass: new (class extends Date {
        override toISOString() {
          return 'sub';
        }
      })(0),
    },
    'an array item is given its index as toJSON key': { items: ['x', new Stamp()] },
  };
  it.each(Object.entries(samples))('gives what the client parses from JSON: %s', (_name, value) => {
    expect(wireRoundTrip(value)).toEqual(viaJson(value));
    expect(JSON.stringify(wireRoundTrip(value))).toBe(JSON.stringify(viaJson(value)));
  });
  it('refuses what is nested too deeply, as the JSON path does', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { level: deep };
    expect(() => viaJson(deep)).toThrow(RangeError);
    expect(() => wireRoundTrip(deep)).toThrow(RangeError);
  });
});
