import { localePath, type Locale } from '@i18n/locales';

/** A path under a locale: `localized('zh-TW', '/account/orders')` → `/zh-tw/account/orders`. */
export const localized = (locale: Locale, path: string) =>
  `/${localePath(locale)}${path.startsWith('/') ? path : `/${path}`}`;

/** The path without its locale prefix: `/zh-tw/account/orders?x` → `/account/orders?x`. */
export function stripLocale(pathWithQuery: string): string {
  const stripped = pathWithQuery.replace(/^\/(en|zh-tw)(?=\/|$|\?)/i, '');
  return stripped.startsWith('/') ? stripped : `/${stripped}`;
}

/** Prefixes that are not pages: the API, embedded services, built assets. */
export const NON_PAGE_PREFIXES = [
  '/api/',
  '/dev-content',
  '/dev-identity/',
  '/dev-mailbox',
  '/sandbox-gateway/',
  '/_astro/',
  '/_server-islands/',
  '/_image',
];
