/*
 * The exhibitor form's country list, for the Market pages (spec §3 Reference data: name, iso,
 * iso2 in the page's language). The one place the Market pages take countries from.
 *
 * PLACEHOLDER until the reference-data branch lands: the lead points this file at
 * `@domain/reference/countries` (`export { countryOptions } from '@domain/reference/countries';`)
 * and drops the short list below.
 */
export type CountryOption = { iso: string; iso2: string; name: string };

const FEW: { iso: string; iso2: string; en: string; zh: string }[] = [
  { iso: 'TWN', iso2: 'TW', en: 'Taiwan', zh: '臺灣' },
  { iso: 'JPN', iso2: 'JP', en: 'Japan', zh: '日本' },
  { iso: 'KOR', iso2: 'KR', en: 'South Korea', zh: '南韓' },
  { iso: 'USA', iso2: 'US', en: 'United States', zh: '美國' },
  { iso: 'FRA', iso2: 'FR', en: 'France', zh: '法國' },
];

/** Countries with names in `locale`, sorted for that language. */
export function countryOptions(locale: string): CountryOption[] {
  const zh = locale === 'zh-TW';
  return FEW.map((c) => ({ iso: c.iso, iso2: c.iso2, name: zh ? c.zh : c.en })).sort((a, b) =>
    a.name.localeCompare(b.name, locale),
  );
}
