import { and, eq, inArray, sql } from 'drizzle-orm';
import { DomainError, notFoundError } from '@domain/errors';
import { registrationWindowState } from '@domain/events';
import { kindOf, registrationTypeFor, takesEventRegistration } from '@domain/kinds';
import { ISSUED_STATUSES, LIVE_STATUSES } from '@domain/order-lifecycle';
import { registrationFormEditable } from '@domain/orders';
import { isUuid } from '@domain/validation';
import { coalescing } from '../db/coalesce';
import { prepared } from '../db/prepared';
import type { Db } from '../db/client';
import { events, files, orders, registrations } from '../db/schema';
import { serverKindOf } from '../kinds/index';
import type { OrderParts, ResolveWorks } from '../kinds/parts';
import { isUniqueViolation } from '../db/db-errors';
import {
  expireOverdueOrders,
  liveOrderOf,
  lockOrder,
  placeOrder,
  recordUnchangedOrderEvent,
  type OrderContext,
  type OrderRow,
  type PlacedFrom,
} from './order-state';

export type RegistrationContext = OrderContext;
type Created = {
  orderId: string;
  id: string;
  orderNo: string;
  eventSlug: string;
  paymentStatus: string;
  approvalStatus: string | null;
  existing: boolean;
};

type ContextInput = { slug: string; userId: string; now: Date };

/**
 * The reads of registrationContext that arrive together, as one statement per database handle
 * (decision 073, like the session checks of decision 067): in a registration burst every request
 * reads its event and its user's checks at once, and a thousand such reads became a thousand
 * statements queued for the pool.
 */
const contextReaders = new WeakMap<Db, ReturnType<typeof contextReader>>();

function contextReader(db: Db) {
  return coalescing(async (inputs: ContextInput[]) => {
    const statement = prepared(db, 'registration_context_many', (d) =>
      d
        .select({
          i: sql<number>`r.i`,
          event: events,
          badged: sql<boolean>`exists (select 1 from badges b join orders o on o.id = b.order_id
            where b.user_id = r.user_id
            and coalesce(b.edition_id, (select ce.id from editions ce where ce.is_current))
              is not distinct from coalesce(events.edition_id, (select ce.id from editions ce where ce.is_current))
            and o.payment_status in (${sql.raw(ISSUED_STATUSES.map((s) => `'${s}'`).join(', '))}))`,
          liveId: sql<string | null>`(select o.id from orders o where o.user_id = r.user_id
            and o.event_id = events.id and o.payment_status in (${sql.raw(LIVE_STATUSES.map((s) => `'${s}'`).join(', '))}) limit 1)`,
          fullNow: sql<boolean>`(events.capacity is not null and events.seats_taken >= events.capacity
            and not exists (select 1 from orders o where o.event_id = events.id and o.payment_status = 'pending'
              and o.holds_seat and o.payment_expires_at < r.now))`,
        })
        .from(events)
        .innerJoin(
          sql`json_to_recordset(${sql.placeholder('reads')}::json) as r(i int4, slug text, user_id uuid, now timestamptz)`,
          sql`events.slug = r.slug`,
        )
        .prepare('registration_context_many'),
    );
    const reads = inputs.map((input, i) => ({
      i,
      // What the driver would have sent for a lone surrogate (U+FFFD), never a JSON escape
      // PostgreSQL refuses, which would fail every read of the batch.
      slug: input.slug.toWellFormed(),
      user_id: input.userId,
      now: input.now.toISOString(),
    }));
    const rows = await statement.execute({ reads: JSON.stringify(reads) });
    const byRead = new Map(rows.map((row) => [Number(row.i), row]));
    return inputs.map((_, i) => {
      const row = byRead.get(i);
      return (
        row && {
          event: row.event,
          checks: { badged: row.badged === true, liveId: row.liveId ?? null, fullNow: row.fullNow === true },
        }
      );
    });
  });
}

/**
 * What a registration needs to know before it is placed, in one statement (the hot path of a
 * registration burst, decision 024; shared with the reads that arrive with it, decision 073):
 * the event (by slug), whether the user holds an issued badge of the event's edition (paid or
 * free; a transfer still being checked does not count; no edition: the current one; decision
 * 068), the id of their live order for the event if any, and whether the event is full with no
 * unpaid order past its deadline holding one of its seats. Undefined when there is no such event.
 */
export async function registrationContext(db: Db, input: ContextInput) {
  let read = contextReaders.get(db);
  if (!read) contextReaders.set(db, (read = contextReader(db)));
  return read(input);
}
export type RegistrationContextRow = NonNullable<Awaited<ReturnType<typeof registrationContext>>>;

/**
 * Registers the user for an event through its registration kind. Rules, in order: the event and
 * its kind, the registration type, the registration window, an issued badge where the kind needs
 * one, one live registration per user and event where the kind takes one (a repeat answers the
 * existing order), the kind's own checks and what its order stores (`server/kinds`: Market's
 * participation type, logo and works; pitching's works and story files), then `placeOrder`
 * (seat, price, approval). `body` is validated with the kind's `body` struct.
 */
export async function registerForEvent(
  db: Db,
  input: {
    userId: string;
    email: string;
    eventSlug: string;
    registrationType?: string | undefined;
    body?: unknown;
    resolveWorks?: ResolveWorks | undefined;
    /** The event and the checks when the caller has just read them (the route does, for the body's struct). */
    context?: RegistrationContextRow | undefined;
  } & PlacedFrom,
  ctx: RegistrationContext,
): Promise<Created> {
  const context =
    input.context?.event.slug === input.eventSlug
      ? input.context
      : await registrationContext(db, { slug: input.eventSlug, userId: input.userId, now: ctx.now });
  // A draft is not there for registrants; an archived event takes no more registrations (decision 054).
  if (!context || context.event.status === 'draft') throw notFoundError('Event');
  const { event, checks } = context;
  if (event.status === 'archived') throw new DomainError('registration_closed');
  const kind = kindOf(event.type);
  const place = serverKindOf(kind).place;
  // Badges have their own calls.
  if (!takesEventRegistration(kind) || !place) throw new DomainError('event_type_not_supported');
  // Market kinds derive the registration type from the participation type (their `place`).
  const type = kind.market
    ? ({ ok: true, type: kind.registrationTypes[0] } as const)
    : registrationTypeFor(kind, input.registrationType);
  if (!type.ok)
    throw new DomainError(
      'invalid_registration_type',
      `This event takes registration type ${kind.registrationTypes.join(' or ')}`,
    );
  const window = registrationWindowState(event, ctx.now);
  if (window === 'not_open') throw new DomainError('registration_not_open');
  if (window === 'closed') throw new DomainError('registration_closed');
  if (kind.requiresBadge && !checks.badged) throw new DomainError('demonstration_invalid');
  // Kinds that take several entries per user and event have no live order to answer instead.
  const single = kind.entries === 'one';
  const live = single && checks.liveId ? await liveOrderOf(db, input.userId, event.id) : undefined;

  const view = (o: OrderRow, existing: boolean): Created => ({
    orderId: o.id,
    id: o.id,
    orderNo: o.orderNo,
    eventSlug: event.slug,
    paymentStatus: o.paymentStatus,
    approvalStatus: o.approvalStatus,
    existing,
  });
  let existing = live;
  // The user's own unpaid order past its deadline is overdue, not a live registration to answer.
  if (existing?.paymentStatus === 'pending' && existing.paymentExpiresAt && existing.paymentExpiresAt < ctx.now) {
    await expireOverdueOrders(db, ctx.now, { userId: input.userId });
    existing = await liveOrderOf(db, input.userId, event.id);
  }
  if (existing) return view(existing, true);
  // Full, and no lapsed order holds a seat: refused before anything else is read or written (most
  // of a registration burst). A seat is still only ever taken by placeOrder's conditional UPDATE.
  if (kind.holdsSeat && checks.fullNow) throw new DomainError('event_capacity_full');
  const parts: OrderParts = await place(db, kind, event, {
    userId: input.userId,
    requested: input.registrationType,
    type: type.type,
    body: input.body,
    resolveWorks: input.resolveWorks,
  });
  try {
    const order = await placeOrder(
      db,
      {
        user: { id: input.userId, email: input.email },
        event,
        registrationType: parts.registrationType,
        form: parts.form,
        contact: parts.contact,
        contents: parts.contents.map((w) => ({
          id: String(w.id),
          title: w.titleEn,
          titleZh: w.titleZh,
          genre: w.genre,
          categoryId: w.categoryId,
          pitching: parts.pitchingWorks ?? false,
        })),
        ...(parts.quantity !== undefined ? { quantity: parts.quantity } : {}),
        ...(parts.within ? { within: parts.within } : {}),
        actor: { kind: 'registrant', id: input.userId },
        locale: input.locale,
        siteOrigin: input.siteOrigin,
      },
      ctx,
    );
    return view(order, false);
  } catch (error) {
    const refused = parts.refusal ? await parts.refusal(error) : null;
    if (refused) throw refused;
    // The same user twice at once: the loser's transaction (and its seat) rolled back.
    if (single && isUniqueViolation(error)) {
      const again = await liveOrderOf(db, input.userId, event.id);
      if (again) return view(again, true);
    }
    throw error;
  }
}

async function registrationRow(db: Db, userId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ registration: registrations, order: orders, event: events })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(registrations.id, id), eq(registrations.userId, userId)))
    .limit(1);
  return row;
}

type RegistrationRow = NonNullable<Awaited<ReturnType<typeof registrationRow>>>;

function registrationView({ registration, order, event }: RegistrationRow, now: Date) {
  const kind = kindOf(event.type);
  return {
    id: registration.id,
    registrationId: registration.id,
    orderId: registration.orderId,
    eventSlug: event.slug,
    eventType: event.type,
    /** The kind's form the contact page edits (exhibitor, story, invoice), or null. */
    formType: kind.form?.type ?? null,
    form: registration.form,
    contact: registration.contact,
    /** Market: whether the exhibitor directory lists it once its order is complete (issue 23). */
    directoryListed: registration.directoryListed,
    formModifyExpiresAt: event.formModifyExpiresAt,
    editable:
      kind.form !== null && registrationFormEditable({ ...order, formModifyExpiresAt: event.formModifyExpiresAt }, now),
    createdAt: registration.createdAt,
    updatedAt: registration.updatedAt,
  };
}

/**
 * The files a stored form names (`companyLogoFileId`, `storyOutlineFileId`…), by field, as the
 * uploader shows a file (spec §3 Uploaded file: uid, name, url), so an editor shows their names.
 */
async function formFiles(db: Db, form: unknown) {
  const ids = Object.entries((form ?? {}) as Record<string, unknown>).filter(
    (e): e is [string, string] => e[0].endsWith('FileId') && typeof e[1] === 'string' && isUuid(e[1]),
  );
  if (ids.length === 0) return {};
  const rows = await db
    .select({ id: files.id, name: files.name })
    .from(files)
    .where(inArray(files.id, [...new Set(ids.map(([, id]) => id))]));
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return Object.fromEntries(
    ids
      .filter(([, id]) => names.has(id))
      .map(([field, id]) => [field, { uid: id, name: names.get(id)!, url: `/api/v1/files/${id}` }]),
  );
}

/** A registration (the form behind an order) of its owner; undefined for anyone else's. */
export async function findRegistration(db: Db, userId: string, id: string, now = new Date()) {
  const row = await registrationRow(db, userId, id);
  return row && { ...registrationView(row, now), files: await formFiles(db, row.registration.form) };
}

/** The registration kind of one of the user's registrations (what its edits are validated with). */
export async function registrationKindOf(db: Db, userId: string, id: string) {
  const row = await registrationRow(db, userId, id);
  return row && kindOf(row.event.type);
}

/**
 * Edits the registration form behind one of the user's orders (contact page, spec §2): only kinds
 * with a form, only before the event's `formModifyExpiresAt`, only a live, not rejected order.
 * Works are never edited (an entry cannot be changed after submission). The order row is locked,
 * so an edit cannot interleave with a cancel or an expiry; the edit is in the audit trail.
 */
export async function updateRegistrationForm(
  db: Db,
  input: { userId: string; registrationId: string; form: unknown },
  ctx: Pick<OrderContext, 'now'>,
) {
  const row = await registrationRow(db, input.userId, input.registrationId);
  if (!row) throw notFoundError('Registration');
  const kind = kindOf(row.event.type);
  const editForm = serverKindOf(kind).editForm;
  if (!kind.form || !editForm) throw new DomainError('no_registration_form');
  // The form's own checks (the country and logo of an exhibitor, the files of a story).
  const edited = await editForm(db, input.userId, input.form);
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, eq(orders.id, row.order.id));
    if (!locked) throw notFoundError('Registration');
    const { order, event } = locked;
    if (!registrationFormEditable({ ...order, formModifyExpiresAt: event.formModifyExpiresAt }, ctx.now))
      throw new DomainError('form_modify_expired', 'The registration form can no longer be changed');
    const previous = row.registration.form as Record<string, unknown>;
    const { form, contact, directoryListed } = edited;
    // What the registrant agreed to and chose when registering stays as it was.
    const kept = Object.fromEntries(
      ['marketIdentity', 'agreeTerms', 'agreeDisclosure', 'agreePolicy']
        .filter((k) => k in previous)
        .map((k) => [k, previous[k]]),
    );
    await tx
      .update(registrations)
      .set({
        form: { ...form, ...kept },
        contact,
        ...(directoryListed === undefined ? {} : { directoryListed }),
        updatedAt: ctx.now,
      })
      .where(eq(registrations.id, row.registration.id));
    await recordUnchangedOrderEvent(tx, order, {
      orderId: order.id,
      kind: 'form_updated',
      actor: { kind: 'registrant', id: input.userId },
      payload: {
        registrationId: row.registration.id,
        fields: [
          ...changedFields(previous, row.registration.contact, form, contact ?? {}),
          ...(directoryListed !== undefined && directoryListed !== row.registration.directoryListed
            ? ['directoryListed']
            : []),
        ],
      },
      at: ctx.now,
    });
  });
  return (await findRegistration(db, input.userId, input.registrationId, ctx.now))!;
}

/** The names of the fields an edit changed (the audit trail keeps which, not the personal data). */
function changedFields(
  form: Record<string, unknown>,
  contact: unknown,
  nextForm: Record<string, unknown>,
  nextContact: Record<string, unknown>,
) {
  const before = { ...form, ...((contact as Record<string, unknown> | null) ?? {}) };
  const after = { ...nextForm, ...nextContact };
  return Object.keys(after).filter((k) => canonical(before[k]) !== canonical(after[k]));
}

/** JSON with object keys sorted (jsonb does not keep the order keys were written in). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
