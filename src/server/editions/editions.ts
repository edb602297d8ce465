import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import {
  BANK_FIELDS,
  daysBetween,
  EDITION_LIMITS,
  scheduleIssues,
  SETTING_FIELDS,
  shiftDay,
  uniqueSlug,
  type BankField,
  type EditionCreate,
  type EditionSettingsPatch,
  type NextEdition,
  type PickupSlotInput,
  type ScheduleIssue,
  type SettingField,
} from '@domain/editions';
import { SLUG_PATTERN } from '@domain/event-catalogue';
import { DomainError } from '@domain/errors';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/db-errors';
import { editionChanges, editions, eventChanges, events, files, pickupSlots } from '../db/schema';

/*
 * Editions (issue 21, decisions 049 and 050): the fair of one year groups its events and
 * settings; exactly one is current at most (the public pages show it). Settings of other
 * capabilities (pick-up schedule, invoices, meetings) are keyed by the edition's id and read
 * through `currentEdition`. The edition's own settings (venue map, badge-rights image, transfer
 * instructions, contact, time zone) are its columns; a transfer field or the venue map left
 * empty shows its configuration default (BANK_*, VENUE_MAP_URL). Every write is in
 * `edition_changes` with who made it.
 */

export type Edition = typeof editions.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The configuration values an edition's empty settings fall back to (and a new edition copies). */
export type EditionDefaultKey =
  | 'VENUE_MAP_URL'
  | 'BANK_NAME'
  | 'BANK_NAME_ZH'
  | 'BANK_CODE'
  | 'BANK_ACCOUNT_NAME'
  | 'BANK_ACCOUNT_NAME_ZH'
  | 'BANK_ACCOUNT_NUMBER'
  | 'BANK_SWIFT_CODE';
export type EditionDefaults = Pick<Config, EditionDefaultKey>;

const DEFAULT_OF: Record<BankField | 'venueMapUrl', EditionDefaultKey> = {
  venueMapUrl: 'VENUE_MAP_URL',
  bankName: 'BANK_NAME',
  bankNameZh: 'BANK_NAME_ZH',
  bankCode: 'BANK_CODE',
  bankAccountName: 'BANK_ACCOUNT_NAME',
  bankAccountNameZh: 'BANK_ACCOUNT_NAME_ZH',
  bankAccountNumber: 'BANK_ACCOUNT_NUMBER',
  bankSwiftCode: 'BANK_SWIFT_CODE',
};

/** The defaults by setting (`{bankName: 'Bank of Taiwan…'}`), as the back office shows them. */
export const defaultsByField = (d: EditionDefaults): Record<string, string> =>
  Object.fromEntries(Object.entries(DEFAULT_OF).map(([field, key]) => [field, d[key]]));

/** The settings as registrants see them: each empty one replaced by its default. */
export function effectiveSettings(e: Edition, d: EditionDefaults) {
  const value = (field: BankField | 'venueMapUrl') => e[field] || d[DEFAULT_OF[field]];
  return {
    venueMapUrl: value('venueMapUrl'),
    bank: {
      name: value('bankName'),
      nameZh: value('bankNameZh'),
      code: value('bankCode'),
      accountName: value('bankAccountName'),
      accountNameZh: value('bankAccountNameZh'),
      accountNumber: value('bankAccountNumber'),
      swift: value('bankSwiftCode'),
    },
  };
}

/** The current edition, or undefined before the first admin creates one (production starts empty). */
export async function currentEdition(db: Db | Tx): Promise<Edition | undefined> {
  const [row] = await db.select().from(editions).where(eq(editions.isCurrent, true)).limit(1);
  return row;
}

/**
 * The demo edition of the embedded default (the seed): `tccf-<year>` of the seeded events, made
 * current unless another edition already is. Idempotent; answers the edition's id.
 */
export async function ensureSeedEdition(db: Db, year: number): Promise<string> {
  const slug = `tccf-${year}`;
  const current = await currentEdition(db);
  if (current) return current.id;
  const [row] = await db
    .insert(editions)
    .values({ slug, nameEn: `TCCF ${year}`, nameZh: `TCCF ${year}`, isCurrent: true })
    .onConflictDoUpdate({ target: editions.slug, set: { isCurrent: true, updatedAt: sql`now()` } })
    .returning({ id: editions.id });
  return row!.id;
}

/** Every edition, newest first, with how many events each has. */
export async function listEditions(db: Db) {
  const rows = await db.select().from(editions).orderBy(desc(editions.createdAt));
  const counts = await db.select({ editionId: events.editionId, n: count() }).from(events).groupBy(events.editionId);
  const byEdition = new Map(counts.map((c) => [c.editionId, c.n]));
  return rows.map((edition) => ({ edition, events: byEdition.get(edition.id) ?? 0 }));
}

/** An edition by its slug (current or past), or undefined; a slug that cannot be one finds nothing. */
export async function findEditionBySlug(db: Db, slug: string): Promise<Edition | undefined> {
  if (slug.length > EDITION_LIMITS.slug.max || !SLUG_PATTERN.test(slug)) return undefined;
  const [edition] = await db.select().from(editions).where(eq(editions.slug, slug)).limit(1);
  return edition;
}

export async function findEdition(db: Db, slug: string) {
  const [edition] = await db.select().from(editions).where(eq(editions.slug, slug)).limit(1);
  if (!edition) return undefined;
  const [n] = await db.select({ n: count() }).from(events).where(eq(events.editionId, edition.id));
  const changes = await db
    .select()
    .from(editionChanges)
    .where(eq(editionChanges.editionId, edition.id))
    .orderBy(desc(editionChanges.id))
    .limit(100);
  return { edition, events: n?.n ?? 0, changes };
}

export type EditionIssue = { path: string; code: string; message: string };
export type EditionWrite = { kind: 'ok'; edition: Edition } | { kind: 'invalid'; issues: EditionIssue[] };

const slugTaken = (): EditionWrite => ({
  kind: 'invalid',
  issues: [{ path: 'slug', code: 'slug_taken', message: 'This address is or was used by another edition' }],
});

/** The transfer instructions and venue map a new edition starts with: the configuration's. */
const copiedDefaults = (d: EditionDefaults) =>
  Object.fromEntries(Object.entries(DEFAULT_OF).map(([field, key]) => [field, d[key]])) as Record<
    BankField | 'venueMapUrl',
    string
  >;

/** An edition (the first, from the empty back office): current when no other is. Its settings start as the configuration's. */
export async function createEdition(
  db: Db,
  body: EditionCreate,
  by: string,
  defaults: EditionDefaults,
  now: Date,
): Promise<EditionWrite> {
  try {
    return await db.transaction(async (tx) => {
      const current = await currentEdition(tx);
      const [row] = await tx
        .insert(editions)
        .values({ ...body, ...copiedDefaults(defaults), isCurrent: !current, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: editions.slug })
        .returning();
      if (!row) return slugTaken();
      await tx.insert(editionChanges).values({ editionId: row.id, changedBy: by, action: 'created', changes: {} });
      return { kind: 'ok' as const, edition: row };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return slugTaken();
    throw error;
  }
}

const NULLABLE: readonly SettingField[] = ['venueMapUrl', 'contactEmail', 'badgeRightsFileId', ...BANK_FIELDS];

/**
 * Changes an edition's settings (its row locked): '' clears a setting (its default shows), each
 * changed field's before and after in its history. With `expectedUpdatedAt`, a save someone else
 * made meanwhile is refused (`409 edition_changed`). A badge-rights image must be an image upload.
 */
export async function updateEditionSettings(
  db: Db,
  slug: string,
  patch: EditionSettingsPatch,
  by: string,
  now: Date,
): Promise<EditionWrite | undefined> {
  return db.transaction(async (tx) => {
    const [edition] = await tx.select().from(editions).where(eq(editions.slug, slug)).limit(1).for('update');
    if (!edition) return undefined;
    if (patch.expectedUpdatedAt && new Date(patch.expectedUpdatedAt).getTime() !== edition.updatedAt.getTime())
      throw new DomainError('edition_changed');
    const after: Partial<Record<SettingField, string | null>> = {};
    for (const field of SETTING_FIELDS) {
      const value = patch[field];
      if (value === undefined) continue;
      after[field] = NULLABLE.includes(field) && (value === null || value === '') ? null : value;
    }
    if (after.badgeRightsFileId && after.badgeRightsFileId !== edition.badgeRightsFileId) {
      const [file] = await tx
        .select({ id: files.id })
        .from(files)
        .where(and(eq(files.id, after.badgeRightsFileId), eq(files.purpose, 'event_image')))
        .limit(1);
      if (!file)
        return {
          kind: 'invalid' as const,
          issues: [{ path: 'badgeRightsFileId', code: 'invalid_image', message: 'Upload the image again' }],
        };
    }
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    for (const [field, value] of Object.entries(after) as [SettingField, string | null][])
      if (edition[field] !== value) changes[field] = { before: edition[field], after: value };
    if (Object.keys(changes).length === 0) return { kind: 'ok' as const, edition };
    const [updated] = await tx
      .update(editions)
      .set({ ...(after as Partial<Record<SettingField, string>>), updatedAt: now })
      .where(eq(editions.id, edition.id))
      .returning();
    await tx.insert(editionChanges).values({ editionId: edition.id, changedBy: by, changes, createdAt: now });
    return { kind: 'ok' as const, edition: updated! };
  });
}

/** Makes `editionId` the current edition (the public pages show it from now on). */
async function switchCurrent(tx: Tx, editionId: string, by: string, now: Date, from?: Edition) {
  await tx
    .update(editions)
    .set({ isCurrent: false, updatedAt: now })
    .where(and(eq(editions.isCurrent, true), ne(editions.id, editionId)));
  await tx.update(editions).set({ isCurrent: true, updatedAt: now }).where(eq(editions.id, editionId));
  await tx.insert(editionChanges).values({
    editionId,
    changedBy: by,
    action: 'made_current',
    changes: from ? { current: { before: from.slug, after: null } } : {},
    createdAt: now,
  });
}

/** Makes an edition current. */
export async function makeCurrent(db: Db, slug: string, by: string, now: Date): Promise<Edition | undefined> {
  return db.transaction(async (tx) => {
    const [edition] = await tx.select().from(editions).where(eq(editions.slug, slug)).limit(1).for('update');
    if (!edition) return undefined;
    if (edition.isCurrent) return edition;
    const previous = await currentEdition(tx);
    await switchCurrent(tx, edition.id, by, now, previous);
    return { ...edition, isCurrent: true, updatedAt: now };
  });
}

/** The calendar day of an instant in a time zone (`YYYY-MM-DD`). */
const dayIn = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);

/** An event slug for the next edition: the old one without its year, with the new first day's year, never one used before. */
const nextSlug = (slug: string, year: string, taken: Set<string>) => {
  const chosen = uniqueSlug(`${slug.replace(/-\d{4}$/, '')}-${year}`, taken);
  taken.add(chosen);
  return chosen;
};

/**
 * "Start the next edition" (decision 050): a new edition, made current, with the current one's
 * settings, its events (but archived ones) copied as drafts with no seats taken, every date
 * shifted by the same whole days so that the earliest event starts on `firstDay`, registration
 * windows and form deadlines included, under slugs never used before, and its pick-up schedule
 * shifted alike. All or nothing.
 */
export async function startNextEdition(db: Db, body: NextEdition, by: string, now: Date): Promise<EditionWrite> {
  try {
    return await db.transaction(async (tx) => {
      const previous = await currentEdition(tx);
      if (!previous) throw new DomainError('no_current_edition');
      const [taken] = await tx.select({ id: editions.id }).from(editions).where(eq(editions.slug, body.slug));
      if (taken) return slugTaken();
      const source = await tx
        .select()
        .from(events)
        .where(and(eq(events.editionId, previous.id), ne(events.status, 'archived')))
        .orderBy(asc(events.startTime), asc(events.slug));
      const first = source[0];
      const days = first ? daysBetween(dayIn(first.startTime, previous.timeZone), body.firstDay) : 0;
      const shift = (d: Date) => new Date(d.getTime() + days * 86_400_000);
      const {
        id: _id,
        slug: _slug,
        nameEn: _nameEn,
        nameZh: _nameZh,
        isCurrent: _current,
        createdAt: _c,
        updatedAt: _u,
        ...settings
      } = previous;
      const [edition] = await tx
        .insert(editions)
        .values({
          ...settings,
          slug: body.slug,
          nameEn: body.nameEn,
          nameZh: body.nameZh,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await tx.insert(editionChanges).values({
        editionId: edition!.id,
        changedBy: by,
        action: 'created',
        changes: { copiedFrom: { before: previous.slug, after: body.slug }, days: { before: 0, after: days } },
        createdAt: now,
      });
      const slugs = new Set((await tx.select({ slug: events.slug }).from(events)).map((r) => r.slug));
      const year = body.firstDay.slice(0, 4);
      for (const e of source) {
        const { id: _eid, seatsTaken: _s, createdAt: _ec, updatedAt: _eu, ...fields } = e;
        const [copy] = await tx
          .insert(events)
          .values({
            ...fields,
            slug: nextSlug(e.slug, year, slugs),
            editionId: edition!.id,
            status: 'draft',
            startTime: shift(e.startTime),
            endAt: shift(e.endAt),
            registerStartAt: shift(e.registerStartAt),
            registerEndAt: shift(e.registerEndAt),
            formModifyExpiresAt: e.formModifyExpiresAt && shift(e.formModifyExpiresAt),
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: events.id, slug: events.slug });
        await tx.insert(eventChanges).values({
          eventId: copy!.id,
          changedBy: by,
          action: 'duplicated',
          changes: { slug: { before: e.slug, after: copy!.slug } },
          createdAt: now,
        });
      }
      const slots = await tx.select().from(pickupSlots).where(eq(pickupSlots.editionId, previous.id));
      if (slots.length)
        await tx.insert(pickupSlots).values(
          slots.map(({ id: _sid, createdAt: _sc, ...slot }) => ({
            ...slot,
            editionId: edition!.id,
            firstDay: shiftDay(slot.firstDay, days),
            lastDay: shiftDay(slot.lastDay, days),
          })),
        );
      await switchCurrent(tx, edition!.id, by, now, previous);
      return { kind: 'ok' as const, edition: { ...edition!, isCurrent: true } };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return slugTaken();
    throw error;
  }
}

/** The current edition's pick-up schedule, by first day then opening time (none before there is an edition). */
export async function currentPickupSlots(db: Db) {
  const edition = await currentEdition(db);
  if (!edition) return [];
  return db
    .select()
    .from(pickupSlots)
    .where(eq(pickupSlots.editionId, edition.id))
    .orderBy(asc(pickupSlots.firstDay), asc(pickupSlots.opensAt));
}

export type ScheduleWrite = { kind: 'ok' } | { kind: 'invalid'; issues: ScheduleIssue[] };

/** Replaces the current edition's pick-up schedule with `rows` (all or nothing), in its history. */
export async function replacePickupSchedule(
  db: Db,
  rows: PickupSlotInput[],
  by: string,
  now: Date,
): Promise<ScheduleWrite> {
  const issues = scheduleIssues(rows);
  if (issues.length) return { kind: 'invalid', issues };
  return db.transaction(async (tx) => {
    const [edition] = await tx.select().from(editions).where(eq(editions.isCurrent, true)).limit(1).for('update');
    if (!edition) throw new DomainError('no_current_edition');
    const before = await tx.delete(pickupSlots).where(eq(pickupSlots.editionId, edition.id)).returning({
      firstDay: pickupSlots.firstDay,
      lastDay: pickupSlots.lastDay,
      opensAt: pickupSlots.opensAt,
      closesAt: pickupSlots.closesAt,
      placeEn: pickupSlots.placeEn,
      placeZh: pickupSlots.placeZh,
    });
    const after = rows.map(({ place: _place, ...row }) => row);
    if (after.length) await tx.insert(pickupSlots).values(after.map((row) => ({ ...row, editionId: edition.id })));
    await tx.insert(editionChanges).values({
      editionId: edition.id,
      changedBy: by,
      action: 'schedule_replaced',
      changes: { pickupSchedule: { before, after } },
      createdAt: now,
    });
    return { kind: 'ok' as const };
  });
}
