/**
 * Calendar files (RFC 5545) of accepted meetings and of event registrations (issue 23): one
 * VEVENT in Asia/Taipei times (with its VTIMEZONE), a stable UID per meeting or order, a
 * SEQUENCE that grows with every change, and `METHOD:CANCEL` / `STATUS:CANCELLED` once the
 * meeting or registration no longer stands. Lines end in CRLF and are folded at 75 octets.
 */

export type CalendarEvent = {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  description?: string;
  location?: string;
  cancelled: boolean;
  /** The organiser's address (MAIL_FROM): RFC 5546 wants one with METHOD:CANCEL. */
  organizer: string;
  /** DTSTAMP: when the file is made. */
  stamp: Date;
};

const TAIPEI_OFFSET_MS = 8 * 3_600_000;
const two = (n: number) => String(n).padStart(2, '0');

/** A local Taipei date-time, `YYYYMMDDTHHMMSS` (used with TZID=Asia/Taipei). */
function taipeiLocal(value: Date): string {
  const d = new Date(value.getTime() + TAIPEI_OFFSET_MS);
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}T${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

const utc = (value: Date) =>
  value
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT value escaping (RFC 5545 §3.3.11). */
export const escapeText = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Folds a content line at 75 octets, never inside a UTF-8 character (§3.1). */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const mailtoOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** The calendar file of one event. */
export function calendarFile(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//TCCF//Registration portal//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.cancelled ? 'CANCEL' : 'PUBLISH'}`,
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Taipei',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:+0800',
    'TZOFFSETTO:+0800',
    'TZNAME:CST',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utc(event.stamp)}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTART;TZID=Asia/Taipei:${taipeiLocal(event.start)}`,
    `DTEND;TZID=Asia/Taipei:${taipeiLocal(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    `ORGANIZER:mailto:${mailtoOf(event.organizer)}`,
    `STATUS:${event.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** The HTTP answer of a calendar file (private: it names the parties). */
export const calendarResponse = (body: string, filename: string) =>
  new Response(body, {
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
