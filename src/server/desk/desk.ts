/**
 * The badge desk (issue 11): the badge list a desk caches for offline use, verifying a scanned
 * pick-up code, recording pick-ups (race-safe and idempotent), and the photos' thumbnails.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { BadgeIdentity } from '@domain/badges';
import { deskRefusal, type DeskBadge, type PickupItem, type PickupResult } from '@domain/desk';
import type { Db, Tx } from '../db/client';
import { badgePickups, badges, files, orders, users } from '../db/schema';
import { recordUnchangedOrderEvent } from '../orders/order-state';
import { currentEdition, type Edition } from '../editions/editions';
import { verifyPickupCode } from '../badges/pickup';
import type { FileStorage } from '../files/storage';
import { photoThumbnail, THUMBNAIL_SIZE } from '../files/thumbnails';

/** The URL of a badge photo's thumbnail (organisers only). */
export const deskPhotoUrl = (fileId: string) => `/api/v1/admin/desk/photos/${fileId}`;

/** SHA-256 of a pick-up code, base64url: what the desk compares a scanned code with. */
export const codeHash = (code: string) => createHash('sha256').update(code).digest('base64url');

const badgeColumns = {
  id: badges.id,
  pickupCode: badges.pickupCode,
  identity: badges.identity,
  nameZh: badges.nameZh,
  nameEn: badges.nameEn,
  companyNameZh: badges.companyNameZh,
  companyNameEn: badges.companyNameEn,
  photo: badges.personalPhotoFileId,
  pickedUpAt: badges.pickedUpAt,
  pickedUpBy: badges.pickedUpBy,
  pickedUpDesk: badges.pickedUpDesk,
  editionId: badges.editionId,
  orderId: orders.id,
  orderNo: orders.orderNo,
  paymentStatus: orders.paymentStatus,
  approvalStatus: orders.approvalStatus,
  email: users.email,
  name: users.name,
};
type BadgeRow = {
  id: string;
  pickupCode: string;
  identity: BadgeIdentity;
  nameZh: string;
  nameEn: string;
  companyNameZh: string;
  companyNameEn: string;
  photo: string | null;
  pickedUpAt: Date | null;
  pickedUpBy: string | null;
  pickedUpDesk: string | null;
  editionId: string | null;
  orderId: string;
  orderNo: string;
  paymentStatus: (typeof orders.$inferSelect)['paymentStatus'];
  approvalStatus: (typeof orders.$inferSelect)['approvalStatus'];
  email: string;
  name: string | null;
};

/**
 * The desk hands out the current edition's badges (decision 068): a badge of another edition is
 * refused as such. Without any edition, nothing is of another one; a badge of an event without an
 * edition (older than editions) counts as the current edition's, as its event does.
 */
const otherEdition = (row: Pick<BadgeRow, 'editionId'>, current: Edition | undefined) =>
  !!current && row.editionId !== null && row.editionId !== current.id;

function deskBadge(row: BadgeRow, current: Edition | undefined): DeskBadge {
  return {
    id: row.id,
    codeHash: codeHash(row.pickupCode),
    identity: row.identity,
    nameZh: row.nameZh,
    nameEn: row.nameEn,
    companyNameZh: row.companyNameZh,
    companyNameEn: row.companyNameEn,
    email: row.email,
    name: row.name,
    orderNo: row.orderNo,
    photoUrl: row.photo ? deskPhotoUrl(row.photo) : null,
    refusal: deskRefusal(row, otherEdition(row, current)),
    pickedUpAt: row.pickedUpAt?.toISOString() ?? null,
    pickedUpBy: row.pickedUpBy,
    pickedUpDesk: row.pickedUpDesk,
  };
}

const badgeQuery = (db: Db | Tx) =>
  db
    .select(badgeColumns)
    .from(badges)
    .innerJoin(orders, eq(orders.id, badges.orderId))
    .innerJoin(users, eq(users.id, badges.userId));

/**
 * Every badge, for the desk's offline cache (badges of closed orders too, and of past editions:
 * refused with the reason, so that a scan of last year's badge says so even offline).
 */
export async function deskBadges(db: Db): Promise<DeskBadge[]> {
  const current = await currentEdition(db);
  const rows = await badgeQuery(db).orderBy(badges.createdAt, badges.id);
  return rows.map((row) => deskBadge(row, current));
}

/** A scanned code: `invalid` (malformed or forged), `unknown` (genuine, but no such badge), or the badge. */
export async function verifyCode(
  db: Db,
  secret: string,
  code: string,
): Promise<{ kind: 'invalid' } | { kind: 'unknown' } | { kind: 'ok'; badge: DeskBadge }> {
  const badgeId = verifyPickupCode(code, secret);
  if (!badgeId) return { kind: 'invalid' };
  const [row] = await badgeQuery(db).where(eq(badges.id, badgeId.toLowerCase())).limit(1);
  return row ? { kind: 'ok', badge: deskBadge(row, await currentEdition(db)) } : { kind: 'unknown' };
}

/** A pick-up's time: the desk's clock, never in the server's future. */
const pickupTime = (at: string, now: Date) => new Date(Math.min(Date.parse(at), now.getTime()));

/**
 * Records one pick-up of a desk. In one transaction, with the badge row locked: a pick-up id seen
 * before answers what was recorded then (a desk sending its queue again, or a lost answer);
 * otherwise an order that is not issued is refused, a badge already picked up is a conflict (the
 * first pick-up stays), and else the badge is marked picked up — by this organiser, at this desk —
 * with an `order_events` row. Every outcome is kept in `badge_pickups`. Two desks at once: the row
 * lock serialises them, so exactly one marks the badge.
 */
export async function recordPickup(
  db: Db,
  item: PickupItem,
  who: { organiser: string; desk: string },
  now: Date,
): Promise<PickupResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select(badgeColumns)
      .from(badges)
      .innerJoin(orders, eq(orders.id, badges.orderId))
      .innerJoin(users, eq(users.id, badges.userId))
      .where(eq(badges.id, item.badgeId.toLowerCase()))
      .for('update', { of: badges })
      .limit(1);
    const answer = (
      outcome: PickupResult['outcome'],
      badge: Pick<BadgeRow, 'pickedUpAt' | 'pickedUpBy' | 'pickedUpDesk'> | undefined,
      refusal: PickupResult['refusal'] = null,
    ): PickupResult => ({
      id: item.id,
      badgeId: item.badgeId.toLowerCase(),
      outcome,
      refusal,
      pickedUpAt: badge?.pickedUpAt?.toISOString() ?? null,
      pickedUpBy: badge?.pickedUpBy ?? null,
      pickedUpDesk: badge?.pickedUpDesk ?? null,
    });
    if (!row) return answer('not_found', undefined);

    // The same pick-up again (its id is the desk's): what was decided the first time.
    const [seen] = await tx
      .select({ badgeId: badgePickups.badgeId, outcome: badgePickups.outcome, refusal: badgePickups.refusal })
      .from(badgePickups)
      .where(eq(badgePickups.id, item.id))
      .limit(1);
    if (seen) {
      if (seen.badgeId !== row.id) return answer('not_found', undefined);
      return answer(seen.outcome, row, seen.refusal as PickupResult['refusal']);
    }

    const refusal = deskRefusal(row, otherEdition(row, await currentEdition(tx)));
    const at = pickupTime(item.at, now);
    const log = (outcome: PickupResult['outcome'] & (typeof badgePickups.$inferInsert)['outcome']) =>
      tx.insert(badgePickups).values({
        id: item.id,
        badgeId: row.id,
        outcome,
        refusal,
        organiser: who.organiser,
        desk: who.desk,
        pickedUpAt: at,
        recordedAt: now,
      });
    if (refusal) {
      await log('refused');
      return answer('refused', row, refusal);
    }
    if (row.pickedUpAt) {
      await log('already_picked_up');
      return answer('already_picked_up', row);
    }
    const [marked] = await tx
      .update(badges)
      .set({ pickedUpAt: at, pickedUpBy: who.organiser, pickedUpDesk: who.desk })
      .where(eq(badges.id, row.id))
      .returning({ pickedUpAt: badges.pickedUpAt, pickedUpBy: badges.pickedUpBy, pickedUpDesk: badges.pickedUpDesk });
    await log('picked_up');
    await recordUnchangedOrderEvent(tx, row, {
      orderId: row.orderId,
      kind: 'badge_picked_up',
      actor: { kind: 'organiser', id: who.organiser },
      payload: { badgeId: row.id, desk: who.desk, pickupId: item.id, pickedUpAt: at.toISOString() },
      at: now,
    });
    return answer('picked_up', marked);
  });
}

/** The pick-ups of a desk's batch, each on its own (one refusal does not undo the others). */
export async function recordPickups(
  db: Db,
  items: PickupItem[],
  who: { organiser: string; desk: string },
  now: Date,
): Promise<PickupResult[]> {
  const results: PickupResult[] = [];
  for (const item of items) results.push(await recordPickup(db, item, who, now));
  return results;
}

/** Thumbnails being made, so that desks asking for the same photo at once make it once. */
const making = new Map<string, Promise<Uint8Array | null>>();

/**
 * The thumbnail of a badge's photo (a JPEG of THUMBNAIL_SIZE px), made on first request and kept
 * in the file storage; null when the file is no badge's photo or not a readable image.
 */
export async function badgePhotoThumbnail(db: Db, storage: FileStorage, fileId: string): Promise<Uint8Array | null> {
  const [file] = await db
    .select({ storageKey: files.storageKey })
    .from(files)
    .innerJoin(badges, eq(badges.personalPhotoFileId, files.id))
    .where(eq(files.id, fileId))
    .limit(1);
  if (!file) return null;
  const key = `thumbnails/${fileId}-${THUMBNAIL_SIZE}`;
  const cached = await storage.get(key);
  if (cached) return cached;
  let pending = making.get(key);
  if (!pending) {
    pending = (async () => {
      const bytes = await storage.get(file.storageKey);
      const thumb = bytes && photoThumbnail(bytes);
      if (thumb) await storage.put(key, thumb);
      return thumb;
    })().finally(() => making.delete(key));
    making.set(key, pending);
  }
  return pending;
}
