import i18next, { type TFunction } from 'i18next';
import { CATALOGUES } from './catalogues';
import { LOCALES, type Locale } from './locales';

/** The pages' words: their own catalogue and the enumerations' labels (no key is in both). */
const en = { ...CATALOGUES.pages.en, ...CATALOGUES.enumerations.en };
const zhTW = { ...CATALOGUES.pages['zh-TW'], ...CATALOGUES.enumerations['zh-TW'] };

export type MessageKey = keyof typeof en;
export type Messages = Record<string, string>;
export const MESSAGES: Record<Locale, Messages> = { en, 'zh-TW': zhTW };

/*
 * One i18next instance per locale, fixed to that locale at creation and never switched: a
 * request reads the instance of its own locale, so concurrent requests cannot change each
 * other's language (the hazard of a global changeLanguage, DESIGN D5). Keys are flat and dotted.
 */
const instances = new Map<Locale, TFunction>();
for (const locale of LOCALES) {
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: 'en',
    resources: { en: { translation: en }, 'zh-TW': { translation: zhTW } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  instances.set(locale, instance.t.bind(instance) as TFunction);
}

/** The base of a plural message (`orders.count` for `orders.count_one` / `orders.count_other`): give `count`. */
export type PluralKey = { [K in MessageKey]: K extends `${infer Base}_other` ? Base : never }[MessageKey];
export type Translate = (key: MessageKey | PluralKey, values?: Record<string, string | number>) => string;

/**
 * Messages without values, by locale and key: i18next resolves a key in ~10 µs, and a page of 100
 * orders asks for the same twenty keys a hundred times. The result depends on the key alone.
 */
const plain = new Map<Locale, Map<string, string>>(LOCALES.map((l) => [l, new Map()]));
const translators = new Map<Locale, Translate>(
  LOCALES.map((locale) => {
    const t = instances.get(locale)!;
    const cache = plain.get(locale)!;
    const translate: Translate = (key, values) => {
      if (values) return t(key, values) as string;
      let text = cache.get(key);
      if (text === undefined) {
        text = t(key, {}) as string;
        // Keys are the messages' own (a bounded set); the bound only guards a misuse.
        if (cache.size < 5000) cache.set(key, text);
      }
      return text;
    };
    return [locale, translate];
  }),
);

/** The translator of a locale. */
export function translator(locale: Locale): Translate {
  return translators.get(locale)!;
}

/** Messages every island gets: the errors its generic alert translates (alertText in @lib/api). */
const ISLAND_MESSAGES = ['apiError.rate_limited', 'apiError.upload_quota_exceeded'];

/** The messages under the given key prefixes (and ISLAND_MESSAGES), for an island's props. */
export function pickMessages(locale: Locale, prefixes: string[]): Messages {
  return Object.fromEntries(
    Object.entries(MESSAGES[locale]).filter(
      ([k]) => ISLAND_MESSAGES.includes(k) || prefixes.some((p) => k.startsWith(p)),
    ),
  );
}
