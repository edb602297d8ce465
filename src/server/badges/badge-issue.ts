import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { badges, registrations, users } from '../db/schema';
import { pickupCode } from './pickup';

type BadgeOrder = { id: string; userId: string; badgeEmailKey: string | null; badgeEditionId: string | null };

/**
 * Creates the badge of a badge order once it leaves unpaid (checking, paid, free), from the form
 * behind it. Idempotent. Answers whether the order has its badge: false when the user or the
 * e-mail already holds another one of the order's edition (the badge is unique per order, and per
 * user and e-mail in each edition: decision 068).
 */
export async function ensureBadge(tx: Tx, order: BadgeOrder, secret: string): Promise<boolean> {
  const [row] = await tx
    .select({ form: registrations.form, email: users.email })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .where(eq(registrations.orderId, order.id))
    .limit(1);
  if (!row) return false;
  const form = row.form as { badge?: Record<string, string>; personalPhotoFileId?: string; identity?: string };
  const id = randomUUID();
  await tx
    .insert(badges)
    .values({
      id,
      userId: order.userId,
      emailKey: order.badgeEmailKey ?? row.email.toLowerCase(),
      editionId: order.badgeEditionId,
      orderId: order.id,
      identity: (form.identity as typeof badges.$inferInsert.identity) ?? 'PROFESSIONAL',
      nameZh: form.badge?.nameZh ?? '',
      nameEn: form.badge?.nameEn ?? '',
      companyNameZh: form.badge?.companyNameZh ?? '',
      companyNameEn: form.badge?.companyNameEn ?? '',
      personalPhotoFileId: form.personalPhotoFileId ?? null,
      pickupCode: pickupCode(id, secret),
    })
    .onConflictDoNothing();
  const [badge] = await tx.select({ id: badges.id }).from(badges).where(eq(badges.orderId, order.id)).limit(1);
  return badge !== undefined;
}

/**
 * Removes the badge of a badge order that went back to unpaid (a declared transfer sent back,
 * decision 025): never issued (its QR code shows only once paid), it is made again when the
 * registrant declares a transfer or pays; meanwhile the order can lapse without leaving a badge
 * that would block a new application.
 */
export async function dropUnissuedBadge(tx: Tx, orderId: string) {
  await tx.delete(badges).where(eq(badges.orderId, orderId));
}
