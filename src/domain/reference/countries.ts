/**
 * Countries (spec §3 Reference data), built once from maintained data packages, never typed by
 * hand (decision 015):
 * - `world-countries` (mledoze/countries): ISO 3166-1 alpha-2 / alpha-3 codes, English common
 *   name, currencies, region, subregion, latitude and longitude;
 * - `cldr-localenames-full` (Unicode CLDR): the Traditional Chinese (zh-Hant) country names, the
 *   ones browsers show through Intl.DisplayNames, the short form where CLDR has one (香港, 澳門);
 * - `countries-list`: the international dialling code.
 * Only officially assigned ISO 3166-1 codes are kept (249; Kosovo's user-assigned XK / UNK is not
 * an ISO code and has no alpha-3 code to store in `company_country`).
 *
 * Server-side only: pages call these at SSR time and hand the Market wizard `countryOptions` as
 * props. No client island imports this module (it carries the whole country table).
 */
import worldCountries from 'world-countries';
import { countries as countriesList } from 'countries-list';
import cldrZhHant from 'cldr-localenames-full/main/zh-Hant/territories.json';

export type Country = {
  /** The English common name (`Taiwan`, `United States`). */
  name: string;
  /** The Traditional Chinese name (`台灣`, `美國`). */
  nameZhTw: string;
  /** URL slug of the English name (`united-states`). */
  slug: string;
  /** ISO 3166-1 alpha-3 (`TWN`): the code `company_country` stores. */
  iso: string;
  /** ISO 3166-1 alpha-2 (`TW`). */
  iso2: string;
  /** International dialling code with its plus sign (`+886`), or '' (none, e.g. Bouvet Island). */
  prefix: string;
  /** ISO 4217 code of the main currency (`TWD`), or '' (none, e.g. Antarctica). */
  currency: string;
  /** `Africa`, `Americas`, `Antarctic`, `Asia`, `Europe`, `Oceania`. */
  region: string;
  /** `Eastern Asia`, `Western Africa`…, or '' where the data has none. */
  subregion: string;
  /** Latitude and longitude of the country's centre. */
  latlng: [number, number];
};

export type CountryLocale = 'en' | 'zh-TW';

/** A URL slug: ASCII letters and digits joined by hyphens (`Côte d'Ivoire` → `cote-d-ivoire`). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const zhHant = cldrZhHant.main['zh-Hant'].localeDisplayNames.territories as Record<string, string>;
const dialling = countriesList as Record<string, { phone?: number[]; currency?: string[] } | undefined>;

const collators: Record<CountryLocale, Intl.Collator> = {
  en: new Intl.Collator('en', { sensitivity: 'base' }),
  'zh-TW': new Intl.Collator('zh-TW'),
};

function build(): Country[] {
  return worldCountries
    .filter((c) => c.status === 'officially-assigned')
    .map((c): Country => {
      const nameZhTw = zhHant[`${c.cca2}-alt-short`] ?? zhHant[c.cca2];
      if (!nameZhTw) throw new Error(`No Traditional Chinese name for ${c.cca2}`);
      const phone = dialling[c.cca2]?.phone?.[0];
      const [lat = 0, lng = 0] = c.latlng;
      return {
        name: c.name.common,
        nameZhTw,
        slug: slugify(c.name.common),
        iso: c.cca3,
        iso2: c.cca2,
        prefix: phone ? `+${phone}` : '',
        currency: Object.keys(c.currencies ?? {})[0] ?? dialling[c.cca2]?.currency?.[0] ?? '',
        region: c.region,
        subregion: c.subregion ?? '',
        latlng: [lat, lng],
      };
    })
    .sort((a, b) => collators.en.compare(a.name, b.name));
}

const COUNTRIES: readonly Country[] = Object.freeze(build());
const BY_ISO = new Map(COUNTRIES.map((c) => [c.iso, c]));
const BY_SLUG = new Map(COUNTRIES.map((c) => [c.slug, c]));

/** Every country, by English name (copies: callers may not change the table). */
export function listCountries(): Country[] {
  return COUNTRIES.map((c) => ({ ...c, latlng: [...c.latlng] }));
}

/** The country of an ISO 3166-1 alpha-3 code, any case (`twn`, `TWN`). */
export function countryByIso(iso: string): Country | undefined {
  const c = BY_ISO.get(iso.trim().toUpperCase());
  return c && { ...c, latlng: [...c.latlng] };
}

/** The country of a slug (`taiwan`, `united-states`), any case. */
export function countryBySlug(slug: string): Country | undefined {
  const c = BY_SLUG.get(slug.trim().toLowerCase());
  return c && { ...c, latlng: [...c.latlng] };
}

/** The country's name in a locale. */
export function countryName(c: Pick<Country, 'name' | 'nameZhTw'>, locale: CountryLocale): string {
  return locale === 'zh-TW' ? c.nameZhTw : c.name;
}

const optionsCache = new Map<CountryLocale, readonly { iso: string; iso2: string; name: string }[]>();

/**
 * The exhibitor country dropdown's options (spec §3: name, iso, iso2), by name in the locale's
 * collation (zh-TW: the Taiwanese order of Traditional characters).
 */
export function countryOptions(locale: CountryLocale): { iso: string; iso2: string; name: string }[] {
  let options = optionsCache.get(locale);
  if (!options) {
    const collator = collators[locale];
    options = COUNTRIES.map((c) => ({ iso: c.iso, iso2: c.iso2, name: countryName(c, locale) })).sort((a, b) =>
      collator.compare(a.name, b.name),
    );
    optionsCache.set(locale, options);
  }
  return options.map((o) => ({ ...o }));
}
