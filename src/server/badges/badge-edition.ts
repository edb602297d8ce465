import { sql, type Column, type SQL } from 'drizzle-orm';

/** The current edition's id, in SQL (null without one). */
export const CURRENT_EDITION_ID = sql`(select ce.id from editions ce where ce.is_current)`;

/**
 * The badges (or badge orders) of one edition: the one-badge rule is per edition (decision 068).
 * An edition column that is null (an event older than editions) reads as the current edition, as
 * the public lists show such events with the current edition's.
 */
export const ofEdition = (column: Column, editionId: string | null | SQL | Column) =>
  sql`coalesce(${column}, ${CURRENT_EDITION_ID}) is not distinct from coalesce(${editionId}::uuid, ${CURRENT_EDITION_ID})`;
