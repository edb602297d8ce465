/**
 * Date-times as organisers type them: `datetime-local` inputs (`2026-11-04T09:30`) read as Taipei
 * time, whatever the browser's or the server's zone. Taipei has kept UTC+8 without daylight saving
 * since 1979, so the offset is fixed (`DEFAULT_TIMEZONE` of ./format).
 */

const OFFSET_MS = 8 * 60 * 60 * 1000;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The value of a `datetime-local` input showing `value` in Taipei time (`YYYY-MM-DDTHH:MM`). */
export function toTaipeiInput(value: Date | string): string {
  const shifted = new Date(new Date(value).getTime() + OFFSET_MS);
  return shifted.toISOString().slice(0, 16);
}

/**
 * The instant a `datetime-local` value (`YYYY-MM-DDTHH:MM`, seconds optional) names in Taipei
 * time; null for anything else, an impossible day (`2026-02-30`) included.
 */
export function fromTaipeiInput(value: string): Date | null {
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0)) as number[];
  const utc = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over into March: refuse instead of moving the date silently.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59
  )
    return null;
  return new Date(utc - OFFSET_MS);
}

/** The Taipei calendar day of an instant, `YYYY-MM-DD` (file names, day boundaries). */
export const taipeiDay = (value: Date | string): string => toTaipeiInput(value).slice(0, 10);
