/** Money: integer cents and a currency. The one place that turns cents into the gateway's whole TWD. */

export const CURRENCIES = ['TWD', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export type Money = { readonly cents: number; readonly currency: Currency };

/** Decimal places shown for each currency (spec §9: TWD 0, USD 2). */
export const CURRENCY_DECIMALS: Record<Currency, number> = { TWD: 0, USD: 2 };

export function money(cents: number, currency: Currency): Money {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Invalid amount: ${cents} cents`);
  return { cents, currency };
}

/** `unit` × `quantity`, in the unit's currency. */
export function times(unit: Money, quantity: number): Money {
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`Invalid quantity: ${quantity}`);
  return money(unit.cents * quantity, unit.currency);
}

export const isZero = (m: Money) => m.cents === 0;
export const sameMoney = (a: Money, b: Money) => a.cents === b.cents && a.currency === b.currency;

/**
 * The gateway's `Amt`: whole New Taiwan dollars (NewebPay takes integers only). Refuses other
 * currencies and amounts with a fraction of a dollar rather than rounding money silently.
 */
export function toGatewayAmount(m: Money): number {
  if (m.currency !== 'TWD') throw new RangeError(`The card gateway charges TWD, not ${m.currency}`);
  if (m.cents % 100 !== 0) throw new RangeError(`TWD ${m.cents / 100} is not a whole number of dollars`);
  return m.cents / 100;
}

/** The gateway's whole-TWD amount back as money. */
export const fromGatewayAmount = (amt: number): Money => money(Math.round(amt) * 100, 'TWD');
