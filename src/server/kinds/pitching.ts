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
import {
  PITCHING_LIMITS,
  selectionProblem,
  workUsedMessage,
  type PitchingRules,
  type ProjectRegistration,
  type StoryForm,
  type StoryRegistration,
} from '@domain/kinds/pitching';
import { LIVE_STATUSES } from '@domain/order-lifecycle';
import { receiptValues } from '@domain/payments';
import type { WorkGenre } from '@domain/works';
import type { Db, Tx } from '../db/client';
import { files, orderContents, orders, pitchingApplicants, receipts } from '../db/schema';
import { isCheckViolation, isUniqueViolation } from '../db/db-errors';
import { includedBadges } from './badges';
import type { OrderHook, ServerKind } from './parts';

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
async function takeQuota(tx: Tx, order: EntryOrder) {
  await addToQuota(tx, order.userId, order.quantity);
}

/**
 * Keeps the pitching rules in step with an entry's status change (the order core publishes every
 * change to its kind's hooks, in the transition's transaction): leaving the live statuses frees
 * the works and the quota; coming back takes them again or refuses (`order_superseded`, the charge
 * refunded). Placing takes them in the entry's own transaction (`takeQuota`, the works' index).
 */
export const pitchingWorks: OrderHook = async ({ tx, before, after }) => {
  if (before) await onStatusChange(tx, before, after);
};

async function onStatusChange(tx: Tx, before: EntryOrder, after: EntryOrder) {
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
async function pitchingRefusal(db: Db, error: unknown, workIds: readonly string[]): Promise<DomainError | null> {
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

type StoryFile = { id: string | null | undefined; purpose: 'story_outline' | 'relation_image'; field: string };

/** The files of a story form: each the user's own upload for its purpose. */
async function checkFiles(db: Db, userId: string, list: readonly StoryFile[]) {
  for (const f of list) {
    if (!f.id) continue;
    const [file] = await db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, f.id), eq(files.ownerId, userId), eq(files.purpose, f.purpose)))
      .limit(1);
    if (!file)
      throw new DomainError('invalid_upload', undefined, {
        issues: [{ path: f.field, message: 'Upload the file again' }],
      });
  }
}

const storyFiles = (story: Pick<StoryForm, 'storyOutlineFileId' | 'relationImageFileId'>): StoryFile[] => [
  { id: story.storyOutlineFileId, purpose: 'story_outline', field: 'story_outline_file_id' },
  { id: story.relationImageFileId, purpose: 'relation_image', field: 'relation_image_file_id' },
];

/** Before placing: the selection rules of spec §5 for the kind, given the genres of the chosen works. */
function checkSelection(rules: PitchingRules, genres: readonly WorkGenre[]) {
  const problem = selectionProblem(rules, genres);
  if (problem) throw new DomainError(problem);
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

/**
 * The pitching kinds on the server: an entry's works (their genres decide the selection rules),
 * the story form and its files (Story to Screen), the applicant's quota and the entry's invoice in
 * the order's transaction, a refused work named by its number; the story form's edits; the hooks
 * that keep works and quota in step with the entry's status, and its included badge.
 */
export const PITCHING_SERVER: ServerKind = {
  async place(db, kind, _event, input) {
    if (!input.resolveWorks) throw new Error('A pitching entry needs resolveWorks');
    const { agreePolicy, agreeTerms, selectedContents, receipt, ...story } = input.body as
      StoryRegistration | (ProjectRegistration & Partial<StoryForm>);
    const contents = await input.resolveWorks([...new Set(selectedContents.map(Number))]);
    const withStory = kind.form?.type === 'story' ? (story as StoryForm) : null;
    checkSelection(
      kind.pitching ?? { worksPerEntry: null },
      contents.map((w) => w.genre as WorkGenre),
    );
    if (withStory) await checkFiles(db, input.userId, storyFiles(withStory));
    const workIds = contents.map((w) => String(w.id));
    return {
      registrationType: kind.registrationTypes[0],
      form: { ...(withStory ?? {}), agreePolicy, agreeTerms },
      contact: null,
      contents,
      pitchingWorks: true,
      quantity: contents.length,
      within: async (tx, order) => {
        await takeQuota(tx, order);
        if (receipt) await tx.insert(receipts).values({ orderId: order.id, ...receiptValues(receipt) });
      },
      refusal: (error) => pitchingRefusal(db, error, workIds),
    };
  },
  onChange: [pitchingWorks, includedBadges],
};

/** Story to Screen: the story form's files are checked again when it is edited. */
export const STORY_SERVER: ServerKind = {
  ...PITCHING_SERVER,
  async editForm(db, userId, value) {
    const story = value as StoryForm;
    await checkFiles(db, userId, storyFiles(story));
    return { form: story, contact: null };
  },
};
