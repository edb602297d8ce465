import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { events } from '../db/schema';

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

export async function listEvents(db: Db): Promise<EventRow[]> {
  return db.select().from(events).orderBy(asc(events.startTime), asc(events.slug));
}
