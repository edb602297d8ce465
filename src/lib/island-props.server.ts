import { pickMessages } from '@i18n/i18n';
import { localePath, type Locale } from '@i18n/locales';

/**
 * What every island is given by its page: the reader's language, the locale's prefix of its links
 * (`/zh-tw`) and the catalogue's words under `prefixes` (only those reach the browser).
 */
export const islandProps = (locale: Locale, prefixes: readonly string[]) => ({
  locale,
  base: `/${localePath(locale)}`,
  messages: pickMessages(locale, [...prefixes]),
});
