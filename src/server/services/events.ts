import { asc, eq } from 'drizzle-orm';
import { registrationWindowState } from '@domain/events';
import type { Locale } from '@i18n/locales';
import type { Db } from '../db/client';
import { events } from '../db/schema';

export type EventRow = typeof events.$inferSelect;

/** The wire view of an event, localised for `locale` (both names are kept). */
export function eventView(row: EventRow, locale: Locale, now: Date) {
  const zh = locale === 'zh-TW';
  return {
    id: row.id,
    slug: row.slug,
    type: row.type,
    name: zh ? row.nameZh : row.nameEn,
    nameEn: row.nameEn,
    nameZh: row.nameZh,
    description: zh ? row.descriptionZh : row.descriptionEn,
    startTime: row.startTime,
    endAt: row.endAt,
    location: zh ? row.locationZh : row.locationEn,
    registerStartAt: row.registerStartAt,
    registerEndAt: row.registerEndAt,
    formModifyExpiresAt: row.formModifyExpiresAt,
    priceCentsTwd: row.priceCentsTwd,
    priceCentsUsd: row.priceCentsUsd,
    originalPriceCentsTwd: row.originalPriceCentsTwd,
    capacity: row.capacity,
    seatsLeft: row.capacity === null ? null : Math.max(0, row.capacity - row.seatsTaken),
    requiresApproval: row.requiresApproval,
    registrationState: registrationWindowState(row, now),
  };
}

export async function findEventBySlug(db: Db, slug: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.slug, slug)).limit(1);
  return row;
}

export async function listEvents(db: Db): Promise<EventRow[]> {
  return db.select().from(events).orderBy(asc(events.startTime), asc(events.slug));
}
