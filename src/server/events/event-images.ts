import { and, eq, exists, or } from 'drizzle-orm';
import { UuidString } from '@domain/validation';
import type { Db } from '../db/client';
import { editions, events, files } from '../db/schema';
import type { FileStorage } from '../files/storage';
import { resizedCache } from '../files/resized-cache';
import { resizedImage } from '../files/thumbnails';

/*
 * Event images (issue 21): an organiser's `event_image` upload, served to anyone once an event
 * names it, resized to one of a few widths. A file's bytes never change (a new image is a new
 * upload, so a new address), so a resized copy is kept in memory and cached for long by browsers.
 */

/** The public path of an event's image at a width. */
export const eventImagePath = (fileId: string, width: number) => `/api/v1/event-images/${fileId}?w=${width}`;

const cache = resizedCache(48);

/** The image of an event at `width` (JPEG), or null when no event names this file or it is not a readable image. */
export async function readEventImage(
  db: Db,
  storage: FileStorage,
  fileId: string,
  width: number,
): Promise<Uint8Array | null> {
  if (!UuidString.is(fileId)) return null;
  // Asked every time: an image an organiser removed is no longer served, even from the cache.
  const [row] = await db
    .select({ storageKey: files.storageKey })
    .from(files)
    .where(
      and(
        eq(files.id, fileId),
        eq(files.purpose, 'event_image'),
        // An event's image, or an edition's badge-rights image (decision 049).
        or(
          exists(db.select({ id: events.id }).from(events).where(eq(events.imageFileId, files.id))),
          exists(db.select({ id: editions.id }).from(editions).where(eq(editions.badgeRightsFileId, files.id))),
        ),
      ),
    )
    .limit(1);
  if (!row) return null;
  return cache.get(`${fileId}:${width}`, async () => {
    const bytes = await storage.get(row.storageKey);
    return bytes ? resizedImage(bytes, width) : null;
  });
}
