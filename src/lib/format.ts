/** Display formats of spec §9: dates as `yyyy/M/d HH:mm (GMT+8)`, money from cents. */

export const DEFAULT_TIMEZONE = 'Asia/Taipei';

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsOf(date: Date, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'shortOffset',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]));
  return {
    date: `${p.year}/${p.month}/${p.day}`,
    time: `${p.hour}:${p.minute}`,
    offset: p.timeZoneName === 'GMT' ? 'GMT+0' : p.timeZoneName!,
  };
}

/** `2026/11/4 09:30 (GMT+8)`. */
export function formatDateTime(value: Date | string, timeZone = DEFAULT_TIMEZONE): string {
  const p = partsOf(new Date(value), timeZone);
  return `${p.date} ${p.time} (${p.offset})`;
}

/** `2026/11/4 09:30–17:00 (GMT+8)` on one day, else `2026/11/4 09:30 – 2026/11/12 17:00 (GMT+8)`. */
export function formatDateRange(start: Date | string, end: Date | string, timeZone = DEFAULT_TIMEZONE): string {
  const a = partsOf(new Date(start), timeZone);
  const b = partsOf(new Date(end), timeZone);
  if (a.date === b.date) return `${a.date} ${a.time}–${b.time} (${a.offset})`;
  return `${a.date} ${a.time} – ${b.date} ${b.time} (${b.offset})`;
}

export type Currency = 'TWD' | 'USD';
const DECIMALS: Record<Currency, number> = { TWD: 0, USD: 2 };

/** Money from cents: `TWD 1,000` (no decimals), `US$35.00` (two decimals). */
export function formatMoney(cents: number, currency: Currency): string {
  const decimals = DECIMALS[currency];
  const amount = (cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return currency === 'USD' ? `US$${amount}` : `TWD ${amount}`;
}
