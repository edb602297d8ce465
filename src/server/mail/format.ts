/**
 * Dates and money in e-mails, as the pages show them (spec §9, decision 013): `2026/11/4 09:30
 * (GMT+8)` in Taipei time; `TWD 1,000` / `新臺幣 1,000 元` and `US$35.00`. The server cannot import
 * the pages' formatters (@lib), so the few it needs are here.
 */
import type { Locale } from '@i18n/locales';

/** The conference's time zone: every date of an e-mail is Taipei time, with its offset. */
export const MAIL_TIME_ZONE = 'Asia/Taipei';

const dateTime = new Intl.DateTimeFormat('en-US', {
  timeZone: MAIL_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'shortOffset',
});

/** `2026/11/4 09:30 (GMT+8)`. */
export function formatDateTime(value: Date): string {
  const p = Object.fromEntries(dateTime.formatToParts(value).map((x) => [x.type, x.value]));
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute} (${p.timeZoneName === 'GMT' ? 'GMT+0' : p.timeZoneName})`;
}

const DECIMALS = { TWD: 0, USD: 2 } as const;

/** Money from cents: `TWD 1,000` / `新臺幣 1,000 元`; `US$35.00` in both languages. */
export function formatMoney(cents: number, currency: string, locale: Locale): string {
  const code = currency === 'USD' ? 'USD' : 'TWD';
  const amount = (cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: DECIMALS[code],
    maximumFractionDigits: DECIMALS[code],
  });
  if (code === 'USD') return `US$${amount}`;
  return locale === 'zh-TW' ? `新臺幣 ${amount} 元` : `TWD ${amount}`;
}

const WEEKDAYS: Record<Locale, readonly string[]> = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  'zh-TW': ['日', '一', '二', '三', '四', '五', '六'],
};

/** A calendar day `YYYY-MM-DD` with its weekday: `2026/12/14 (Mon)`, `2026/12/14（一）`. */
function day(value: string, locale: Locale, withYear: boolean): string {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[locale][new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  const date = `${withYear ? `${y}/` : ''}${m}/${d}`;
  return locale === 'zh-TW' ? `${date}（${weekday}）` : `${date} (${weekday})`;
}

/** Days of a pick-up slot: `2026/12/14 (Mon)–12/16 (Wed)`, `2026/12/14（一）至 12/16（三）`. */
export function formatDays(first: string, last: string, locale: Locale): string {
  const start = day(first, locale, true);
  if (first === last) return start;
  const end = day(last, locale, first.slice(0, 4) !== last.slice(0, 4));
  return locale === 'zh-TW' ? `${start}至 ${end}` : `${start}–${end}`;
}

/** `2026/11/4 09:30 – 2026/11/4 17:00 (GMT+8)` shortened to one date when the range is one day. */
export function formatRange(start: Date, end: Date): string {
  const a = formatDateTime(start);
  const b = formatDateTime(end);
  const [aDate, aTime] = a.split(' ');
  const [bDate, bTime, offset] = b.split(' ');
  return aDate === bDate ? `${aDate} ${aTime}–${bTime} ${offset}` : `${a.replace(/ \(.*\)$/, '')} – ${b}`;
}
