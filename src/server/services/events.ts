import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { events } from '../db/schema';

export type EventRow = typeof events.$inferSelect;

export async function findEventBySlug(db: Db, slug: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.slug, slug)).limit(1);
  return row;
}

export async function listEvents(db: Db): Promise<EventRow[]> {
  return db.select().from(events).orderBy(asc(events.startTime), asc(events.slug));
}
