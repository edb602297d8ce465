import type { DeskRefusal } from '@domain/desk';
import { formatDateTime } from '@domain/format';
import type { Messages } from '@i18n/t';

/*
 * The desk's words: the islands' `{{name}}` translator (src/i18n/t.ts) over the messages picked on
 * the server, kept here so that the desk stays out of the islands' shared chunk (decision 027).
 */

export type DeskT = (key: string, values?: Record<string, string | number>) => string;

export const createDeskT =
  (messages: Messages): DeskT =>
  (key, values) => {
    const text = messages[key] ?? key;
    return values ? text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? '')) : text;
  };

/** The time of day of a pick-up (10:02). */
export const timeOf = (iso: string) => formatDateTime(iso).split(' ')[1] ?? iso;

/** Why the desk cannot hand a badge out, in words. */
export const refusalText = (t: DeskT, r: DeskRefusal | null) => (r ? t(`admin.desk.refusal.${r}`) : '');
