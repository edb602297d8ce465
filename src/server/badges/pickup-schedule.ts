import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { editions, pickupSlots } from '../db/schema';

export type PickupSlotRow = typeof pickupSlots.$inferSelect;

/**
 * An edition's badge pick-up slots (the current edition's without `editionId`), in the order they
 * come: by first day, then opening time. None before there is an edition.
 */
export async function listPickupSlots(db: Db, editionId?: string | null): Promise<PickupSlotRow[]> {
  const rows = db
    .select({ slot: pickupSlots })
    .from(pickupSlots)
    .innerJoin(
      editions,
      and(
        eq(editions.id, pickupSlots.editionId),
        editionId ? eq(editions.id, editionId) : eq(editions.isCurrent, true),
      ),
    )
    .orderBy(asc(pickupSlots.firstDay), asc(pickupSlots.opensAt));
  return (await rows).map((r) => r.slot);
}
