import { and, count, eq, inArray } from 'drizzle-orm';
import {
  applyEventPatch,
  catalogueChanges,
  catalogueIssue,
  catalogueIssues,
  catalogueTexts,
  kindFacts,
  newCatalogueEvent,
  slugIssue,
  STATUS_CHANGES,
  statusChangeRefusal,
  type CatalogueEvent,
  type CatalogueIssue,
  type EventCreate,
  type EventDuplicate,
  type EventPatch,
  type StatusChange,
} from '@domain/event-catalogue';
import { DomainError, notFoundError } from '@domain/errors';
import { kindOf } from '@domain/kinds';
import { LIVE_STATUSES } from '@domain/order-lifecycle';
import type { Db } from '../db/client';
import { isCheckViolation, isUniqueViolation } from '../db/db-errors';
import { eventChanges, events, files, orders } from '../db/schema';
import type { EventRow } from './events';
import { currentEdition } from '../editions/editions';

/*
 * The event catalogue (issue 21, decision 054): events created, changed, duplicated, published,
 * unpublished and archived from the back office. Every write locks the event's row, checks the
 * domain's rules against the event as it is, and records what happened in `event_changes` with
 * who did it (decision 030's history, extended). Slugs are unique in the table and events are
 * never deleted, so a slug once given is never given again (archived events keep theirs).
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An event's catalogue fields as the rules see them. */
export const catalogueOf = (e: EventRow): CatalogueEvent => ({
  type: e.type,
  ...catalogueTexts(e),
  startTime: e.startTime,
  endAt: e.endAt,
  requiresApproval: e.requiresApproval,
  includedBadges: e.includedBadges,
  addressEn: e.addressEn ?? null,
  addressZh: e.addressZh ?? null,
  liveStreamUrl: e.liveStreamUrl,
  imageFileId: e.imageFileId,
  capacity: e.capacity,
  registerStartAt: e.registerStartAt,
  registerEndAt: e.registerEndAt,
  formModifyExpiresAt: e.formModifyExpiresAt,
  priceCentsTwd: e.priceCentsTwd,
  priceCentsUsd: e.priceCentsUsd,
  originalPriceCentsTwd: e.originalPriceCentsTwd,
});

export type CatalogueWrite =
  | { kind: 'ok'; event: EventRow; changes: ReturnType<typeof catalogueChanges> }
  | { kind: 'invalid'; issues: CatalogueIssue[] };

const slugTaken = (): CatalogueWrite => ({ kind: 'invalid', issues: [catalogueIssue('slug', 'slug_taken')] });

async function lockEvent(tx: Tx, slug: string) {
  const [event] = await tx.select().from(events).where(eq(events.slug, slug)).limit(1).for('update');
  if (!event) throw notFoundError('Event');
  return event;
}

async function orderCounts(tx: Tx, eventId: string) {
  const [all] = await tx.select({ n: count() }).from(orders).where(eq(orders.eventId, eventId));
  const [live] = await tx
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.eventId, eventId), inArray(orders.paymentStatus, LIVE_STATUSES)));
  return { all: all?.n ?? 0, live: live?.n ?? 0 };
}

/** An image that is not an `event_image` upload (organisers upload them for each other: any organiser's counts). */
async function imageIssues(tx: Tx | Db, imageFileId: string | null, was: string | null = null) {
  if (imageFileId === null || imageFileId === was) return [];
  const [file] = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, imageFileId), eq(files.purpose, 'event_image')))
    .limit(1);
  return file ? [] : [catalogueIssue('imageFileId', 'invalid_image')];
}

/** Creates an event (a draft unless `published`), recorded as created by `by`. */
export async function createEvent(db: Db, body: EventCreate, by: string, now: Date): Promise<CatalogueWrite> {
  const slug = body.slug;
  const bad = slugIssue(slug);
  const event = newCatalogueEvent(body);
  const issues = [
    ...(bad ? [bad] : []),
    ...catalogueIssues(event, kindFacts(kindOf(body.type)), { seatsTaken: 0 }),
    ...(await imageIssues(db, event.imageFileId)),
  ];
  if (issues.length) return { kind: 'invalid', issues };
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(events)
        .values({
          ...event,
          slug,
          // In the current edition (decision 049); none yet: an event of no edition, as before editions.
          editionId: (await currentEdition(tx))?.id ?? null,
          status: body.published ? 'published' : 'draft',
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: events.slug })
        .returning();
      if (!row) return slugTaken();
      await tx
        .insert(eventChanges)
        .values([
          { eventId: row.id, changedBy: by, action: 'created', changes: {}, createdAt: now },
          ...(body.published
            ? [{ eventId: row.id, changedBy: by, action: 'published' as const, changes: {}, createdAt: now }]
            : []),
        ]);
      return { kind: 'ok' as const, event: row, changes: {} };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return slugTaken();
    throw error;
  }
}

/**
 * Changes an event: any of its fields but the slug. The event row is locked first, so the rules
 * see the seats taken as they are (a capacity below them is refused, never half applied; decision
 * 030) and the orders it has (its type is fixed once published or ordered). With
 * `expectedUpdatedAt`, a change someone else saved meanwhile is not overwritten (`event_changed`).
 * Nothing changed: nothing written, no history row. Prices concern new orders only (decision 010).
 */
export async function updateEvent(
  db: Db,
  slug: string,
  patch: EventPatch,
  by: string,
  now: Date,
): Promise<CatalogueWrite> {
  try {
    return await db.transaction(async (tx) => {
      const event = await lockEvent(tx, slug);
      if (patch.expectedUpdatedAt && new Date(patch.expectedUpdatedAt).getTime() !== event.updatedAt.getTime())
        throw new DomainError('event_changed');
      const before = catalogueOf(event);
      const after = applyEventPatch(before, patch);
      const typeChanged = after.type !== before.type;
      const issues = [
        ...catalogueIssues(after, kindFacts(kindOf(after.type)), {
          seatsTaken: event.seatsTaken,
          typeChanged,
          status: event.status,
          orders: typeChanged ? (await orderCounts(tx, event.id)).all : 0,
        }),
        ...(await imageIssues(tx, after.imageFileId, before.imageFileId)),
      ];
      if (issues.length) return { kind: 'invalid' as const, issues };
      const changes = catalogueChanges(before, after);
      if (Object.keys(changes).length === 0) return { kind: 'ok' as const, event, changes };
      const [updated] = await tx
        .update(events)
        .set({ ...after, updatedAt: now })
        .where(eq(events.id, event.id))
        .returning();
      await tx.insert(eventChanges).values({ eventId: event.id, changedBy: by, changes, createdAt: now });
      return { kind: 'ok' as const, event: updated!, changes };
    });
  } catch (error) {
    // Unreachable under the row lock; kept so a constraint can never surface as a 500.
    if (isCheckViolation(error, 'events_seats_check'))
      return {
        kind: 'invalid',
        issues: [{ path: 'capacity', code: 'capacity_below_taken', message: 'Capacity is below the seats taken' }],
      };
    throw error;
  }
}

/**
 * Publishes, unpublishes or archives an event (`STATUS_CHANGES`): refused with `409` from a
 * status the change does not start at, and back to draft while live orders hold the event.
 */
export async function changeEventStatus(
  db: Db,
  slug: string,
  change: StatusChange,
  by: string,
  now: Date,
): Promise<EventRow> {
  return db.transaction(async (tx) => {
    const event = await lockEvent(tx, slug);
    const refusal = statusChangeRefusal(change, {
      status: event.status,
      liveOrders: change === 'unpublish' ? (await orderCounts(tx, event.id)).live : 0,
    });
    if (refusal) throw new DomainError(refusal);
    const rule = STATUS_CHANGES[change];
    const [updated] = await tx
      .update(events)
      .set({ status: rule.to, updatedAt: now })
      .where(eq(events.id, event.id))
      .returning();
    await tx.insert(eventChanges).values({
      eventId: event.id,
      changedBy: by,
      action: rule.action,
      changes: { status: { before: event.status, after: rule.to } },
      createdAt: now,
    });
    return updated!;
  });
}

/**
 * A copy of an event under a new slug, as a draft with no seats taken: every field but the
 * slug (and the names when given). Its history starts with where it was copied from.
 */
export async function duplicateEvent(
  db: Db,
  slug: string,
  copy: EventDuplicate,
  by: string,
  now: Date,
): Promise<CatalogueWrite> {
  const bad = slugIssue(copy.slug);
  if (bad) return { kind: 'invalid', issues: [bad] };
  try {
    return await db.transaction(async (tx) => {
      const [source] = await tx.select().from(events).where(eq(events.slug, slug)).limit(1);
      if (!source) throw notFoundError('Event');
      const fields = applyEventPatch(catalogueOf(source), {
        ...(copy.nameEn !== undefined ? { nameEn: copy.nameEn } : {}),
        ...(copy.nameZh !== undefined ? { nameZh: copy.nameZh } : {}),
      });
      const issues = catalogueIssues(fields, kindFacts(kindOf(fields.type)), { seatsTaken: 0 });
      if (issues.length) return { kind: 'invalid' as const, issues };
      const [row] = await tx
        .insert(events)
        .values({
          ...fields,
          slug: copy.slug,
          editionId: (await currentEdition(tx))?.id ?? source.editionId,
          offeredRegistrationTypes: source.offeredRegistrationTypes,
          status: 'draft',
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: events.slug })
        .returning();
      if (!row) return slugTaken();
      await tx.insert(eventChanges).values({
        eventId: row.id,
        changedBy: by,
        action: 'duplicated',
        changes: { slug: { before: source.slug, after: row.slug } },
        createdAt: now,
      });
      return { kind: 'ok' as const, event: row, changes: {} };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return slugTaken();
    throw error;
  }
}
