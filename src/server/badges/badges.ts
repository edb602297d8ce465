import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { badgeLinkState, type BadgeApplication, type BadgeIdentity, type BadgeLinkState } from '@domain/badges';
import { DomainError, notFoundError } from '@domain/errors';
import { registrationWindowState } from '@domain/events';
import { isIssued, LIVE_STATUSES } from '@domain/order-lifecycle';
import { BADGE_REGISTRATION_TYPES } from '@domain/kinds';
import { badgeFree } from '@domain/kinds/badge-free';
import { badgeProfessional } from '@domain/kinds/badge-professional';
import type { Db, Tx } from '../db/client';
import { badgeLinks, badges, editions, events, files, orders, receipts } from '../db/schema';
import { isUniqueViolation } from '../db/db-errors';
import { fileUrl } from '../files/files';
import {
  expireOverdueOrders,
  placeOrder,
  type OrderContext,
  type PlacedFrom,
  type PlaceOrderInput,
} from '../orders/order-state';
import { currentEdition, findEditionBySlug } from '../editions/editions';
import { qrPng } from './pickup';
import { ofEdition } from './badge-edition';
import type { User } from '../identity/users';

export type BadgeContext = OrderContext;

const alreadyHasBadge = () => new DomainError('demonstration_exists');
const isBadgeOrderType = inArray(orders.registrationType, BADGE_REGISTRATION_TYPES);

/**
 * Which edition a registrant's badge is asked for: `slug` names one (404 for none), else the
 * current edition (null without any edition).
 */
export async function badgeEditionId(db: Db, slug?: string | undefined): Promise<string | null> {
  if (slug) {
    const edition = await findEditionBySlug(db, slug);
    if (!edition) throw notFoundError('Edition');
    return edition.id;
  }
  return (await currentEdition(db))?.id ?? null;
}

/** A badge, or a live badge order, of this user or this e-mail in the edition. */
async function hasBadgeOrOrder(db: Db | Tx, user: User, editionId: string | null): Promise<boolean> {
  const email = user.email.toLowerCase();
  const [badge] = await db
    .select({ id: badges.id })
    .from(badges)
    .where(and(or(eq(badges.userId, user.id), eq(badges.emailKey, email)), ofEdition(badges.editionId, editionId)))
    .limit(1);
  if (badge) return true;
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        or(eq(orders.userId, user.id), eq(orders.badgeEmailKey, email)),
        isBadgeOrderType,
        inArray(orders.paymentStatus, LIVE_STATUSES),
        ofEdition(orders.badgeEditionId, editionId),
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
    throw new DomainError('invalid_photo', undefined, {
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
 * The Professional badge event an application is for: the one its slug names, else the current
 * edition's (published first; "Start the next edition" copies it under a new slug, decision 050),
 * else, without any edition, the seeded `badge-professional`.
 */
async function professionalBadgeEvent(db: Db, slug: string | undefined) {
  if (slug) return (await db.select().from(events).where(eq(events.slug, slug)).limit(1))[0];
  const edition = await currentEdition(db);
  if (!edition) return (await db.select().from(events).where(eq(events.slug, 'badge-professional')).limit(1))[0];
  const [event] = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.type, badgeProfessional.eventType),
        eq(events.editionId, edition.id),
        sql`${events.status} <> 'draft'`,
      ),
    )
    .orderBy(sql`case when ${events.status} = 'published' then 0 else 1 end`, asc(events.createdAt), asc(events.slug))
    .limit(1);
  return event;
}

/**
 * A Professional badge application: the order (unpaid, TWD 1,000) and its form. One e-mail, one
 * badge in each edition (the badge event's): concurrent applications race on the database's
 * unique indexes, and all but one get 409.
 */
export async function applyProfessional(
  db: Db,
  user: User,
  application: BadgeApplication,
  ctx: BadgeContext,
  /** The registrant's language and the portal origin (the order's e-mails). */
  from: PlacedFrom = {},
) {
  const event = await professionalBadgeEvent(db, application.eventSlug);
  if (!event || event.type !== badgeProfessional.eventType || event.status === 'draft') throw notFoundError('Event');
  if (event.status === 'archived') throw new DomainError('registration_closed');
  const window = registrationWindowState(event, ctx.now);
  if (window === 'closed') throw new DomainError('registration_closed');
  if (window === 'not_open') throw new DomainError('registration_not_open');
  await checkPhoto(db, user.id, application.personalPhotoFileId);
  // A lapsed unpaid order must not block a new one until the next expiry run.
  await expireOverdueOrders(db, ctx.now, { userId: user.id, emailKey: user.email.toLowerCase() });
  if (await hasBadgeOrOrder(db, user, event.editionId)) throw alreadyHasBadge();
  return placeBadgeOrder(
    db,
    user,
    {
      event,
      registrationType: badgeProfessional.registrationTypes[0],
      form: registrationForm(application, user, 'PROFESSIONAL'),
      ...from,
    },
    ctx,
  );
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
  /** The registrant's language and the portal origin (the order's e-mails). */
  from: PlacedFrom = {},
) {
  await checkPhoto(db, user.id, application.personalPhotoFileId);
  await expireOverdueOrders(db, ctx.now, { userId: user.id, emailKey: user.email.toLowerCase() });
  // The current edition's published free-badge event (the catalogue may hold drafts or archived
  // ones of the kind too, and past editions' ones): a link gives a badge of the current edition.
  const edition = await currentEdition(db);
  const [event] = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.type, badgeFree.eventType),
        eq(events.status, 'published'),
        edition ? eq(events.editionId, edition.id) : undefined,
      ),
    )
    .orderBy(asc(events.createdAt))
    .limit(1);
  const [link] = await db.select().from(badgeLinks).where(eq(badgeLinks.code, code)).limit(1);
  const state = badgeLinkState(
    link,
    { userId: user.id, email: user.email },
    { now: ctx.now, linkType, currentEditionId: edition?.id },
  );
  // The same user again (a retried request whose first answer was lost): already done. The
  // order's own event (a link claimed for a past edition stays claimed there).
  if (state === 'claimed')
    return {
      eventSlug: event?.slug ?? '',
      paymentStatus: 'free',
      editionId: link?.editionId ?? event?.editionId ?? null,
    };
  refuseLink(state);
  if (!event) throw notFoundError('Event');
  if (!link) throw new DomainError('link_expired');
  // The current edition's rule: a badge of a past edition does not stand in the way.
  if (await hasBadgeOrOrder(db, user, event.editionId)) throw alreadyHasBadge();
  const placed = await placeBadgeOrder(
    db,
    user,
    {
      event,
      registrationType: badgeFree.registrationTypes[0],
      form: registrationForm(application, user, link.identity),
      ...from,
      // The link is used once, in the order's transaction: a concurrent claim of the same link
      // finds it used (the guarded UPDATE answers no row) and everything rolls back; so does a
      // claim that an organiser's revocation overtook.
      within: async (tx) => {
        const [used] = await tx
          .update(badgeLinks)
          .set({ usedAt: ctx.now, usedBy: user.id })
          .where(and(eq(badgeLinks.id, link.id), sql`${badgeLinks.usedAt} is null and ${badgeLinks.revokedAt} is null`))
          .returning({ id: badgeLinks.id });
        if (!used) {
          const [now] = await tx
            .select({ revokedAt: badgeLinks.revokedAt })
            .from(badgeLinks)
            .where(eq(badgeLinks.id, link.id));
          throw new DomainError(now?.revokedAt ? 'link_revoked' : 'link_used');
        }
      },
    },
    ctx,
  );
  return { ...placed, paymentStatus: 'free', editionId: event.editionId };
}

/**
 * Places the user's own badge order (under the one-badge e-mail key). A badge the user got
 * meanwhile (the unique index, a concurrent request) is already_has_badge.
 */
async function placeBadgeOrder(
  db: Db,
  user: User,
  input: Omit<PlaceOrderInput, 'user' | 'badgeEmailKey' | 'actor'>,
  ctx: BadgeContext,
) {
  try {
    const order = await placeOrder(
      db,
      { ...input, user, badgeEmailKey: user.email.toLowerCase(), actor: { kind: 'registrant', id: user.id } },
      ctx,
    );
    return {
      orderId: order.id,
      id: order.id,
      orderNo: order.orderNo,
      eventSlug: input.event.slug,
      paymentStatus: order.paymentStatus,
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyHasBadge();
    throw error;
  }
}

/**
 * The refusal of a link that cannot be claimed (spec §8: 404 expired, 409 used; 403 another
 * e-mail's; 410 revoked by an organiser, or a link of a past edition).
 */
function refuseLink(state: BadgeLinkState) {
  if (state === 'expired') throw new DomainError('link_expired');
  if (state === 'used') throw new DomainError('link_used');
  if (state === 'revoked') throw new DomainError('link_revoked');
  if (state === 'past_edition') throw new DomainError('link_past_edition');
  if (state === 'not_for_user') throw new DomainError('link_not_for_user');
}

/**
 * Checks a one-time link without claiming it (the get-badge page, before any form): the same
 * refusals as the claim, or `valid` / `claimed` (this user already used it). It answers nothing
 * about anyone else: not the e-mail a link was issued to, nor who used it or when.
 */
export async function checkBadgeLink(
  db: Db,
  code: string,
  user: User | null,
  options: { now: Date; linkType?: BadgeIdentity | undefined },
): Promise<{ state: 'valid' | 'claimed'; identity: BadgeIdentity; expiresAt: Date }> {
  const [link] = await db
    .select({
      identity: badgeLinks.identity,
      email: badgeLinks.email,
      expiresAt: badgeLinks.expiresAt,
      usedAt: badgeLinks.usedAt,
      usedBy: badgeLinks.usedBy,
      revokedAt: badgeLinks.revokedAt,
      editionId: badgeLinks.editionId,
    })
    .from(badgeLinks)
    .where(eq(badgeLinks.code, code))
    .limit(1);
  const edition = await currentEdition(db);
  const state = badgeLinkState(link, user && { userId: user.id, email: user.email }, {
    ...options,
    currentEditionId: edition?.id,
  });
  refuseLink(state);
  if (!link || (state !== 'valid' && state !== 'claimed')) throw new DomainError('link_expired');
  return { state, identity: link.identity, expiresAt: link.expiresAt };
}

/** Operator: a one-time free-badge link. */
export async function createBadgeLink(
  db: Db,
  input: { identity: BadgeIdentity; email?: string | undefined; expiresAt: Date },
) {
  const code = randomBytes(12).toString('base64url');
  const edition = await currentEdition(db);
  const [link] = await db
    .insert(badgeLinks)
    .values({
      code,
      identity: input.identity,
      email: input.email ?? null,
      expiresAt: input.expiresAt,
      editionId: edition?.id ?? null,
    })
    .returning();
  return link!;
}

/**
 * The user's most recent badge order of the edition (live ones first), for the badge page and
 * badges/new: the current edition's unless the caller names one.
 */
export async function findBadgeOrder(db: Db, userId: string, editionId: string | null) {
  const [row] = await db
    .select({ id: orders.id, slug: events.slug, status: orders.paymentStatus })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(orders.userId, userId), isBadgeOrderType, ofEdition(orders.badgeEditionId, editionId)))
    .orderBy(sql`case when ${inArray(orders.paymentStatus, LIVE_STATUSES)} then 0 else 1 end`, desc(orders.createdAt))
    .limit(1);
  return row;
}

/** The user's badge of the edition (spec §3 Badge); the QR code only once the order is paid or free. */
export async function getBadge(db: Db, userId: string, editionId: string | null) {
  const [row] = await db
    .select({
      badge: badges,
      order: orders,
      event: events,
      receipt: receipts,
      file: files,
      editionSlug: editions.slug,
    })
    .from(badges)
    .innerJoin(orders, eq(orders.id, badges.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .leftJoin(editions, eq(editions.id, events.editionId))
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(files, eq(files.id, badges.personalPhotoFileId))
    .where(and(eq(badges.userId, userId), ofEdition(badges.editionId, editionId)))
    .limit(1);
  if (!row) return undefined;
  const { badge, order, event, receipt, file, editionSlug } = row;
  const issued = isIssued(order.paymentStatus);
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
    /** The order's edition: the badge page shows its pick-up schedule and settings, not the current one's. */
    editionSlug,
    paymentStatus: order.paymentStatus,
    payment:
      order.totalTwdCents > 0
        ? {
            type: order.paymentType,
            status: order.paymentStatus,
            amountTwd: order.currency === 'TWD' ? order.amountCents : null,
            amountUsd: order.currency === 'USD' ? order.amountCents : null,
            currency: order.currency,
            amountCents: order.amountCents,
            remitter: order.remitter,
            senderBank: order.senderBank,
            lastFiveDigits: order.lastFiveDigits,
          }
        : null,
    receipt: receipt
      ? { kind: receipt.kind, invoiceTitle: receipt.invoiceTitle, unifiedBusinessNumber: receipt.unifiedBusinessNumber }
      : null,
    pickedUpAt: badge.pickedUpAt,
  };
}
