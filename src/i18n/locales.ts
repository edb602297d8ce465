/** The portal's locales: the code (BCP 47, used in messages and `lang`) and the URL path. */
export const LOCALES = ['en', 'zh-TW'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_COOKIE = 'locale';

const PATHS: Record<Locale, string> = { en: 'en', 'zh-TW': 'zh-tw' };

/** URL path segment of a locale: `zh-TW` → `zh-tw`. */
export const localePath = (locale: Locale) => PATHS[locale];

/** The locale whose path segment or code this is (case-insensitive), if any. */
export function toLocale(value: string | null | undefined): Locale | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'en' || v.startsWith('en-')) return 'en';
  // zh-TW, zh-tw, zh-Hant, zh-Hant-TW, zh-HK: all read Traditional Chinese.
  if (v === 'zh-tw' || v === 'zh-hant' || v.startsWith('zh-hant-') || v === 'zh-hk' || v === 'zh-mo') return 'zh-TW';
  return undefined;
}

/** Locales of an Accept-Language header, best first (q-values honoured, q=0 dropped). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((x) => x.tag && x.tag !== '*' && Number.isFinite(x.q) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((x) => x.tag);
}

/**
 * The locale to show (spec §9, DESIGN D6): the `locale` query parameter, then the stored
 * preference, then the browser's languages, then English. Plain `zh` (no script or region) is
 * taken as Traditional Chinese only from the browser, since our only Chinese is zh-TW.
 */
export function negotiateLocale(input: {
  query?: string | null;
  stored?: string | null;
  acceptLanguage?: string | null;
}): Locale {
  const explicit = toLocale(input.query) ?? toLocale(input.stored);
  if (explicit) return explicit;
  for (const tag of parseAcceptLanguage(input.acceptLanguage)) {
    const locale = toLocale(tag) ?? (tag.toLowerCase() === 'zh' ? 'zh-TW' : undefined);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
