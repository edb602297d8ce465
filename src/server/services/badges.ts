import { randomBytes } from 'node:crypto';
import { and, desc, eq, notInArray, or, sql } from 'drizzle-orm';
import type { BadgeApplication, BadgeIdentity } from '@domain/badges';
import { registrationWindowState } from '@domain/events';
import { ApiError, badRequest, notFound } from '../api/errors';
import type { Db, Tx } from '../db/client';
import { newOrderNo } from './order-no';
import { badgeLinks, badges, events, files, orders, payments, receipts, registrations } from '../db/schema';
import { isUniqueViolation } from './db-errors';
import { fileUrl } from './files';
import { ensureBadge, expireOverdueOrders, paymentDeadline, type PaymentContext } from './payments';
import { qrPng } from './pickup';
import type { User } from './users';

export type BadgeContext = PaymentContext & { orderPrefix: string; paymentDays: number };

const alreadyHasBadge = () => new ApiError(409, 'demonstration_exists', 'One e-mail can apply for only one badge');
const LIVE_EXCLUDED = ['overdue', 'canceled'] as const;

/** A badge, or a live badge order, of this user or this e-mail. */
async function hasBadgeOrOrder(db: Db | Tx, user: User): Promise<boolean> {
  const email = user.email.toLowerCase();
  const [badge] = await db
    .select({ id: badges.id })
    .from(badges)
    .where(or(eq(badges.userId, user.id), eq(badges.emailKey, email)))
    .limit(1);
  if (badge) return true;
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        or(eq(orders.userId, user.id), eq(orders.badgeEmailKey, email)),
        sql`${orders.registrationType} in ('BADGE_FREE', 'BADGE_PROFESSIONAL')`,
        notInArray(orders.paymentStatus, [...LIVE_EXCLUDED]),
      ),
    )
    .limit(1);
  return !!order;
}

async function checkPhoto(db: Db, userId: string, fileId: string) {
  const [file] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.ownerId, userId), eq(files.purpose, 'personal_photo')))
    .limit(1);
  if (!file)
    throw badRequest('invalid_photo', 'No personal photo selected', {
      issues: [{ path: 'personal_photo_file_id', message: 'No personal photo selected' }],
    });
}

function registrationForm(application: BadgeApplication, user: User, identity: BadgeIdentity) {
  return {
    applicant: { ...application.applicant, contactEmail: user.email },
    badge: application.badge,
    sameAsApplicant: application.sameAsApplicant ?? false,
    personalPhotoFileId: application.personalPhotoFileId,
    identity,
  };
}

/**
 * A Professional badge application: the order (unpaid, TWD 1,000) and its form. One e-mail, one
 * badge: concurrent applications race on the database's unique indexes, and all but one get 409.
 */
export async function applyProfessional(db: Db, user: User, application: BadgeApplication, ctx: BadgeContext) {
  const slug = application.eventSlug ?? 'badge-professional';
  const [event] = await db.select().from(events).where(eq(events.slug, slug)).limit(1);
  if (!event || event.type !== 'badge_professional') throw notFound('Event');
  const window = registrationWindowState(event, ctx.now);
  if (window === 'closed') throw badRequest('registration_closed', 'Event registration has closed');
  if (window === 'not_open') throw badRequest('registration_not_open', 'Event not yet open');
  await checkPhoto(db, user.id, application.personalPhotoFileId);
  // A lapsed unpaid order must not block a new one until the next expiry run.
  await expireOverdueOrders(db, ctx.now, { userId: user.id, emailKey: user.email.toLowerCase() });
  if (await hasBadgeOrOrder(db, user)) throw alreadyHasBadge();
  const expires = paymentDeadline(ctx.now, event.registerEndAt, ctx.paymentDays);
  try {
    return await db.transaction(async (tx) => {
      const [order] = await tx
        .insert(orders)
        .values({
          orderNo: newOrderNo(ctx.orderPrefix, ctx.now),
          userId: user.id,
          eventId: event.id,
          registrationType: 'BADGE_PROFESSIONAL',
          paymentStatus: 'pending',
          paymentExpiresAt: expires,
          currency: 'TWD',
          amountCents: event.priceCentsTwd,
          badgeEmailKey: user.email.toLowerCase(),
        })
        .returning();
      await tx.insert(payments).values({
        orderId: order!.id,
        status: 'pending',
        dueDate: expires,
        amountTwd: event.priceCentsTwd,
        amountUsd: event.priceCentsUsd,
        unitPriceTwd: event.priceCentsTwd,
        unitPriceUsd: event.priceCentsUsd,
      });
      await tx
        .insert(registrations)
        .values({ orderId: order!.id, userId: user.id, form: registrationForm(application, user, 'PROFESSIONAL') });
      return {
        orderId: order!.id,
        id: order!.id,
        orderNo: order!.orderNo,
        eventSlug: event.slug,
        paymentStatus: order!.paymentStatus,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyHasBadge();
    throw error;
  }
}

/** A free badge through a one-time link: the link is used once, in the same transaction as the badge. */
export async function claimFreeBadge(
  db: Db,
  user: User,
  code: string,
  application: BadgeApplication,
  ctx: BadgeContext,
  /** The badge type the link's URL names; a link of another type is not valid there. */
  linkType?: BadgeIdentity,
) {
  await checkPhoto(db, user.id, application.personalPhotoFileId);
  await expireOverdueOrders(db, ctx.now, { userId: user.id, emailKey: user.email.toLowerCase() });
  const [event] = await db.select().from(events).where(eq(events.type, 'badge_free')).limit(1);
  if (!event) throw notFound('Event');
  try {
    return await db.transaction(async (tx) => {
      const [link] = await tx.select().from(badgeLinks).where(eq(badgeLinks.code, code)).for('update').limit(1);
      if (!link || link.expiresAt.getTime() < ctx.now.getTime()) {
        throw new ApiError(404, 'link_expired', 'This link has expired, please contact support');
      }
      if (linkType && link.identity !== linkType) {
        throw new ApiError(404, 'link_expired', 'This link has expired, please contact support');
      }
      // The same user again (a retried request whose first answer was lost): already done.
      if (link.usedAt && link.usedBy === user.id)
        return { orderId: '', id: '', orderNo: '', eventSlug: event.slug, paymentStatus: 'free' };
      if (link.usedAt) throw new ApiError(409, 'link_used', 'This link has already been used');
      if (link.email && link.email.toLowerCase() !== user.email.toLowerCase()) {
        throw new ApiError(403, 'link_not_for_user', 'This link was issued to another e-mail address');
      }
      if (await hasBadgeOrOrder(tx, user)) throw alreadyHasBadge();
      const [order] = await tx
        .insert(orders)
        .values({
          orderNo: newOrderNo(ctx.orderPrefix, ctx.now),
          userId: user.id,
          eventId: event.id,
          registrationType: 'BADGE_FREE',
          paymentStatus: 'free',
          currency: 'TWD',
          amountCents: 0,
          badgeEmailKey: user.email.toLowerCase(),
        })
        .returning();
      await tx
        .insert(registrations)
        .values({ orderId: order!.id, userId: user.id, form: registrationForm(application, user, link.identity) });
      await tx.update(badgeLinks).set({ usedAt: ctx.now, usedBy: user.id }).where(eq(badgeLinks.id, link.id));
      await ensureBadge(tx, order!.id, ctx.pickupSecret);
      return {
        orderId: order!.id,
        id: order!.id,
        orderNo: order!.orderNo,
        eventSlug: event.slug,
        paymentStatus: 'free',
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyHasBadge();
    throw error;
  }
}

/** Operator: a one-time free-badge link. */
export async function createBadgeLink(
  db: Db,
  input: { identity: BadgeIdentity; email?: string | undefined; expiresAt: Date },
) {
  const code = randomBytes(12).toString('base64url');
  const [link] = await db
    .insert(badgeLinks)
    .values({ code, identity: input.identity, email: input.email ?? null, expiresAt: input.expiresAt })
    .returning();
  return link!;
}

/** The user's most recent badge order (live ones first), for the badge page and badges/new. */
export async function findBadgeOrder(db: Db, userId: string) {
  const [row] = await db
    .select({ id: orders.id, slug: events.slug, status: orders.paymentStatus })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(orders.userId, userId), sql`${orders.registrationType} in ('BADGE_FREE', 'BADGE_PROFESSIONAL')`))
    .orderBy(
      sql`case when ${orders.paymentStatus} in ('overdue', 'canceled') then 1 else 0 end`,
      desc(orders.createdAt),
    )
    .limit(1);
  return row;
}

/** The user's badge (spec §3 Badge); the QR code only once the order is paid or free. */
export async function getBadge(db: Db, userId: string) {
  const [row] = await db
    .select({ badge: badges, order: orders, event: events, payment: payments, receipt: receipts, file: files })
    .from(badges)
    .innerJoin(orders, eq(orders.id, badges.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(files, eq(files.id, badges.personalPhotoFileId))
    .where(eq(badges.userId, userId))
    .limit(1);
  if (!row) return undefined;
  const { badge, order, event, payment, receipt, file } = row;
  const issued = order.paymentStatus === 'paid' || order.paymentStatus === 'free';
  return {
    identity: badge.identity,
    personalPhotoFile: file ? { url: fileUrl(file.id), name: file.name } : null,
    nameZh: badge.nameZh,
    nameEn: badge.nameEn,
    companyNameZh: badge.companyNameZh,
    companyNameEn: badge.companyNameEn,
    qrCodeImage: issued ? await qrPng(badge.pickupCode) : null,
    orderId: order.id,
    orderNo: order.orderNo,
    eventSlug: event.slug,
    paymentStatus: order.paymentStatus,
    payment: payment
      ? {
          type: payment.type,
          status: payment.status,
          amountTwd: payment.amountTwd,
          amountUsd: payment.amountUsd,
          currency: order.currency,
          amountCents: order.amountCents,
        }
      : null,
    receipt: receipt
      ? { kind: receipt.kind, invoiceTitle: receipt.invoiceTitle, unifiedBusinessNumber: receipt.unifiedBusinessNumber }
      : null,
    pickedUpAt: badge.pickedUpAt,
  };
}
