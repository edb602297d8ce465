/*
 * The exhibitor form's country list, for the Market pages (spec §3 Reference data: name, iso,
 * iso2 in the page's language), from the reference data (decision 015). Server-side only: the
 * wizard gets the list as props, never the data package.
 */
import { countryOptions as fromReference } from '@domain/reference/countries';

export type CountryOption = { iso: string; iso2: string; name: string };

/** Countries with names in `locale`, sorted for that language. */
export const countryOptions = (locale: string): CountryOption[] => fromReference(locale === 'zh-TW' ? 'zh-TW' : 'en');
