import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { badgeLinkStatus, type BadgeLinkQuery } from '@domain/badge-links';
import { linkTypeOf, type BadgeIdentity } from '@domain/badges';
import { DomainError, notFoundError } from '@domain/errors';
import { LOCALES, localePath, type Locale } from '@i18n/locales';
import type { Db } from '../db/client';
import { badgeLinkBatches, badgeLinks, badges, orders, users } from '../db/schema';
import { currentEdition } from '../editions/editions';
import { ofEdition } from './badge-edition';
import { queueBadgeLinkMail } from '../mail/outbox';

/*
 * Free-badge links made by organisers, in batches (issue 11): the back office's bulk links and
 * `npm run badge-link` (a batch of one). A batch and its links, and the mail of each link bound
 * to an address, are written in one transaction. Links included in orders (Market's four) are the
 * order's, not listed or revoked here.
 */

export type BatchRow = typeof badgeLinkBatches.$inferSelect;

/** The path of a link's claim page, without the locale (`/get-badge/vip/{code}`). */
export const linkPath = (identity: BadgeIdentity, code: string) =>
  `/get-badge/${linkTypeOf(identity)}/${encodeURIComponent(code)}`;

/** A link's URL in each language on `origin`. */
export const linkUrls = (origin: string, identity: BadgeIdentity, code: string): Record<Locale, string> =>
  Object.fromEntries(
    LOCALES.map((l) => [l, `${origin.replace(/\/$/, '')}/${localePath(l)}${linkPath(identity, code)}`]),
  ) as Record<Locale, string>;

export type NewBatch = {
  identity: BadgeIdentity;
  /** Anonymous links: how many. */
  count?: number | undefined;
  /** One link per address, bound to it and e-mailed to it (lower-cased, distinct). */
  emails?: string[] | undefined;
  expiresAt: Date;
  note?: string | undefined;
  /** The organiser's e-mail, or the operator's name. */
  createdBy: string;
};

/**
 * Creates a batch of one-time links: `count` anonymous ones, or one per address of `emails`,
 * each bound to its address (only that sign-in e-mail can claim it) and e-mailed to it in both
 * languages through the mail outbox. All or nothing, in one transaction.
 */
export async function createBadgeLinkBatch(db: Db, input: NewBatch, mail: { origin: string; from: string }, now: Date) {
  const emails = input.emails?.map((e) => e.trim().toLowerCase());
  const size = emails?.length ?? input.count ?? 0;
  if (size < 1) throw new RangeError('A batch has at least one link');
  return db.transaction(async (tx) => {
    // The links give badges of the edition current now (issue 21).
    const edition = await currentEdition(tx);
    const [batch] = await tx
      .insert(badgeLinkBatches)
      .values({
        identity: input.identity,
        size,
        emailed: !!emails,
        note: input.note ?? '',
        expiresAt: input.expiresAt,
        createdBy: input.createdBy,
        createdAt: now,
      })
      .returning();
    // A millisecond apart: the batch lists its links in the order of the pasted addresses.
    const rows = Array.from({ length: size }, (_, i) => ({
      code: randomBytes(12).toString('base64url'),
      identity: input.identity,
      email: emails?.[i] ?? null,
      expiresAt: input.expiresAt,
      batchId: batch!.id,
      editionId: edition?.id ?? null,
      createdAt: new Date(now.getTime() + i),
    }));
    const links = await tx
      .insert(badgeLinks)
      .values(rows)
      .returning({ id: badgeLinks.id, code: badgeLinks.code, email: badgeLinks.email });
    const out = [];
    for (const link of links) {
      const urls = linkUrls(mail.origin, input.identity, link.code);
      const emailed = link.email
        ? await queueBadgeLinkMail(
            tx,
            { from: mail.from },
            { code: link.code, email: link.email, identity: input.identity, expiresAt: input.expiresAt, urls },
            now,
          )
        : false;
      out.push({ ...link, urls, emailed });
    }
    // The answer in the order of the pasted addresses (RETURNING does not promise one).
    const order = new Map(rows.map((r, i) => [r.code, i]));
    out.sort((a, b) => order.get(a.code)! - order.get(b.code)!);
    return { batch: batch!, links: out };
  });
}

/** The link's status as a condition (the list's filter), for the organisers' links. */
function statusWhere(status: BadgeLinkQuery['status'], now: Date): SQL | undefined {
  switch (status) {
    case 'used':
      return sql`${badgeLinks.usedAt} is not null`;
    case 'revoked':
      return sql`${badgeLinks.revokedAt} is not null`;
    case 'expired':
      return and(isNull(badgeLinks.usedAt), isNull(badgeLinks.revokedAt), lt(badgeLinks.expiresAt, now));
    case 'unused':
      return and(isNull(badgeLinks.usedAt), isNull(badgeLinks.revokedAt), sql`${badgeLinks.expiresAt} >= ${now}`);
    default:
      return undefined;
  }
}

const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The links organisers made (not the ones included in orders), newest first, with who used each
 * and when (their account and the badge order the claim made) and who revoked it.
 */
export async function listBadgeLinks(db: Db, query: BadgeLinkQuery, now: Date) {
  const limit = query.limit ?? 100;
  const page = query.page ?? 1;
  const where = and(
    isNull(badgeLinks.orderId),
    query.identity ? eq(badgeLinks.identity, query.identity) : undefined,
    query.batch ? eq(badgeLinks.batchId, query.batch) : undefined,
    statusWhere(query.status, now),
    query.q?.trim()
      ? or(ilike(badgeLinks.email, likeText(query.q.trim())), ilike(users.email, likeText(query.q.trim())))
      : undefined,
  );
  const base = () =>
    db
      .select({
        id: badgeLinks.id,
        code: badgeLinks.code,
        identity: badgeLinks.identity,
        email: badgeLinks.email,
        expiresAt: badgeLinks.expiresAt,
        createdAt: badgeLinks.createdAt,
        usedAt: badgeLinks.usedAt,
        usedByEmail: users.email,
        usedByName: users.name,
        orderNo: orders.orderNo,
        revokedAt: badgeLinks.revokedAt,
        revokedBy: badgeLinks.revokedBy,
        batchId: badgeLinks.batchId,
        createdBy: badgeLinkBatches.createdBy,
        note: badgeLinkBatches.note,
      })
      .from(badgeLinks)
      .leftJoin(users, eq(users.id, badgeLinks.usedBy))
      // One badge per user and edition: the badge of the link's edition of the user who used it is
      // the one it gave (a link of no edition gave one of the current edition).
      .leftJoin(badges, and(eq(badges.userId, badgeLinks.usedBy), ofEdition(badges.editionId, badgeLinks.editionId)))
      .leftJoin(orders, eq(orders.id, badges.orderId))
      .leftJoin(badgeLinkBatches, eq(badgeLinkBatches.id, badgeLinks.batchId))
      .where(where);
  // Newest first; one batch's links in the order they were made (the pasted list's).
  const rows = await base()
    .orderBy(
      ...(query.batch
        ? [asc(badgeLinks.createdAt), asc(badgeLinks.id)]
        : [desc(badgeLinks.createdAt), desc(badgeLinks.id)]),
    )
    .limit(limit)
    .offset((page - 1) * limit);
  const total =
    page === 1 && rows.length < limit
      ? rows.length
      : ((
          await db.select({ n: count() }).from(badgeLinks).leftJoin(users, eq(users.id, badgeLinks.usedBy)).where(where)
        )[0]?.n ?? 0);
  return {
    items: rows.map((r) => ({ ...r, status: badgeLinkStatus(r, now) })),
    total,
    page,
    limit,
  };
}

export type AdminBadgeLink = Awaited<ReturnType<typeof listBadgeLinks>>['items'][number];

/** The batches, newest first, with how many of their links are used, revoked, expired and unused. */
export async function listBatches(db: Db, now: Date, limit = 50) {
  const rows = await db
    .select({
      batch: badgeLinkBatches,
      used: sql<number>`count(${badgeLinks.usedAt})`,
      revoked: sql<number>`count(${badgeLinks.revokedAt})`,
      expired: sql<number>`count(*) filter (where ${badgeLinks.usedAt} is null and ${badgeLinks.revokedAt} is null and ${badgeLinks.expiresAt} < ${now})`,
    })
    .from(badgeLinkBatches)
    .leftJoin(badgeLinks, eq(badgeLinks.batchId, badgeLinkBatches.id))
    .groupBy(badgeLinkBatches.id)
    .orderBy(desc(badgeLinkBatches.createdAt), desc(badgeLinkBatches.id))
    .limit(limit);
  return rows.map(({ batch, used, revoked, expired }) => ({
    ...batch,
    used: Number(used),
    revoked: Number(revoked),
    expired: Number(expired),
    unused: batch.size - Number(used) - Number(revoked) - Number(expired),
  }));
}

export type BatchSummary = Awaited<ReturnType<typeof listBatches>>[number];

/** One batch with its counts, or undefined. */
export async function findBatch(db: Db, id: string, now: Date): Promise<BatchSummary | undefined> {
  const [batch] = await db.select().from(badgeLinkBatches).where(eq(badgeLinkBatches.id, id)).limit(1);
  if (!batch) return undefined;
  const [counts] = await db
    .select({
      used: sql<number>`count(${badgeLinks.usedAt})`,
      revoked: sql<number>`count(${badgeLinks.revokedAt})`,
      expired: sql<number>`count(*) filter (where ${badgeLinks.usedAt} is null and ${badgeLinks.revokedAt} is null and ${badgeLinks.expiresAt} < ${now})`,
    })
    .from(badgeLinks)
    .where(eq(badgeLinks.batchId, id));
  const used = Number(counts?.used ?? 0);
  const revoked = Number(counts?.revoked ?? 0);
  const expired = Number(counts?.expired ?? 0);
  return { ...batch, used, revoked, expired, unused: batch.size - used - revoked - expired };
}

/**
 * Revokes an unused link an organiser made: its claim is refused from now on (`410
 * link_revoked`). A guarded update, so it races cleanly with a claim: whichever comes first
 * wins, and a used link cannot be revoked (`409 link_used`). Revoking it again changes nothing.
 */
export async function revokeBadgeLink(
  db: Db,
  id: string,
  by: string,
  now: Date,
): Promise<{ result: 'revoked' | 'already_revoked'; code: string }> {
  const [done] = await db
    .update(badgeLinks)
    .set({ revokedAt: now, revokedBy: by })
    .where(
      and(eq(badgeLinks.id, id), isNull(badgeLinks.orderId), isNull(badgeLinks.usedAt), isNull(badgeLinks.revokedAt)),
    )
    .returning({ code: badgeLinks.code });
  if (done) return { result: 'revoked', code: done.code };
  const [link] = await db
    .select({ code: badgeLinks.code, usedAt: badgeLinks.usedAt, revokedAt: badgeLinks.revokedAt })
    .from(badgeLinks)
    .where(and(eq(badgeLinks.id, id), isNull(badgeLinks.orderId)))
    .limit(1);
  if (!link) throw notFoundError('Badge link');
  if (link.usedAt) throw new DomainError('link_used', 'A used link cannot be revoked');
  return { result: 'already_revoked', code: link.code };
}

/** Revokes every unused link of a batch (expired ones too); answers how many. */
export async function revokeUnusedOfBatch(db: Db, batchId: string, by: string, now: Date): Promise<number> {
  const done = await db
    .update(badgeLinks)
    .set({ revokedAt: now, revokedBy: by })
    .where(and(eq(badgeLinks.batchId, batchId), isNull(badgeLinks.usedAt), isNull(badgeLinks.revokedAt)))
    .returning({ id: badgeLinks.id });
  return done.length;
}
