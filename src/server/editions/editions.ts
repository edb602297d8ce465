import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { editions } from '../db/schema';

/*
 * Editions (issue 21): the fair of one year groups its events and settings; exactly one is
 * current at most (the public pages show it). Settings of other capabilities (pick-up schedule,
 * invoices, meetings) are keyed by the edition's id and read through `currentEdition`.
 */

export type Edition = typeof editions.$inferSelect;

/** The current edition, or undefined before the first admin creates one (production starts empty). */
export async function currentEdition(db: Db): Promise<Edition | undefined> {
  const [row] = await db.select().from(editions).where(eq(editions.isCurrent, true)).limit(1);
  return row;
}

/**
 * The demo edition of the embedded default (the seed): `tccf-<year>` of the seeded events, made
 * current unless another edition already is. Idempotent; answers the edition's id.
 */
export async function ensureSeedEdition(db: Db, year: number): Promise<string> {
  const slug = `tccf-${year}`;
  const current = await currentEdition(db);
  if (current) return current.id;
  const [row] = await db
    .insert(editions)
    .values({ slug, nameEn: `TCCF ${year}`, nameZh: `TCCF ${year}`, isCurrent: true })
    .onConflictDoUpdate({ target: editions.slug, set: { isCurrent: true, updatedAt: sql`now()` } })
    .returning({ id: editions.id });
  return row!.id;
}
