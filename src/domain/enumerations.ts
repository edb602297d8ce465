/**
 * The enumerations of spec §3 with ids: participation types, company types (= the 8 industry
 * options, decision 014), business types, story genres, work categories and work genres. Their
 * labels are i18n messages `enum.<kind>.<id>` (`enumKey`), in both languages, in the
 * enumerations' catalogue (`src/i18n/enumerations/*.json`), which pages, the API and exports read.
 */
export { BUSINESS_TYPES, COMPANY_TYPES, INDUSTRIES, PARTICIPATION_TYPES, type ParticipationType } from './kinds/market';
import { BUSINESS_TYPES, COMPANY_TYPES, PARTICIPATION_TYPES } from './kinds/market';
import { WORK_CATEGORIES, WORK_GENRES, type WorkGenre } from './works';
export { WORK_CATEGORIES, WORK_GENRES, type WorkGenre };

/** Story genres 1–27 (spec §3): drama … culture, 27 = other (asks for `story_genre_other`). */
export const STORY_GENRES = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
] as const;
export type StoryGenre = (typeof STORY_GENRES)[number];
export const STORY_GENRE_OTHER = 27 satisfies StoryGenre;

/** Company type 8 and business type 14 and work category 16 are "other". */
export const COMPANY_TYPE_OTHER = 8;
export const BUSINESS_TYPE_OTHER = 14;
export const WORK_CATEGORY_OTHER = 16;

/** The ids of every enumeration, by kind (the kind is the i18n key's middle part). */
export const ENUMERATIONS = {
  participation: PARTICIPATION_TYPES,
  companyType: COMPANY_TYPES,
  businessType: BUSINESS_TYPES,
  storyGenre: STORY_GENRES,
  workCategory: WORK_CATEGORIES,
  workGenre: WORK_GENRES,
} as const;
export type EnumerationKind = keyof typeof ENUMERATIONS;
export type EnumerationId<K extends EnumerationKind> = (typeof ENUMERATIONS)[K][number];
export const ENUMERATION_KINDS = Object.keys(ENUMERATIONS) as EnumerationKind[];

/** The i18n key of an enumeration value: `enumKey('companyType', 3)` → `enum.companyType.3`. */
export function enumKey<K extends EnumerationKind>(kind: K, id: EnumerationId<K>): `enum.${K}.${EnumerationId<K>}` {
  return `enum.${kind}.${id}`;
}
