/**
 * Display formats of spec §9: dates as `yyyy/M/d HH:mm (GMT+8)`, calendar days with their
 * weekday, money from cents in the reader's language (decision 013).
 */
/** The portal's languages (the same codes as src/i18n/locales.ts). */
type Locale = 'en' | 'zh-TW';

export const DEFAULT_TIMEZONE = 'Asia/Taipei';

/**
 * A reader of a date's parts in a time zone (en-US digits, 24-hour clock) with the fields of
 * `options`: one formatter per zone, made the first time the zone is asked for.
 */
export function zonedParts(options: Omit<Intl.DateTimeFormatOptions, 'timeZone' | 'hourCycle'>) {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  return (date: Date, timeZone: string): Partial<Record<Intl.DateTimeFormatPartTypes, string>> => {
    let f = formatters.get(timeZone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', { timeZone, ...options, hourCycle: 'h23' });
      formatters.set(timeZone, f);
    }
    return Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]));
  };
}

type DateParts = { date: string; time: string; offset: string };
const displayParts = zonedParts({
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'shortOffset',
});
/**
 * Parts already formatted, by time zone and minute: formatToParts costs ~20 µs, and a page of
 * 100 orders formats the same few event times again and again. Bounded (cleared when full).
 */
const formatted = new Map<string, DateParts>();
function partsOf(date: Date, timeZone: string): DateParts {
  const time = date.getTime();
  // An invalid date goes to the formatter, which throws as before.
  if (Number.isNaN(time)) return formatParts(date, timeZone);
  const key = `${timeZone}|${Math.floor(time / 60_000)}`;
  let parts = formatted.get(key);
  if (!parts) {
    parts = formatParts(date, timeZone);
    if (formatted.size >= 5000) formatted.clear();
    formatted.set(key, parts);
  }
  return parts;
}
function formatParts(date: Date, timeZone: string): DateParts {
  const p = displayParts(date, timeZone);
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

const WEEKDAYS: Record<Locale, readonly string[]> = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  'zh-TW': ['日', '一', '二', '三', '四', '五', '六'],
};

/** A calendar day `YYYY-MM-DD` (no time, no zone) as its parts. */
function calendarDay(day: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${day}`);
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { year, monthDay: `${month}/${date}`, weekday: new Date(Date.UTC(year, month - 1, date)).getUTCDay() };
}

/**
 * Calendar days with the year and weekday, as the pieces that must not break inside: the first
 * day, then (for a range) the joiner and the last day. `formatDayRange` joins them.
 */
export function dayRangeParts(first: string, last: string, locale: Locale): string[] {
  const zh = locale === 'zh-TW';
  const a = calendarDay(first);
  const b = calendarDay(last);
  const weekday = (d: { weekday: number }) =>
    zh ? `（${WEEKDAYS[locale][d.weekday]}）` : ` (${WEEKDAYS[locale][d.weekday]})`;
  const start = `${a.year}/${a.monthDay}${weekday(a)}`;
  if (first === last) return [start];
  const end = `${b.year === a.year ? '' : `${b.year}/`}${b.monthDay}${weekday(b)}`;
  return [start, zh ? '至 ' : '–', end];
}

/**
 * Calendar days with the year and weekday: `2026/12/14 (Mon)–12/16 (Wed)` in English,
 * `2026/12/14（一）至 12/16（三）` in Chinese; one day alone when first = last; the year again
 * when the range crosses into the next year.
 */
export const formatDayRange = (first: string, last: string, locale: Locale): string =>
  dayRangeParts(first, last, locale).join('');

export type Currency = 'TWD' | 'USD';
const DECIMALS: Record<Currency, number> = { TWD: 0, USD: 2 };

/**
 * Money from cents (decision 013): `TWD 1,000` and `US$35.00` in English; `新臺幣 1,000 元` and
 * `US$35.00` in Chinese, in running text and tables alike. TWD has no decimals, USD two.
 */
export function formatMoney(cents: number, currency: Currency, locale: Locale = 'en'): string {
  const decimals = DECIMALS[currency];
  const amount = (cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  if (currency === 'USD') return `US$${amount}`;
  return locale === 'zh-TW' ? `新臺幣 ${amount} 元` : `TWD ${amount}`;
}

/**
 * A charge of several items as "unit × quantity = total" (pitching: per work); one item as its
 * amount alone.
 */
export function formatPriceTimes(
  unitCents: number,
  quantity: number,
  currency: Currency,
  locale: Locale = 'en',
): string {
  const total = formatMoney(unitCents * quantity, currency, locale);
  return quantity > 1 ? `${formatMoney(unitCents, currency, locale)} × ${quantity} = ${total}` : total;
}
