/**
 * Works of the content site on the wire (decision 043), as Market and pitching registrations pick
 * them: `GET /contents/remote`. The shape is declared with the works' rules in @domain/works.
 */
export type { Work } from '@domain/works';

/** A label of an enumeration (its id and its words in the request's language). */
export type EnumerationLabel<I extends number | string = number> = { id: I; label: string };

/** A work of an exhibitor as the directory shows it: its titles, category and genre. */
export type DirectoryWork = {
  /** The content site's id of the work. */
  id: string;
  /** The title in the request's language, and in both. */
  title: string;
  titleEn: string;
  titleZh: string;
  category: EnumerationLabel | null;
  genre: EnumerationLabel<string> | null;
};

/**
 * An exhibitor of the directory (`GET /market/exhibitors`, `GET /market/exhibitors/{id}`): only
 * what its exhibitor form makes public (never its contacts). `id` is its Market registration's id.
 */
export type DirectoryExhibitor = {
  id: string;
  /** The company name and profile in the request's language (the other's when empty), and in both. */
  companyName: string;
  companyNameEn: string;
  companyNameZh: string;
  profile: string;
  profileEn: string;
  profileZh: string;
  industry: EnumerationLabel | null;
  businessCategories: EnumerationLabel[];
  country: { iso: string; name: string } | null;
  /** The logo's public address (resized), or null. */
  logoUrl: string | null;
  works: DirectoryWork[];
};

/** A page of the directory, with the countries its exhibitors come from (the country filter's options). */
export type DirectoryPage = {
  data: DirectoryExhibitor[];
  meta: { page: number; limit: number; total: number };
  countries: { iso: string; name: string }[];
};
