import i18next, { type TFunction } from 'i18next';
import en from './en.json';
import zhTW from './zh-TW.json';
import { LOCALES, type Locale } from './locales';

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

/** The translator of a locale. */
export function translator(locale: Locale): Translate {
  const t = instances.get(locale)!;
  return (key, values) => t(key, values ?? {}) as string;
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
