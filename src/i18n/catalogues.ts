/**
 * The portal's words, one catalogue per audience, each as `<name>/en.json` + `<name>/zh-TW.json`
 * with the same flat dotted keys (the pages' catalogue is `src/i18n/en.json` + `zh-TW.json`):
 *
 * - pages: the pages and islands (through ./i18n), and the words other audiences share with them
 *   (statuses, badge identities, payment types, form field labels);
 * - enumerations: the labels of the spec's enumerations (pages, the reference API, exports);
 * - mail: the e-mails and the dev mailbox;
 * - exports: the column headers only the back office's exports use.
 *
 * A key is in one catalogue only (src/i18n/messages.test.ts), so a reader that tries several in
 * turn always finds the one word the key names. This module is how the server reads them: plain
 * data and the islands' formatter, no i18next runtime and no UI code (decision 037).
 */
import type { Locale } from './locales';
import { formatMessage, type Messages } from './t';
import pagesEn from './en.json';
import pagesZh from './zh-TW.json';
import enumerationsEn from './enumerations/en.json';
import enumerationsZh from './enumerations/zh-TW.json';
import mailEn from './mail/en.json';
import mailZh from './mail/zh-TW.json';
import exportsEn from './exports/en.json';
import exportsZh from './exports/zh-TW.json';

export const CATALOGUES = {
  pages: { en: pagesEn, 'zh-TW': pagesZh },
  enumerations: { en: enumerationsEn, 'zh-TW': enumerationsZh },
  mail: { en: mailEn, 'zh-TW': mailZh },
  exports: { en: exportsEn, 'zh-TW': exportsZh },
} as const satisfies Record<string, Record<Locale, Messages>>;

export type CatalogueName = keyof typeof CATALOGUES;
type WithPluralBases<K extends string> = K | (K extends `${infer Base}_${'one' | 'other'}` ? Base : never);
/** The keys of a catalogue, and the bases of its plural messages (`x` for `x_one` / `x_other`). */
export type KeyOf<C extends CatalogueName> = C extends CatalogueName
  ? WithPluralBases<keyof (typeof CATALOGUES)[C]['en'] & string>
  : never;

/** The messages of one catalogue in a locale. */
export function catalogue(name: CatalogueName, locale: Locale): Readonly<Messages> {
  return CATALOGUES[name][locale];
}

/**
 * A translator over the given catalogues in a locale: the first that has the key gives the text,
 * with plural forms and `{{name}}` placeholders as the islands' translator fills them (./t).
 */
export function wordsOf<C extends CatalogueName>(
  locale: Locale,
  ...names: C[]
): (key: KeyOf<C>, values?: Record<string, string | number>) => string {
  const merged: Messages = Object.assign({}, ...[...names].reverse().map((name) => CATALOGUES[name][locale]));
  return (key, values) => formatMessage(merged, key as string, values);
}
