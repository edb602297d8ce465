import { asc } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pickupSlots } from '../db/schema';

export type PickupSlotRow = typeof pickupSlots.$inferSelect;

/** The edition's badge pick-up slots, in the order they come: by first day, then opening time. */
export async function listPickupSlots(db: Db): Promise<PickupSlotRow[]> {
  return db.select().from(pickupSlots).orderBy(asc(pickupSlots.firstDay), asc(pickupSlots.opensAt));
}
