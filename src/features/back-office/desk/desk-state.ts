import type { DeskBadge, PickupResult } from '@domain/desk';
import type { Conflict, QueuedPickup } from './desk-db';

/*
 * The badge desk's bookkeeping, pure: the badges by id (the in-memory map each scan looks up),
 * with this desk's pick-ups not yet sent laid over the server's list, and the server's answers to
 * a sync turned into the badges' pick-ups and the conflicts to show.
 */

export type BadgeMap = Map<string, DeskBadge>;

/** The server's list as a map, with the queued pick-ups of this desk on top (the server has not seen them). */
export function badgeMap(list: DeskBadge[], queue: QueuedPickup[], organiser: string): BadgeMap {
  const map: BadgeMap = new Map(list.map((b) => [b.id, b]));
  for (const item of queue) {
    const badge = map.get(item.badgeId);
    if (badge && !badge.pickedUpAt)
      map.set(badge.id, { ...badge, pickedUpAt: item.at, pickedUpBy: organiser, pickedUpDesk: item.desk });
  }
  return map;
}

/** What the desk shows for a badge: hand it out, done here (sync pending), picked up, or refused. */
export type BadgeState = 'ready' | 'pending' | 'picked_up' | 'refused';

export function badgeState(badge: DeskBadge, pendingBadgeIds: ReadonlySet<string>): BadgeState {
  if (pendingBadgeIds.has(badge.id)) return 'pending';
  if (badge.refusal) return 'refused';
  return badge.pickedUpAt ? 'picked_up' : 'ready';
}

/**
 * Applies the server's answers to a sync: each badge takes the pick-up the server holds (the
 * first one), and every pick-up the server did not take becomes a conflict, never dropped silently.
 */
export function applyResults(
  map: BadgeMap,
  sent: QueuedPickup[],
  results: PickupResult[],
): { map: BadgeMap; conflicts: Conflict[] } {
  const next: BadgeMap = new Map(map);
  const conflicts: Conflict[] = [];
  const byId = new Map(sent.map((s) => [s.id, s]));
  for (const result of results) {
    const item = byId.get(result.id);
    const badge = next.get(result.badgeId);
    if (badge && result.outcome !== 'not_found')
      next.set(badge.id, {
        ...badge,
        pickedUpAt: result.pickedUpAt,
        pickedUpBy: result.pickedUpBy,
        pickedUpDesk: result.pickedUpDesk,
        ...(result.outcome === 'refused' ? { refusal: result.refusal } : {}),
      });
    if (result.outcome !== 'picked_up' && item)
      conflicts.push({
        id: result.id,
        badgeId: result.badgeId,
        nameEn: badge?.nameEn ?? '',
        nameZh: badge?.nameZh ?? '',
        orderNo: badge?.orderNo ?? '',
        at: item.at,
        desk: item.desk,
        result,
      });
  }
  return { map: next, conflicts };
}

/** SHA-256 of a scanned code, base64url (the list's `codeHash`). */
export async function hashCode(code: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
