import { randomBytes } from 'node:crypto';

/** A new order number: prefix + yymmdd + 6 random base-36 characters (MerchantOrderNo-safe). */
export function newOrderNo(prefix: string, now = new Date()): string {
  const taipei = new Date(now.getTime() + 8 * 3600 * 1000);
  const ymd = taipei.toISOString().slice(2, 10).replace(/-/g, '');
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const bytes = randomBytes(6);
  let tail = '';
  for (const b of bytes) tail += alphabet[b % 36];
  return `${prefix}${ymd}${tail}`;
}
