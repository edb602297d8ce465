/**
 * Works of the content site (spec §3 Work), shared by the Market and pitching registrations: the
 * categories and genres, the id as the API takes it, and the shape `GET /contents/remote` answers.
 */
import { define } from 'superstruct';

/** Work categories 1–16 and the two work genres. */
export const WORK_CATEGORIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as const;
export const WORK_GENRES = ['piece', 'project'] as const;
export type WorkGenre = (typeof WORK_GENRES)[number];

/** A work id of the content site: a positive integer, or its decimal string. */
export const WorkId = define<string | number>(
  'work id',
  (v) =>
    (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'string' && /^[1-9]\d{0,17}$/.test(v)),
);

/** A work of the content site, as `GET /contents/remote` answers it. */
export type Work = {
  id: number;
  genreId: WorkGenre;
  categoryId: number;
  languageEn: { title: string };
  languageZhTw: { title: string };
  /** The title in the request's language. */
  name: string;
  priceTwd: { cents: number; currency: 'TWD' };
  priceUsd: { cents: number; currency: 'USD' };
};

/**
 * A draft's chosen works that are still on the content site (a work deleted there since the
 * draft was kept is no longer chosen); the same array when nothing is gone.
 */
export function stillAvailable(selected: number[], works: readonly Pick<Work, 'id'>[]): number[] {
  const ids = new Set(works.map((w) => w.id));
  return selected.every((id) => ids.has(id)) ? selected : selected.filter((id) => ids.has(id));
}
