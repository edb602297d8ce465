/**
 * The words of the portal's e-mails and of the dev mailbox: the mail catalogue (src/i18n/mail),
 * and the words the e-mails share with the pages (badge identities, payment types, the
 * organiser's line) from the pages' catalogue, so each is written once (decision 037).
 */
import { wordsOf, type KeyOf } from '@i18n/catalogues';
import { LOCALES, type Locale } from '@i18n/locales';

export type MessageKey = KeyOf<'mail' | 'pages'>;

const WORDS = new Map(LOCALES.map((locale) => [locale, wordsOf(locale, 'mail', 'pages')]));

/**
 * The message `key` in `locale`, with `{{name}}` placeholders filled in (an unknown one is left
 * visible); a plural message (`key_one` / `key_other`) is chosen by `count`.
 */
export function mt(locale: Locale, key: MessageKey, values: Record<string, string | number> = {}): string {
  return WORDS.get(locale)!(key, values);
}
