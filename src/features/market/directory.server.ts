import { BUSINESS_TYPES, INDUSTRIES, WORK_CATEGORIES, enumKey } from '@domain/enumerations';
import {
  DIRECTORY_PAGE_SIZE,
  ExhibitorQuery,
  exhibitorFilters,
  type ExhibitorFilters,
} from '@domain/exhibitor-directory';
import { check } from '@domain/validation';
import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import type { MessageKey, Translate } from '@i18n/i18n';

/*
 * The exhibitor directory's pages (issue 23): the filters a visitor's GET form sent, the API's
 * page of exhibitors, one exhibitor, and the addresses of the pages. Server-rendered, no island.
 */

/** The directory's path under the locale, and one exhibitor's. */
export const DIRECTORY_PATH = '/market/exhibitors';
export const exhibitorPath = (id: string) => `${DIRECTORY_PATH}/${encodeURIComponent(id)}`;
/** The booking page of an exhibitor (the meetings capability's). */
export const meetingRequestPath = (id: string) => `${exhibitorPath(id)}/meet`;

const PARAMS = ['q', 'industry', 'business_category', 'country', 'work_category', 'page'] as const;

/**
 * The filters of the page's address: each parameter checked on its own, a value the directory
 * does not know (an old link, a hand-edited address) ignored rather than refused.
 */
export function filtersFromUrl(url: URL): ExhibitorFilters {
  const query: Record<string, string> = {};
  for (const name of PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null && check({ [name]: value }, ExhibitorQuery).ok) query[name] = value;
  }
  const result = check(query, ExhibitorQuery);
  return result.ok ? { ...exhibitorFilters(result.value), limit: DIRECTORY_PAGE_SIZE } : {};
}

/** The address of a page of the directory with these filters (empty ones left out). */
export function directoryHref(localized: (path: string) => string, filters: ExhibitorFilters, page = 1): string {
  const params = new URLSearchParams();
  const set = (name: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') params.set(name, String(value));
  };
  set('q', filters.q);
  set('industry', filters.industry);
  set('business_category', filters.businessCategory);
  set('country', filters.country);
  set('work_category', filters.workCategory);
  if (page > 1) set('page', page);
  const search = params.toString();
  return localized(DIRECTORY_PATH) + (search ? `?${search}` : '');
}

/**
 * The directory's select filters in the form's order, each its parameter, label, options (the
 * enumerations' labels; the countries the listed exhibitors are from) and the value chosen.
 */
export function directorySelects(
  t: Translate,
  filters: ExhibitorFilters,
  countries: readonly { iso: string; name: string }[],
) {
  const option = (id: number, key: MessageKey) => ({ value: String(id), label: t(key) });
  const chosen = (v: number | undefined) => (v === undefined ? undefined : String(v));
  return [
    {
      name: 'industry',
      label: t('directory.industry'),
      options: INDUSTRIES.map((id) => option(id, enumKey('companyType', id))),
      selected: chosen(filters.industry),
    },
    {
      name: 'business_category',
      label: t('directory.businessCategory'),
      options: BUSINESS_TYPES.map((id) => option(id, enumKey('businessType', id))),
      selected: chosen(filters.businessCategory),
    },
    {
      name: 'country',
      label: t('directory.country'),
      options: countries.map((c) => ({ value: c.iso, label: c.name })),
      selected: filters.country,
    },
    {
      name: 'work_category',
      label: t('directory.workCategory'),
      options: WORK_CATEGORIES.map((id) => option(id, enumKey('workCategory', id))),
      selected: chosen(filters.workCategory),
    },
  ];
}

/** A page of the directory. */
export const loadDirectory = (api: ApiClient, filters: ExhibitorFilters) =>
  load(async () => await api.market.exhibitors(filters));

/** One listed exhibitor (not_found: not in the directory). */
export const loadExhibitor = (api: ApiClient, id: string) => load(async () => (await api.market.exhibitor(id)).data);
