/**
 * The badges an order includes (Market: 4 exhibitor badges; pitching: the event's number per
 * entry), issued as one-time `get-badge/{type}/{code}` links when the order is settled: paid, or
 * free once approved (or free without approval). The links belong to the order (`order_id`,
 * `order_seq` 1…n, unique), so a retried transition never issues more than the order includes.
 * Anyone the registrant sends a link to claims it with their own account (the free-badge claim).
 */
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { ISSUED_STATUSES } from '@domain/order-lifecycle';
import { kindOf } from '@domain/kinds';
import type { Db, Tx } from '../db/client';
import { badgeLinks, users } from '../db/schema';

type SettledOrder = { id: string; paymentStatus: string; approvalStatus: string | null };
type EventOf = {
  type: Parameters<typeof kindOf>[0];
  endAt: Date;
  includedBadges: number | null;
  /** The event's edition: its included badges are that edition's. */
  editionId?: string | null;
};

/** Whether an order's included badges are due: issued (paid or free) and not waiting for or refused approval. */
export const includesBadgesNow = (order: SettledOrder) =>
  (ISSUED_STATUSES as readonly string[]).includes(order.paymentStatus) &&
  (order.approvalStatus === null || order.approvalStatus === 'approved');

/** How many badges an order of this event includes (the event's setting, else its kind's). */
export const includedBadgeCount = (event: EventOf) => event.includedBadges ?? kindOf(event.type).includedBadges;

/** Links stay valid until the end of the event (a day's grace), so colleagues can still claim them at the fair. */
const validUntil = (event: EventOf, now: Date) =>
  new Date(Math.max(event.endAt.getTime(), now.getTime()) + 24 * 60 * 60 * 1000);

/** Issues the order's included badge links if it is settled and has none yet. Idempotent. */
export async function issueIncludedBadges(tx: Tx, order: SettledOrder, event: EventOf, now: Date): Promise<number> {
  const kind = kindOf(event.type);
  const count = includedBadgeCount(event);
  if (!count || !kind.includedBadgeIdentity || !includesBadgesNow(order)) return 0;
  const expiresAt = validUntil(event, now);
  const rows = Array.from({ length: count }, (_, i) => ({
    code: randomBytes(12).toString('base64url'),
    identity: kind.includedBadgeIdentity!,
    email: null,
    expiresAt,
    orderId: order.id,
    orderSeq: i + 1,
    editionId: event.editionId ?? null,
    createdAt: now,
  }));
  const inserted = await tx
    .insert(badgeLinks)
    .values(rows)
    .onConflictDoNothing({ target: [badgeLinks.orderId, badgeLinks.orderSeq] })
    .returning({ id: badgeLinks.id });
  return inserted.length;
}

export type IncludedBadgeLink = {
  seq: number;
  code: string;
  identity: string;
  expiresAt: Date;
  usedAt: Date | null;
  /** Who claimed it: their name, else their e-mail. */
  usedBy: string | null;
};

/** The included badge links of an order, in order, with who claimed each. */
export async function includedBadgeLinks(db: Db | Tx, orderId: string): Promise<IncludedBadgeLink[]> {
  const rows = await db
    .select({
      seq: badgeLinks.orderSeq,
      code: badgeLinks.code,
      identity: badgeLinks.identity,
      expiresAt: badgeLinks.expiresAt,
      usedAt: badgeLinks.usedAt,
      name: users.name,
      email: users.email,
    })
    .from(badgeLinks)
    .leftJoin(users, eq(users.id, badgeLinks.usedBy))
    .where(eq(badgeLinks.orderId, orderId))
    .orderBy(asc(badgeLinks.orderSeq));
  return rows.map((r) => ({
    seq: r.seq ?? 0,
    code: r.code,
    identity: r.identity,
    expiresAt: r.expiresAt,
    usedAt: r.usedAt,
    usedBy: r.usedAt ? (r.name ?? r.email ?? null) : null,
  }));
}
