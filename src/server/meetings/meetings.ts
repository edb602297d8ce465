/**
 * Market meetings (issue 23, decision 059): the organiser's set-up of the current edition, the
 * free slots of an exhibitor, requests and their transitions, the parties' lists. The rules that
 * must hold under concurrency are the database's (schema: `meetings_exhibitor_slot_idx`,
 * `meetings_table_slot_idx`, `meeting_people`'s key); the caps are counted under a per-buyer
 * advisory lock, in the transaction that inserts.
 */
import { and, asc, eq, gt, inArray, lte, notExists, notInArray, or, sql } from 'drizzle-orm';
import {
  ACTIVE_MEETING_STATUSES,
  decideMeeting,
  NEXT_FREE_SLOTS,
  slotsOf,
  type MeetingAction,
  type MeetingSettingsInput,
  type MeetingSide,
  type MeetingStatus,
} from '@domain/meetings';
import { DomainError, notFoundError } from '@domain/errors';
import type { Locale } from '@i18n/locales';
import type { Db, Tx } from '../db/client';
import { isUniqueViolation } from '../db/db-errors';
import {
  badges,
  meetingExhibitors,
  meetingPeople,
  meetings,
  meetingSettings,
  meetingSlots,
  meetingTableHolds,
  meetingTables,
  meetingUnavailable,
  orders,
  registrations,
  users,
} from '../db/schema';
import { ISSUED_STATUSES } from '@domain/order-lifecycle';
import { currentEdition, type Edition } from '../editions/editions';
import { ofEdition } from '../badges/badge-edition';
import { listedExhibitor } from '../market/directory';
import { exhibitorPeople, exhibitorSideOf } from './exhibitor';

export type MeetingSettingsRow = typeof meetingSettings.$inferSelect;
export type MeetingRow = typeof meetings.$inferSelect;
export type MeetingMailKind = 'requested' | 'accepted' | 'declined' | 'cancelled' | 'changed';
/** Queues a meeting's mails in the transaction that changed it (meeting-mails.ts). */
export type MeetingMailer = (tx: Tx, meetingId: string, kind: MeetingMailKind) => Promise<void>;

const ACTIVE = inArray(meetings.status, [...ACTIVE_MEETING_STATUSES]);

// ---- Set-up ------------------------------------------------------------------------------------

/** The current edition with its meeting set-up (settings undefined: not set up yet). */
export async function meetingSetup(db: Db | Tx) {
  const edition = await currentEdition(db);
  if (!edition) return undefined;
  const [settings] = await db.select().from(meetingSettings).where(eq(meetingSettings.editionId, edition.id));
  const tables = await db
    .select()
    .from(meetingTables)
    .where(eq(meetingTables.editionId, edition.id))
    .orderBy(asc(meetingTables.name));
  return { edition, settings, tables };
}

/**
 * Saves the set-up of the current edition: the settings, the tables (a name no longer listed is
 * taken out of use, never deleted: its meetings keep it), and the slots the days and hours make
 * (a slot no longer made is closed, kept for its meetings). One transaction.
 */
export async function saveMeetingSettings(
  db: Db,
  edition: Pick<Edition, 'id'>,
  input: MeetingSettingsInput,
  by: string,
) {
  const { tables, ...settings } = input;
  await db.transaction(async (tx) => {
    await tx
      .insert(meetingSettings)
      .values({ editionId: edition.id, ...settings, updatedBy: by })
      .onConflictDoUpdate({
        target: meetingSettings.editionId,
        set: { ...settings, updatedBy: by, updatedAt: sql`now()` },
      });
    const names = [...new Set(tables.map((t) => t.trim()).filter(Boolean))];
    await tx.update(meetingTables).set({ active: false }).where(eq(meetingTables.editionId, edition.id));
    if (names.length)
      await tx
        .insert(meetingTables)
        .values(names.map((name) => ({ editionId: edition.id, name })))
        .onConflictDoUpdate({ target: [meetingTables.editionId, meetingTables.name], set: { active: true } });
    const slots = slotsOf(settings);
    await tx.update(meetingSlots).set({ open: false }).where(eq(meetingSlots.editionId, edition.id));
    if (slots.length)
      await tx
        .insert(meetingSlots)
        .values(slots.map((s) => ({ editionId: edition.id, ...s })))
        .onConflictDoUpdate({
          target: [meetingSlots.editionId, meetingSlots.startsAt],
          set: { open: true, endsAt: sql`excluded.ends_at`, day: sql`excluded.day` },
        });
  });
}

// ---- Slots -------------------------------------------------------------------------------------

/** SQL: an active meeting that still holds its slot (a request past its expiry no longer does). */
const holdsSlot = (now: Date) => and(ACTIVE, or(eq(meetings.status, 'accepted'), gt(meetings.expiresAt, now)));

export type FreeSlot = { id: string; startsAt: Date; endsAt: Date };

/**
 * The exhibitor's free slots of the current edition from now on: open, not marked unavailable,
 * not held by a meeting (`after`: only those starting at or after it; at most `limit`).
 */
export async function freeSlots(
  db: Db | Tx,
  exhibitorId: string,
  now: Date,
  options: { limit?: number; after?: Date } = {},
): Promise<FreeSlot[]> {
  const edition = await currentEdition(db);
  if (!edition) return [];
  const from = options.after && options.after > now ? options.after : now;
  const query = db
    .select({ id: meetingSlots.id, startsAt: meetingSlots.startsAt, endsAt: meetingSlots.endsAt })
    .from(meetingSlots)
    .where(
      and(
        eq(meetingSlots.editionId, edition.id),
        eq(meetingSlots.open, true),
        gt(meetingSlots.startsAt, from),
        notExists(
          db
            .select({ one: sql`1` })
            .from(meetingUnavailable)
            .where(
              and(eq(meetingUnavailable.registrationId, exhibitorId), eq(meetingUnavailable.slotId, meetingSlots.id)),
            ),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(meetings)
            .where(and(eq(meetings.exhibitorId, exhibitorId), eq(meetings.slotId, meetingSlots.id), holdsSlot(now))),
        ),
      ),
    )
    .orderBy(asc(meetingSlots.startsAt));
  return options.limit ? query.limit(options.limit) : query;
}

/** 409 `slot_taken` with the next free slots of the exhibitor (after the one asked for). */
async function slotTaken(db: Db, exhibitorId: string, now: Date, after?: Date) {
  const next = await freeSlots(db, exhibitorId, now, { limit: NEXT_FREE_SLOTS, ...(after ? { after } : {}) });
  const fallback = next.length ? next : await freeSlots(db, exhibitorId, now, { limit: NEXT_FREE_SLOTS });
  return new DomainError('slot_taken', undefined, {
    next_free_slots: fallback.map((s) => ({
      id: s.id,
      starts_at: s.startsAt.toISOString(),
      ends_at: s.endsAt.toISOString(),
    })),
  });
}

// ---- Requests ----------------------------------------------------------------------------------

/**
 * Whether the user holds an issued badge (paid or free) of the meeting's edition (the slot's; an
 * unknown slot: the current edition's, and the request is refused for its slot after): what
 * booking a meeting needs. A badge of another edition does not count (decision 068).
 */
export async function holdsIssuedBadge(db: Db, userId: string, slotId: string): Promise<boolean> {
  const [slot] = await db
    .select({ editionId: meetingSlots.editionId })
    .from(meetingSlots)
    .where(eq(meetingSlots.id, slotId))
    .limit(1);
  const editionId = slot ? slot.editionId : ((await currentEdition(db))?.id ?? null);
  const [row] = await db
    .select({ id: badges.id })
    .from(badges)
    .innerJoin(orders, eq(orders.id, badges.orderId))
    .where(
      and(
        eq(badges.userId, userId),
        inArray(orders.paymentStatus, [...ISSUED_STATUSES]),
        ofEdition(badges.editionId, editionId),
      ),
    )
    .limit(1);
  return !!row;
}

/** Requests past their expiry become `expired` and free their slot and people. */
async function sweepExpired(tx: Tx, now: Date, scope?: ReturnType<typeof and>) {
  const expired = await tx
    .update(meetings)
    .set({ status: 'expired', closedBy: 'system', sequence: sql`${meetings.sequence} + 1`, updatedAt: now })
    .where(and(eq(meetings.status, 'requested'), lte(meetings.expiresAt, now), scope))
    .returning({ id: meetings.id });
  if (expired.length)
    await tx.delete(meetingPeople).where(
      inArray(
        meetingPeople.meetingId,
        expired.map((e) => e.id),
      ),
    );
  return expired.length;
}

/**
 * No-shows (the job runner, every pass): an accepted meeting whose slot has ended without a scan
 * is recorded `no_show` by `system`. A scan that comes later (a desk syncing its queue) still
 * wins: the last scan is what stands.
 */
export async function recordNoShows(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(meetings)
    .set({ attendance: 'no_show', attendanceAt: now, attendanceBy: 'system', updatedAt: now })
    .where(
      and(
        eq(meetings.status, 'accepted'),
        sql`${meetings.attendance} is null`,
        sql`exists (select 1 from meeting_slots s where s.id = ${meetings.slotId} and s.ends_at <= ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: meetings.id });
  return rows.length;
}

/** The job runner's sweep of expired requests (every pass). */
export const expireMeetingRequests = (db: Db, now: Date) => db.transaction((tx) => sweepExpired(tx, now));

/**
 * Gives an accepted meeting its tables (decision 064): the `preferred` ones first when they are
 * free in its slot, then the first free active tables of the edition by name, `count` in all or
 * none (`409 no_table_free`). `meeting_table_holds`' key decides races: two meetings that pick
 * the same table at once collide, and the loser tries again (in a savepoint). `meetings.table_id`
 * becomes the first held table by name. A `required` table must be free (`409 table_taken`).
 */
async function holdTables(
  tx: Tx,
  meeting: { id: string; editionId: string; slotId: string },
  count: number,
  options: { preferred?: string[]; required?: string } = {},
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await tx.transaction(async (sp) => {
        const held: string[] = [];
        if (options.required) {
          try {
            await sp.transaction((inner) =>
              inner
                .insert(meetingTableHolds)
                .values({ tableId: options.required!, slotId: meeting.slotId, meetingId: meeting.id }),
            );
          } catch (error) {
            if (isUniqueViolation(error, 'meeting_table_holds_table_id_slot_id_pk'))
              throw new DomainError('table_taken');
            throw error;
          }
          held.push(options.required);
        }
        for (const tableId of options.preferred ?? []) {
          if (held.length >= count || held.includes(tableId)) continue;
          const [row] = await sp
            .insert(meetingTableHolds)
            .values({ tableId, slotId: meeting.slotId, meetingId: meeting.id })
            .onConflictDoNothing()
            .returning({ id: meetingTableHolds.tableId });
          if (row) held.push(row.id);
        }
        if (held.length < count) {
          const free = await sp
            .select({ id: meetingTables.id })
            .from(meetingTables)
            .where(
              and(
                eq(meetingTables.editionId, meeting.editionId),
                eq(meetingTables.active, true),
                held.length ? notInArray(meetingTables.id, held) : undefined,
                notExists(
                  sp
                    .select({ one: sql`1` })
                    .from(meetingTableHolds)
                    .where(
                      and(
                        eq(meetingTableHolds.tableId, meetingTables.id),
                        eq(meetingTableHolds.slotId, meeting.slotId),
                      ),
                    ),
                ),
              ),
            )
            .orderBy(asc(meetingTables.name))
            .limit(count - held.length);
          if (free.length < count - held.length) throw new DomainError('no_table_free');
          await sp
            .insert(meetingTableHolds)
            .values(free.map((t) => ({ tableId: t.id, slotId: meeting.slotId, meetingId: meeting.id })));
          held.push(...free.map((t) => t.id));
        }
        await sp
          .update(meetings)
          .set({
            tableId: sql`(select h.table_id from meeting_table_holds h join meeting_tables t on t.id = h.table_id
              where h.meeting_id = ${meeting.id} order by t.name limit 1)`,
          })
          .where(eq(meetings.id, meeting.id));
        return held;
      });
    } catch (error) {
      if (
        attempt < 4 &&
        (isUniqueViolation(error, 'meeting_table_holds_table_id_slot_id_pk') ||
          isUniqueViolation(error, 'meetings_table_slot_idx'))
      )
        continue;
      throw error;
    }
  }
}

/** How many tables an exhibitor's meetings take (its delegation; 1 unless it said otherwise). */
async function tablesNeeded(tx: Db | Tx, exhibitorId: string) {
  const [row] = await tx
    .select({ n: meetingExhibitors.tablesNeeded })
    .from(meetingExhibitors)
    .where(eq(meetingExhibitors.registrationId, exhibitorId));
  return row?.n ?? 1;
}

/**
 * Accepts a request and gives it its tables (`holdTables`), all in a savepoint: without enough
 * free tables the request stays `requested` (`409 no_table_free`).
 */
async function acceptWithTable(tx: Tx, meetingId: string, now: Date) {
  return tx.transaction(async (sp) => {
    const [row] = await sp
      .update(meetings)
      .set({ status: 'accepted', decidedAt: now, updatedAt: now, sequence: sql`${meetings.sequence} + 1` })
      .where(and(eq(meetings.id, meetingId), eq(meetings.status, 'requested')))
      .returning({
        id: meetings.id,
        editionId: meetings.editionId,
        slotId: meetings.slotId,
        exhibitorId: meetings.exhibitorId,
      });
    if (!row) throw new DomainError('meeting_state');
    return holdTables(sp, row, await tablesNeeded(sp, row.exhibitorId));
  });
}

/**
 * The organiser moves an accepted meeting that has not started (decision 064): to another free
 * slot of the exhibitor and/or another table. The database's rules decide as for a booking: the
 * exhibitor's slot (`409 slot_taken`), either person's time (`409 person_busy`), the tables
 * (`409 table_taken` for the one named, `409 no_table_free`). The meeting keeps its number of
 * tables (and, moved to another slot, the same tables when they are free there); its SEQUENCE
 * grows, its attendance is cleared, and both parties get the "changed" mail.
 */
export async function moveMeeting(
  db: Db,
  input: { meetingId: string; slotId?: string | undefined; tableName?: string | undefined; now: Date },
  mail: MeetingMailer,
): Promise<void> {
  const { meetingId, now } = input;
  const row = await loadMeeting(db, meetingId);
  if (!row) throw notFoundError('Meeting');
  if (row.status !== 'accepted' || row.startsAt <= now)
    throw new DomainError('meeting_state', 'Only an accepted meeting that has not started is moved');
  const slotId = input.slotId ?? row.slotId;
  const [slot] = await db
    .select()
    .from(meetingSlots)
    .where(and(eq(meetingSlots.id, slotId), eq(meetingSlots.editionId, row.editionId)));
  if (!slot) throw notFoundError('Slot');
  const [unavailable] = await db
    .select({ one: sql`1` })
    .from(meetingUnavailable)
    .where(and(eq(meetingUnavailable.registrationId, row.exhibitorId), eq(meetingUnavailable.slotId, slotId)));
  if (!slot.open || slot.startsAt <= now || unavailable) throw await slotTaken(db, row.exhibitorId, now, slot.startsAt);
  let tableId: string | undefined;
  if (input.tableName !== undefined) {
    const [table] = await db
      .select({ id: meetingTables.id })
      .from(meetingTables)
      .where(
        and(
          eq(meetingTables.editionId, row.editionId),
          eq(meetingTables.name, input.tableName.trim()),
          eq(meetingTables.active, true),
        ),
      );
    if (!table) throw notFoundError('Table');
    tableId = table.id;
  }
  try {
    await db.transaction(async (tx) => {
      const held = await tx
        .delete(meetingTableHolds)
        .where(eq(meetingTableHolds.meetingId, row.id))
        .returning({ tableId: meetingTableHolds.tableId });
      const [moved] = await tx
        .update(meetings)
        .set({
          slotId,
          tableId: null,
          attendance: null,
          attendanceAt: null,
          attendanceBy: null,
          sequence: sql`${meetings.sequence} + 1`,
          updatedAt: now,
        })
        .where(and(eq(meetings.id, row.id), eq(meetings.status, 'accepted'), eq(meetings.slotId, row.slotId)))
        .returning({ id: meetings.id, editionId: meetings.editionId, slotId: meetings.slotId });
      if (!moved) throw new DomainError('meeting_state');
      await tx.update(meetingPeople).set({ slotId }).where(eq(meetingPeople.meetingId, row.id));
      const count = Math.max(held.length, 1);
      const preferred = held.map((h) => h.tableId).filter((id) => id !== tableId);
      await holdTables(tx, moved, count, { preferred, ...(tableId ? { required: tableId } : {}) });
      await mail(tx, row.id, 'changed');
    });
  } catch (error) {
    if (isUniqueViolation(error, 'meetings_exhibitor_slot_idx'))
      throw await slotTaken(db, row.exhibitorId, now, slot.startsAt);
    if (isUniqueViolation(error, 'meeting_people_user_id_slot_id_pk')) throw new DomainError('party_busy');
    throw error;
  }
}

export type RequestInput = {
  buyer: { id: string; email: string };
  exhibitorId: string;
  slotId: string;
  message: string;
  locale: Locale;
  now: Date;
};

/**
 * A buyer's request: 404 for an exhibitor not in the directory, 409 `slot_taken` (with the next
 * free slots) for a slot that is not free, 429 `meeting_limit` over a cap, 409 `person_busy`
 * when the buyer is in another meeting then. Auto-accepting exhibitors accept at once when a
 * table is free. Answers the meeting's id.
 */
export async function requestMeeting(db: Db, input: RequestInput, mail: MeetingMailer): Promise<string> {
  const { buyer, exhibitorId, slotId, now } = input;
  const setup = await meetingSetup(db);
  // Only an exhibitor the directory lists is booked (its one notion of "listed").
  const exhibitor = (await listedExhibitor(db, exhibitorId)) && (await exhibitorPeople(db, exhibitorId));
  if (!setup?.settings || !exhibitor) throw notFoundError('Exhibitor');
  if (exhibitor.ownerId === buyer.id) throw new DomainError('own_exhibitor');
  const { settings, edition } = setup;
  const [slot] = await db
    .select()
    .from(meetingSlots)
    .where(and(eq(meetingSlots.id, slotId), eq(meetingSlots.editionId, edition.id)));
  const [unavailable] = slot
    ? await db
        .select({ one: sql`1` })
        .from(meetingUnavailable)
        .where(and(eq(meetingUnavailable.registrationId, exhibitorId), eq(meetingUnavailable.slotId, slotId)))
    : [];
  if (!slot || !slot.open || slot.startsAt <= now || unavailable)
    throw await slotTaken(db, exhibitorId, now, slot?.startsAt);
  const [prefs] = await db.select().from(meetingExhibitors).where(eq(meetingExhibitors.registrationId, exhibitorId));

  try {
    return await db.transaction(async (tx) => {
      // The caps hold under concurrency: one request of a buyer at a time counts and inserts.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`meeting-buyer:${buyer.id}`}, 0))`);
      await sweepExpired(
        tx,
        now,
        or(and(eq(meetings.exhibitorId, exhibitorId), eq(meetings.slotId, slotId)), eq(meetings.buyerId, buyer.id)),
      );
      const [counts] = await tx
        .select({
          pending: sql<number>`count(*) filter (where ${meetings.status} = 'requested')`.mapWith(Number),
          day: sql<number>`count(*) filter (where ${meetingSlots.day} = ${slot.day})`.mapWith(Number),
        })
        .from(meetings)
        .innerJoin(meetingSlots, eq(meetingSlots.id, meetings.slotId))
        .where(and(eq(meetings.buyerId, buyer.id), ACTIVE));
      if ((counts?.pending ?? 0) >= settings.pendingCap)
        throw new DomainError('meeting_limit', `At most ${settings.pendingCap} pending requests per buyer`, {
          cap: 'pending_requests',
          limit: settings.pendingCap,
        });
      if ((counts?.day ?? 0) >= settings.dailyCap)
        throw new DomainError('meeting_limit', `At most ${settings.dailyCap} meetings per buyer and day`, {
          cap: 'meetings_per_day',
          limit: settings.dailyCap,
        });
      const [meeting] = await tx
        .insert(meetings)
        .values({
          editionId: edition.id,
          exhibitorId,
          slotId,
          buyerId: buyer.id,
          message: input.message,
          locale: input.locale,
          expiresAt: new Date(
            Math.min(now.getTime() + settings.requestExpiryHours * 3_600_000, slot.startsAt.getTime()),
          ),
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: meetings.id });
      const id = meeting!.id;
      await tx.insert(meetingPeople).values([
        { userId: buyer.id, slotId, meetingId: id },
        { userId: exhibitor.ownerId, slotId, meetingId: id },
      ]);
      let accepted = false;
      if (prefs?.autoAccept) {
        try {
          await acceptWithTable(tx, id, now);
          accepted = true;
        } catch (error) {
          // No table free: the request waits for the exhibitor like any other.
          if (!(error instanceof DomainError && error.code === 'no_table_free')) throw error;
        }
      }
      await mail(tx, id, 'requested');
      if (accepted) await mail(tx, id, 'accepted');
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'meetings_exhibitor_slot_idx'))
      throw await slotTaken(db, exhibitorId, now, slot.startsAt);
    if (isUniqueViolation(error, 'meeting_people_user_id_slot_id_pk')) {
      const [busy] = await db
        .select({ one: sql`1` })
        .from(meetingPeople)
        .where(and(eq(meetingPeople.userId, buyer.id), eq(meetingPeople.slotId, slotId)));
      if (busy) throw new DomainError('person_busy');
      throw await slotTaken(db, exhibitorId, now, slot.startsAt);
    }
    throw error;
  }
}

// ---- Reading -----------------------------------------------------------------------------------

const companyEn = sql<string>`coalesce(${registrations.form}->>'companyNameEn', '')`;
const companyZh = sql<string>`coalesce(${registrations.form}->>'companyNameZh', '')`;

const meetingColumns = {
  id: meetings.id,
  editionId: meetings.editionId,
  status: meetings.status,
  message: meetings.message,
  sequence: meetings.sequence,
  createdAt: meetings.createdAt,
  updatedAt: meetings.updatedAt,
  expiresAt: meetings.expiresAt,
  attendance: meetings.attendance,
  attendanceAt: meetings.attendanceAt,
  locale: meetings.locale,
  slotId: meetings.slotId,
  startsAt: meetingSlots.startsAt,
  endsAt: meetingSlots.endsAt,
  day: meetingSlots.day,
  tableId: meetings.tableId,
  /** The tables it holds, by name (decision 064), joined: "T1, T2"; the one table of an older meeting. */
  tableName: sql<string | null>`coalesce((select string_agg(t.name, ', ' order by t.name)
    from meeting_table_holds h join meeting_tables t on t.id = h.table_id where h.meeting_id = ${meetings.id}),
    ${meetingTables.name})`,
  tableNames: sql<string[] | null>`(select array_agg(t.name order by t.name)
    from meeting_table_holds h join meeting_tables t on t.id = h.table_id where h.meeting_id = ${meetings.id})`,
  exhibitorId: meetings.exhibitorId,
  exhibitorOwnerId: orders.userId,
  exhibitorContact: sql<string | null>`lower(${registrations.contact}->>'contactEmail')`,
  companyNameEn: companyEn,
  companyNameZh: companyZh,
  buyerId: meetings.buyerId,
  buyerName: users.name,
  buyerEmail: users.email,
};

const meetingQuery = (db: Db | Tx) =>
  db
    .select(meetingColumns)
    .from(meetings)
    .innerJoin(meetingSlots, eq(meetingSlots.id, meetings.slotId))
    .leftJoin(meetingTables, eq(meetingTables.id, meetings.tableId))
    .innerJoin(registrations, eq(registrations.id, meetings.exhibitorId))
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(users, eq(users.id, meetings.buyerId))
    .$dynamic();

export type MeetingFacts = Awaited<ReturnType<typeof loadMeeting>> & {};

/** One meeting with its slot, table, exhibitor and buyer (no party check: mails, desk). */
export async function loadMeeting(db: Db | Tx, id: string) {
  const [row] = await meetingQuery(db).where(eq(meetings.id, id)).limit(1);
  return row;
}

/** The side `user` is on in a meeting, or undefined when it is not a party. */
export function sideOf(
  row: { buyerId: string; exhibitorOwnerId: string; exhibitorContact: string | null },
  user: { id: string; email: string },
): MeetingSide | undefined {
  if (row.buyerId === user.id) return 'buyer';
  if (row.exhibitorOwnerId === user.id || row.exhibitorContact === user.email.toLowerCase()) return 'exhibitor';
  return undefined;
}

/** A meeting of which `user` is a party, with its side; undefined otherwise (404 to anyone else). */
export async function meetingOf(db: Db | Tx, user: { id: string; email: string }, id: string) {
  const row = await loadMeeting(db, id);
  const side = row && sideOf(row, user);
  return row && side ? { ...row, side } : undefined;
}

/** Every meeting of `user`, on either side, by time. */
export async function myMeetings(db: Db, user: { id: string; email: string }) {
  const rows = await meetingQuery(db)
    .where(or(eq(meetings.buyerId, user.id), exhibitorSideOf(user)))
    .orderBy(asc(meetingSlots.startsAt), asc(meetings.createdAt));
  return rows.map((r) => ({ ...r, side: sideOf(r, user)! }));
}

/** The exhibitors (Market registrations) `user` answers for: their ids and names. */
export async function myExhibitors(db: Db, user: { id: string; email: string }) {
  const rows = await db
    .select({
      id: registrations.id,
      companyNameEn: companyEn,
      companyNameZh: companyZh,
      tablesNeeded: meetingExhibitors.tablesNeeded,
      autoAccept: meetingExhibitors.autoAccept,
    })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .leftJoin(meetingExhibitors, eq(meetingExhibitors.registrationId, registrations.id))
    .where(exhibitorSideOf(user));
  const listed = [];
  for (const r of rows)
    if (await listedExhibitor(db, r.id))
      listed.push({ ...r, tablesNeeded: r.tablesNeeded ?? 1, autoAccept: r.autoAccept ?? false });
  return listed;
}

// ---- Transitions -------------------------------------------------------------------------------

/**
 * A party's action on a meeting: accept or decline (the exhibitor's side), cancel (either side,
 * an accepted meeting up to the cut-off). 404 when `user` is not a party. The change is a guarded
 * UPDATE from the status read (409 `meeting_state` when another came first); an ended meeting
 * frees its people; the mails are queued in the same transaction.
 */
export async function actOnMeeting(
  db: Db,
  input: { user: { id: string; email: string }; meetingId: string; action: MeetingAction; now: Date },
  mail: MeetingMailer,
): Promise<MeetingStatus> {
  const { user, meetingId, action, now } = input;
  const row = await meetingOf(db, user, meetingId);
  const setup = await meetingSetup(db);
  if (!row) throw notFoundError('Meeting');
  const decided = decideMeeting({
    status: row.status,
    side: row.side,
    action,
    startsAt: row.startsAt,
    now,
    cancelCutoffHours: setup?.settings?.cancelCutoffHours ?? 0,
  });
  if (!decided.ok) {
    if (decided.code === 'forbidden') throw notFoundError('Meeting');
    throw new DomainError(decided.code);
  }
  await db.transaction(async (tx) => {
    if (decided.next === 'accepted') {
      if (row.expiresAt <= now) {
        await sweepExpired(tx, now, eq(meetings.id, row.id));
        throw new DomainError('meeting_state', 'This request has expired');
      }
      await acceptWithTable(tx, row.id, now);
      await mail(tx, row.id, 'accepted');
      return;
    }
    const [changed] = await tx
      .update(meetings)
      .set({
        status: decided.next,
        decidedAt: row.status === 'requested' ? now : undefined,
        closedBy: user.email.toLowerCase(),
        sequence: sql`${meetings.sequence} + 1`,
        updatedAt: now,
      })
      .where(and(eq(meetings.id, row.id), eq(meetings.status, row.status)))
      .returning({ id: meetings.id });
    if (!changed) throw new DomainError('meeting_state');
    await tx.delete(meetingPeople).where(eq(meetingPeople.meetingId, row.id));
    await tx.delete(meetingTableHolds).where(eq(meetingTableHolds.meetingId, row.id));
    await mail(tx, row.id, decided.next === 'declined' ? 'declined' : 'cancelled');
  });
  return decided.next;
}

/** An exhibitor's preferences (its side only; 404 otherwise). */
export async function setExhibitorPrefs(
  db: Db,
  user: { id: string; email: string },
  exhibitorId: string,
  prefs: {
    tablesNeeded?: number | undefined;
    autoAccept?: boolean | undefined;
    unavailableSlotIds?: string[] | undefined;
  },
) {
  const mine = (await myExhibitors(db, user)).find((e) => e.id === exhibitorId);
  if (!mine) throw notFoundError('Exhibitor');
  await db.transaction(async (tx) => {
    const values = {
      tablesNeeded: prefs.tablesNeeded ?? mine.tablesNeeded,
      autoAccept: prefs.autoAccept ?? mine.autoAccept,
    };
    await tx
      .insert(meetingExhibitors)
      .values({ registrationId: exhibitorId, ...values })
      .onConflictDoUpdate({ target: meetingExhibitors.registrationId, set: { ...values, updatedAt: sql`now()` } });
    if (prefs.unavailableSlotIds) {
      await tx.delete(meetingUnavailable).where(eq(meetingUnavailable.registrationId, exhibitorId));
      const ids = [...new Set(prefs.unavailableSlotIds.map((s) => s.toLowerCase()))];
      if (ids.length) {
        const known = await tx.select({ id: meetingSlots.id }).from(meetingSlots).where(inArray(meetingSlots.id, ids));
        if (known.length)
          await tx.insert(meetingUnavailable).values(known.map((s) => ({ registrationId: exhibitorId, slotId: s.id })));
      }
    }
  });
}

/** The slots an exhibitor marked unavailable. */
export async function unavailableSlots(db: Db, exhibitorId: string): Promise<string[]> {
  const rows = await db
    .select({ id: meetingUnavailable.slotId })
    .from(meetingUnavailable)
    .where(eq(meetingUnavailable.registrationId, exhibitorId));
  return rows.map((r) => r.id);
}

/** Every slot of the current edition (open ones), for the exhibitor's availability form and the grid. */
export async function editionSlots(db: Db, editionId: string) {
  return db
    .select({
      id: meetingSlots.id,
      startsAt: meetingSlots.startsAt,
      endsAt: meetingSlots.endsAt,
      day: meetingSlots.day,
    })
    .from(meetingSlots)
    .where(and(eq(meetingSlots.editionId, editionId), eq(meetingSlots.open, true)))
    .orderBy(asc(meetingSlots.startsAt));
}

/** Every meeting of the edition (organiser view, export), by time. */
export async function editionMeetings(db: Db, editionId: string) {
  return meetingQuery(db)
    .where(eq(meetings.editionId, editionId))
    .orderBy(asc(meetingSlots.startsAt), asc(meetingTables.name));
}
