import { array, object, pattern, refine, size, string } from 'superstruct';
import { DESK_NAME_MAX, DESK_SYNC_MAX } from './desk';
import { UuidString } from './validation';

/* The badge desk's API requests (issue 11), validated by the API with superstruct. */

const IsoTime = refine(string(), 'iso time', (v) => !Number.isNaN(Date.parse(v)) || 'Expected an ISO date-time');
const DeskName = size(pattern(string(), /^[^\u0000-\u001f]+$/), 1, DESK_NAME_MAX);

/** One pick-up as a desk records it: its own id (idempotency), the badge, and when it happened. */
export const PickupItem = object({
  id: UuidString,
  badgeId: UuidString,
  at: IsoTime,
});

/** POST /api/v1/admin/desk/pickups: one pick-up made now, or the queue of an offline desk. */
export const PickupBatch = object({
  desk: DeskName,
  pickups: size(array(PickupItem), 1, DESK_SYNC_MAX),
});

/** POST /api/v1/admin/desk/verify. */
export const VerifyRequest = object({ code: size(string(), 1, 200) });
