/**
 * Pitching entries on the order core (issue 10): the rules that hold under concurrent
 * submissions are database rules. A work is in at most one live pitching registration (partial
 * unique index on `order_contents`), and an applicant unit holds at most 5 works across its live
 * registrations (`pitching_applicants.works_used` with a CHECK, changed in the entry's own
 * transaction). Closing an entry (overdue, canceled) gives its works and quota back; paying it
 * after it lapsed takes them again, or is superseded when they are gone.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DomainError } from '@domain/errors';
import { LIVE_STATUSES } from '@domain/order-lifecycle';
import { PITCHING_LIMITS, selectionProblem, workUsedMessage } from '@domain/pitching';
import { isPitchingRegistrationType } from '@domain/registration-kinds';
import type { Db, Tx } from '../db/client';
import { files, orderContents, orders, pitchingApplicants } from '../db/schema';
import { isCheckViolation, isUniqueViolation } from '../db/db-errors';

type EntryOrder = { id: string; userId: string; registrationType: string; quantity: number; paymentStatus: string };

const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);

/** Adds `n` works to the applicant's count (negative: gives them back). Throws the CHECK violation past 5. */
async function addToQuota(tx: Tx, userId: string, n: number) {
  if (n < 0) {
    await tx
      .update(pitchingApplicants)
      .set({ worksUsed: sql`greatest(${pitchingApplicants.worksUsed} + ${n}, 0)`, updatedAt: sql`now()` })
      .where(eq(pitchingApplicants.userId, userId));
    return;
  }
  await tx
    .insert(pitchingApplicants)
    .values({ userId, worksUsed: n })
    .onConflictDoUpdate({
      target: pitchingApplicants.userId,
      set: { worksUsed: sql`${pitchingApplicants.worksUsed} + ${n}`, updatedAt: sql`now()` },
    });
}

/** Within the entry's transaction, once the order exists: the works count against the applicant's 5. */
export async function takeQuota(tx: Tx, order: EntryOrder) {
  await addToQuota(tx, order.userId, order.quantity);
}

/**
 * Keeps the pitching rules in step with an order's status change (called by the one writer of
 * order state, in the transition's transaction): leaving the live statuses frees the works and
 * the quota; coming back takes them again or refuses (`order_superseded`, the charge refunded).
 */
export async function onPitchingStatusChange(tx: Tx, before: EntryOrder, after: EntryOrder) {
  if (!isPitchingRegistrationType(after.registrationType)) return;
  const was = isLive(before.paymentStatus);
  const now = isLive(after.paymentStatus);
  if (was === now) return;
  if (!now) {
    await tx.update(orderContents).set({ live: false }).where(eq(orderContents.orderId, after.id));
    await addToQuota(tx, after.userId, -after.quantity);
    return;
  }
  try {
    await tx.transaction(async (sp) => {
      await sp.update(orderContents).set({ live: true }).where(eq(orderContents.orderId, after.id));
      await addToQuota(sp, after.userId, after.quantity);
    });
  } catch (error) {
    if (isUniqueViolation(error) || isCheckViolation(error)) throw new DomainError('order_superseded');
    throw error;
  }
}

/**
 * What a refused entry means to the registrant: a work another live registration holds (code 1,
 * naming the work by its number), or the applicant's 5 works used up.
 */
export async function pitchingRefusal(db: Db, error: unknown, workIds: readonly string[]): Promise<DomainError | null> {
  if (isCheckViolation(error, 'pitching_applicants_works_check'))
    return new DomainError(
      'pitching_work_limit',
      `Each applicant can enter at most ${PITCHING_LIMITS.worksPerApplicant} works across its pitching registrations`,
    );
  if (!isUniqueViolation(error, 'order_contents_pitching_work_idx')) return null;
  const used = await db
    .select({ contentId: orderContents.contentId })
    .from(orderContents)
    .where(
      and(
        eq(orderContents.pitching, true),
        eq(orderContents.live, true),
        inArray(orderContents.contentId, [...workIds]),
      ),
    );
  const id = used[0]?.contentId ?? workIds[0] ?? '';
  return new DomainError('1', workUsedMessage(id), { work_id: Number(id) });
}

/** Before placing: the selection rules of spec §5 and the files of a story entry (the user's own uploads). */
export async function checkEntry(
  db: Db,
  input: {
    userId: string;
    eventType: 'pitching_project' | 'pitching_story';
    genres: ('piece' | 'project')[];
    files?: { id: string | null | undefined; purpose: 'story_outline' | 'relation_image'; field: string }[];
  },
) {
  const problem = selectionProblem(input.eventType, input.genres);
  if (problem) throw new DomainError(problem);
  for (const f of input.files ?? []) {
    if (!f.id) continue;
    const [file] = await db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, f.id), eq(files.ownerId, input.userId), eq(files.purpose, f.purpose)))
      .limit(1);
    if (!file)
      throw new DomainError('invalid_upload', undefined, {
        issues: [{ path: f.field, message: 'Upload the file again' }],
      });
  }
}

/** The applicant's pitching usage: works in live registrations, of the limit, and which. */
export async function pitchingUsage(db: Db, userId: string) {
  const rows = await db
    .select({ contentId: orderContents.contentId })
    .from(orderContents)
    .innerJoin(orders, eq(orders.id, orderContents.orderId))
    .where(and(eq(orders.userId, userId), eq(orderContents.pitching, true), eq(orderContents.live, true)));
  return {
    worksUsed: rows.length,
    worksLimit: PITCHING_LIMITS.worksPerApplicant,
    usedContentIds: rows.map((r) => r.contentId),
  };
}
