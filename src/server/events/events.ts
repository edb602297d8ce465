import { and, asc, eq, exists, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { editions, events } from '../db/schema';

export type EventRow = typeof events.$inferSelect;

export async function findEventBySlug(db: Db, slug: string): Promise<EventRow | undefined> {
  const statement = prepared(db, 'event_by_slug', (d) =>
    d
      .select()
      .from(events)
      .where(eq(events.slug, sql.placeholder('slug')))
      .limit(1)
      .prepare('event_by_slug'),
  );
  const [row] = await statement.execute({ slug });
  return row;
}

/** Events of the current edition (and rows older than editions): the lists show no past edition's. */
export const inCurrentEdition = () =>
  or(
    isNull(events.editionId),
    exists(sql`(select 1 from ${editions} where ${editions.id} = ${events.editionId} and ${editions.isCurrent})`),
  );

/**
 * The public list: the current edition's published events only (drafts are the back office's,
 * archived ones are out of it).
 */
export async function listEvents(db: Db): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(and(eq(events.status, 'published'), inCurrentEdition()))
    .orderBy(asc(events.startTime), asc(events.slug));
}

/** Whether the public pages and API show an event: any but a draft (an archived event's page stays for its registrants). */
export const publiclyVisible = (e: Pick<EventRow, 'status'>) => e.status !== 'draft';
