/**
 * Works from the content site (spec §3 Work, issue 9): the source the API reads them through, the
 * record it answers, the localised `Work` of the wire, and the check the Market and pitching
 * orders run on the works a user selected (decision 016).
 */
import { DomainError } from '@domain/errors';
import type { Work, WorkGenre } from '@domain/works';
import type { Locale } from '@i18n/locales';

/** A work as the content site holds it: both titles, genre, category and both prices. */
export type WorkRecord = {
  id: number;
  genre: WorkGenre;
  /** 1–16 (WORK_CATEGORIES). */
  categoryId: number;
  titleEn: string;
  titleZh: string;
  /** Hundredths of the currency unit, as every Money of the portal (NT$1,000 = 100000). */
  priceCentsTwd: number;
  priceCentsUsd: number;
};

/** Whose works: the signed-in user's identity token (forwarded to the content site) and identity. */
export type ContentUser = { token: string; subject: string; email: string };

/** Where the works come from: the content site's protocol (real or the embedded dev site). */
export type ContentSource = {
  /** The user's works, oldest first. */
  listWorks(user: ContentUser): Promise<WorkRecord[]>;
  /** Those of `ids` that are the user's works (others are left out, not an error). */
  getWorks(user: ContentUser, ids: number[]): Promise<WorkRecord[]>;
};

/** The wire's `Work` of a record, with `name` in `locale`. */
export function workView(work: WorkRecord, locale: Locale): Work {
  return {
    id: work.id,
    genreId: work.genre,
    categoryId: work.categoryId,
    languageEn: { title: work.titleEn },
    languageZhTw: { title: work.titleZh },
    name: locale === 'zh-TW' ? work.titleZh : work.titleEn,
    priceTwd: { cents: work.priceCentsTwd, currency: 'TWD' },
    priceUsd: { cents: work.priceCentsUsd, currency: 'USD' },
  };
}

/**
 * The selected works of an order, fetched now so the order can snapshot them (titles, genre,
 * category, prices), in the order selected, each once. An id that is not one of the user's works
 * is refused with `work_not_found` naming it; a content site that is down is
 * `content_site_unavailable`.
 */
export async function resolveSelectedWorks(
  source: ContentSource,
  user: ContentUser,
  ids: readonly (number | string)[],
): Promise<WorkRecord[]> {
  const wanted = [...new Set(ids.map((id) => String(id).trim()))];
  const numeric = wanted.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  const found = numeric.length ? await source.getWorks(user, numeric) : [];
  const byId = new Map(found.map((w) => [String(w.id), w]));
  return wanted.map((id) => {
    const work = byId.get(id);
    if (!work) throw new DomainError('work_not_found', `Work ${id} is not one of your works on the content site`);
    return work;
  });
}
