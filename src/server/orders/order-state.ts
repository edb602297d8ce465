/**
 * The one writer of order state. Every transition (place, card attempt, declare transfer, pay,
 * decline, expire, review, approve, reject, cancel) is decided by the pure domain
 * (`@domain/order-lifecycle`) and applied here: a guarded `UPDATE … WHERE status IN (allowed)
 * RETURNING`, the seat taken or given back in the same transaction, the change published to the
 * hooks of the order's kind (`server/kinds`: the badge of badge kinds, included badges, pitching's
 * works and quota), and one `order_events` row (the audit trail and the outbox). No other module writes
 * `orders.payment_status`, `orders.approval_status` or `events.seats_taken`.
 */
import { and, eq, getTableColumns, getTableName, inArray, is, isNull, lt, or, SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import { DomainError } from '@domain/errors';
import {
  decide,
  initialState,
  LIVE_STATUSES,
  type Actor,
  type ApprovalStatus,
  type Command,
  type OrderEventKind,
  type PaymentStatus,
} from '@domain/order-lifecycle';
import { isCharged, priceOrder } from '@domain/pricing';
import { kindOf, needsApproval } from '@domain/kinds';
import type { RegistrationType } from '@domain/kinds/types';
import type { Locale } from '@i18n/locales';
import { onOneConnection, type Db, type Tx } from '../db/client';
import { prepared } from '../db/prepared';
import { events, orderContents, orderEvents, orders, registrations } from '../db/schema';
import { publishesNothing, publishOrderChange } from '../kinds/index';
import { newOrderNo } from './order-no';

export type OrderRow = typeof orders.$inferSelect;
export type EventRow = typeof events.$inferSelect;
type OrderInsert = typeof orders.$inferInsert;
/** Columns a command sets besides the status (values, or SQL such as an atomic increment). */
export type OrderSet = { [K in keyof OrderInsert]?: OrderInsert[K] | SQL };

/** Who is asking: the actor kind and, for people, who (user id or operator name). */
export type ActorRef = { kind: Actor; id?: string | null };
export const SYSTEM: ActorRef = { kind: 'system' };
export const GATEWAY: ActorRef = { kind: 'gateway' };

/** What transitions need besides the order: the clock and the settings they apply. */
export type OrderContext = { now: Date; paymentDays: number; pickupSecret: string; orderPrefix: string };

/** What a single transition needs; `paymentDays` only for approvals (the deadline starts then). */
export type TransitionContext = Pick<OrderContext, 'now' | 'pickupSecret'> & { paymentDays?: number };

export type Locked = { order: OrderRow; event: EventRow };

/** Loads an order with its event and locks the order row until the transaction ends. */
export async function lockOrder(tx: Tx, where: SQL | undefined): Promise<Locked | undefined> {
  const [row] = await tx
    .select({ order: orders, event: events })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(where)
    .for('update', { of: orders })
    .limit(1);
  return row;
}

/** Appends one row to the audit trail / outbox. */
export async function recordOrderEvent(
  tx: Tx,
  input: {
    orderId: string;
    kind: OrderEventKind;
    actor: ActorRef;
    before: { paymentStatus: PaymentStatus | null; approvalStatus: ApprovalStatus | null };
    after: { paymentStatus: PaymentStatus; approvalStatus: ApprovalStatus | null };
    payload?: Record<string, unknown>;
    at: Date;
  },
) {
  await tx.insert(orderEvents).values({
    orderId: input.orderId,
    kind: input.kind,
    actor: input.actor.kind,
    actorId: input.actor.id ?? null,
    paymentStatusBefore: input.before.paymentStatus,
    paymentStatusAfter: input.after.paymentStatus,
    approvalStatusBefore: input.before.approvalStatus,
    approvalStatusAfter: input.after.approvalStatus,
    payload: input.payload ?? {},
    createdAt: input.at,
    availableAt: input.at,
  });
}

/** Records an event that leaves the order's statuses as they are (a form edited, a badge picked up). */
export function recordUnchangedOrderEvent(
  tx: Tx,
  order: { paymentStatus: PaymentStatus; approvalStatus: ApprovalStatus | null },
  input: Omit<Parameters<typeof recordOrderEvent>[1], 'before' | 'after'>,
) {
  const status = { paymentStatus: order.paymentStatus, approvalStatus: order.approvalStatus };
  return recordOrderEvent(tx, { ...input, before: status, after: status });
}

async function takeSeat(tx: Tx, eventId: string): Promise<boolean> {
  const [seat] = await tx
    .update(events)
    .set({ seatsTaken: sql`${events.seatsTaken} + 1` })
    .where(and(eq(events.id, eventId), or(isNull(events.capacity), lt(events.seatsTaken, events.capacity))))
    .returning({ id: events.id });
  return seat !== undefined;
}

async function releaseSeats(tx: Tx, eventId: string, n = 1) {
  await tx
    .update(events)
    .set({ seatsTaken: sql`greatest(${events.seatsTaken} - ${n}, 0)` })
    .where(eq(events.id, eventId));
}

/**
 * Applies a command to a locked order: asks the domain, writes the change guarded by the
 * statuses the transition table allows, moves the seat, publishes the change to the kind's hooks
 * (the badge of a badge order, included badges, pitching works), and records the event. `set` adds the command's own columns (the declared
 * transfer, the card attempt counter…). Throws the domain's refusal as a DomainError.
 */
export async function applyCommand(
  tx: Tx,
  locked: Locked,
  command: Command,
  actor: ActorRef,
  ctx: TransitionContext,
  extra: { set?: OrderSet; payload?: Record<string, unknown> } = {},
): Promise<OrderRow> {
  const { order, event } = locked;
  const kind = kindOf(event.type);
  const decision = decide(
    {
      paymentStatus: order.paymentStatus,
      approvalStatus: order.approvalStatus,
      paymentExpiresAt: order.paymentExpiresAt,
      holdsSeat: order.holdsSeat,
      charged: order.totalTwdCents > 0,
    },
    {
      now: ctx.now,
      paymentDays: ctx.paymentDays ?? 0,
      registerEndAt: event.registerEndAt,
      formModifyExpiresAt: event.formModifyExpiresAt,
      kindHoldsSeat: kind.holdsSeat,
    },
    command,
  );
  if (!decision.ok) throw new DomainError(decision.code, decision.message);
  const { change, guard } = decision;
  const set: OrderSet = { ...extra.set, updatedAt: ctx.now };
  if (change.paymentStatus) set.paymentStatus = change.paymentStatus;
  if (change.approvalStatus) set.approvalStatus = change.approvalStatus;
  if (change.paymentExpiresAt !== undefined) set.paymentExpiresAt = change.paymentExpiresAt;
  if (change.paidAt) set.paidAt = change.paidAt;
  if (change.approvedAt) set.approvedAt = change.approvedAt;
  if (change.rejectedReason !== undefined) set.rejectedReason = change.rejectedReason;
  if (change.seat === 'take') {
    // Paid after it lapsed: a seat again, if one is left; otherwise the charge is refunded.
    if (!(await takeSeat(tx, event.id))) throw new DomainError('order_superseded');
    set.holdsSeat = true;
  }
  if (change.seat === 'release') set.holdsSeat = false;

  const approvalGuard = guard.approvalStatus
    ? or(
        guard.approvalStatus.includes(null) ? isNull(orders.approvalStatus) : undefined,
        inArray(
          orders.approvalStatus,
          guard.approvalStatus.filter((a): a is ApprovalStatus => a !== null),
        ),
      )
    : undefined;
  const [updated] = await tx
    .update(orders)
    .set(set)
    .where(and(eq(orders.id, order.id), inArray(orders.paymentStatus, [...guard.paymentStatus]), approvalGuard))
    .returning();
  // The row is locked, so this only happens if a caller forgot to lock it: refuse, never overwrite.
  if (!updated) throw new DomainError('order_state_changed');
  if (change.seat === 'release') await releaseSeats(tx, event.id);
  // The kind's hooks (its badge, included badges, pitching works and quota) see the change first.
  await publishOrderChange({
    tx,
    event,
    before: order,
    after: updated,
    happened: decision.event.kind,
    now: ctx.now,
    pickupSecret: ctx.pickupSecret,
    payload: { ...decision.event.payload, ...extra.payload },
  });
  await recordOrderEvent(tx, {
    orderId: order.id,
    kind: decision.event.kind,
    actor,
    before: { paymentStatus: order.paymentStatus, approvalStatus: order.approvalStatus },
    after: { paymentStatus: updated.paymentStatus, approvalStatus: updated.approvalStatus },
    payload: { ...decision.event.payload, ...extra.payload },
    at: ctx.now,
  });
  return updated;
}

/** One command on one order, in its own transaction. */
export async function transition(
  db: Db,
  where: SQL,
  command: Command,
  actor: ActorRef,
  ctx: TransitionContext,
  extra?: { set?: OrderSet; payload?: Record<string, unknown> },
): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, where);
    if (!locked) throw new DomainError('not_found', 'Order not found');
    return applyCommand(tx, locked, command, actor, ctx, extra);
  });
}

/**
 * Unpaid orders past their payment deadline become overdue and give their seat back, each through
 * the transition table, in one transaction; rows another transaction holds are left for the next
 * run. `scope` limits the run to one user's orders and the badge orders of one e-mail.
 */
export async function expireOverdueOrders(
  db: Db,
  now: Date,
  scope?: { userId: string; emailKey?: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const whose = scope
      ? scope.emailKey
        ? or(eq(orders.userId, scope.userId), eq(orders.badgeEmailKey, scope.emailKey))
        : eq(orders.userId, scope.userId)
      : undefined;
    const due = await tx
      .select({ order: orders, event: events })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(and(eq(orders.paymentStatus, 'pending'), lt(orders.paymentExpiresAt, now), whose))
      .for('update', { of: orders, skipLocked: true });
    for (const locked of due) {
      await applyCommand(tx, locked, { type: 'expire' }, SYSTEM, { now, pickupSecret: '' });
    }
    return due.length;
  });
}

/**
 * Whether the event is full now, and if so whether unpaid orders past their deadline still hold
 * some of its seats (the expiry run has not reached them); null when seats are left.
 */
async function fullNow(db: Db, eventId: string, now: Date): Promise<{ lapsed: boolean } | null> {
  const statement = prepared(db, 'event_full_without_lapsed', (d) =>
    d
      .select({
        full: sql<boolean>`${events.capacity} is not null and ${events.seatsTaken} >= ${events.capacity}`,
        // Written out: inside a one-table select drizzle leaves column names unqualified.
        lapsed: sql<boolean>`exists (select 1 from orders o where o.event_id = events.id
          and o.payment_status = 'pending' and o.holds_seat and o.payment_expires_at < ${sql.placeholder('now')}::timestamptz)`,
      })
      .from(events)
      .where(eq(events.id, sql.placeholder('eventId')))
      .prepare('event_full_without_lapsed'),
  );
  const [row] = await statement.execute({ eventId, now: now.toISOString() });
  return row?.full === true ? { lapsed: row.lapsed === true } : null;
}

/** Where an order was placed from: the registrant's language then (its e-mails) and the portal origin. */
export type PlacedFrom = { locale?: Locale | null | undefined; siteOrigin?: string | null | undefined };

export type PlaceOrderInput = PlacedFrom & {
  user: { id: string; email: string };
  event: EventRow;
  registrationType: RegistrationType;
  /** Items charged (works for pitching); 1 otherwise. */
  quantity?: number;
  /** The form behind the order (registrations.form). */
  form: Record<string, unknown>;
  /** Contact info of the form (registrations.contact), when the kind has one. */
  contact?: Record<string, unknown> | null;
  /** Works chosen from the content site, as they were when the order was placed. */
  contents?: { id: string; title: string; titleZh?: string; genre?: string; categoryId?: number; pitching?: boolean }[];
  /** Badge orders: the lower-cased applicant e-mail (one live badge order per e-mail). */
  badgeEmailKey?: string | null;
  actor: ActorRef;
  /** Runs inside the order's transaction once it exists (e.g. marks a one-time link used). */
  within?: (tx: Tx, order: OrderRow) => Promise<void>;
};

/**
 * The one way to place an order, for every registration kind. The price is fixed here from the
 * event's price list × quantity and never recomputed; the seat (kinds that hold one) is taken by
 * a conditional UPDATE in the statement that inserts the order, so concurrent requests cannot
 * oversell (DESIGN D12). Unique violations (one live order per user and event, one badge per
 * user and e-mail) are left to the caller, which knows what they mean for its kind.
 *
 * The seat, the order and its registration are one statement (`runPlacing`). When that is
 * all there is to write with the order's `order_events` row (no works, nothing `within`, no hook
 * of the kind acts on placing, most event registrations), the outbox row is part of the same
 * statement and the order is placed in one statement, atomic on its own, with no transaction
 * around it (decision 073). Otherwise the statement opens the order's transaction, and the works,
 * `within`, the hooks and the `order_events` row follow in it.
 */
export async function placeOrder(db: Db, input: PlaceOrderInput, ctx: OrderContext): Promise<OrderRow> {
  const { event } = input;
  const kind = kindOf(event.type);
  const price = priceOrder(event, input.quantity ?? 1);
  const state = initialState({
    charged: isCharged(price),
    needsApproval: needsApproval(kind, event),
    now: ctx.now,
    registerEndAt: event.registerEndAt,
    paymentDays: ctx.paymentDays,
  });
  const placing: Placing = {
    eventId: event.id,
    holdsSeat: kind.holdsSeat,
    now: ctx.now,
    order: {
      orderNo: newOrderNo(ctx.orderPrefix, ctx.now),
      userId: input.user.id,
      eventId: event.id,
      registrationType: input.registrationType,
      ...state,
      currency: 'TWD',
      quantity: price.quantity,
      amountCents: price.total.twd.cents,
      unitPriceTwdCents: price.unit.twd.cents,
      unitPriceUsdCents: price.unit.usd?.cents ?? null,
      totalTwdCents: price.total.twd.cents,
      totalUsdCents: price.total.usd?.cents ?? null,
      holdsSeat: kind.holdsSeat,
      badgeEmailKey: input.badgeEmailKey ?? null,
      // One badge per person and edition (decision 068): the badge event's edition, in the row the indexes read.
      badgeEditionId: kind.issuesBadge ? (event.editionId ?? null) : null,
      locale: input.locale ?? null,
      siteOrigin: input.siteOrigin ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    },
    registration: { userId: input.user.id, form: input.form, contact: input.contact ?? null },
  };
  const placed = {
    kind: 'placed',
    actor: input.actor,
    before: { paymentStatus: null, approvalStatus: null },
    after: { paymentStatus: state.paymentStatus, approvalStatus: state.approvalStatus },
    payload: {
      registrationType: input.registrationType,
      quantity: price.quantity,
      totalTwdCents: price.total.twd.cents,
      totalUsdCents: price.total.usd?.cents ?? null,
    },
    at: ctx.now,
  } satisfies Omit<Parameters<typeof recordOrderEvent>[1], 'orderId'>;
  const oneStatement =
    !input.contents?.length &&
    !input.within &&
    publishesNothing({ event, happened: 'placed', before: null, after: state });

  /** The order; or, when no seat was left, whether unpaid orders past their deadline hold seats. */
  const placeIn = async (conn: Db): Promise<OrderRow | { lapsed: boolean }> => {
    if (oneStatement) return runPlacing(conn, { ...placing, placed });
    // A seat-limited event is read again, with whether lapsed orders still hold seats, in one
    // statement on the connection the order's transaction then runs on, right before it: full
    // and none lapsed is refused there without opening a transaction (decision 033).
    if (kind.holdsSeat && event.capacity !== null) {
      const full = await fullNow(conn, event.id, ctx.now);
      if (full) return full;
    }
    return conn
      .transaction(async (tx) => {
        const taken = await runPlacing(tx as unknown as Db, placing);
        // Nothing was written: rolled back all the same, and answered below.
        if (!('id' in taken)) throw new NoSeat(taken);
        const order = taken;
        if (input.contents?.length) {
          await tx.insert(orderContents).values(
            input.contents.map((c) => ({
              orderId: order.id,
              contentId: c.id,
              title: c.title,
              titleZh: c.titleZh ?? '',
              genre: c.genre ?? null,
              categoryId: c.categoryId ?? null,
              pitching: c.pitching ?? false,
            })),
          );
        }
        await input.within?.(tx, order);
        await publishOrderChange({
          tx,
          event,
          before: null,
          after: order,
          happened: 'placed',
          now: ctx.now,
          pickupSecret: ctx.pickupSecret,
        });
        await recordOrderEvent(tx, { ...placed, orderId: order.id });
        return order as OrderRow | { lapsed: boolean };
      })
      .catch((error: unknown) => {
        if (error instanceof NoSeat) return error.answer;
        throw error;
      });
  };
  // The statement reads the event after the pool's queue, right when it runs: in a burst the
  // request read the event while every other request was reading it too, before the first seats
  // were taken; most of a burst is refused here, by the seat UPDATE that matched no row, in the
  // same one statement. A seat freed after it is as if this request had come a moment earlier.
  const attempt = () => (oneStatement ? placeIn(db) : onOneConnection(db, placeIn));
  let answer = await attempt();
  // Full, but lapsed unpaid orders still hold seats (the expiry run is throttled): release them
  // now and try once more, so a freed seat is never refused.
  if (!('id' in answer) && answer.lapsed) {
    await expireOverdueOrders(db, ctx.now);
    answer = await attempt();
  }
  if (!('id' in answer)) throw new DomainError('event_capacity_full');
  return answer;
}

/** What one placing statement writes: the seat (kinds that hold one), the order, its registration. */
type Placing = {
  eventId: string;
  holdsSeat: boolean;
  now: Date;
  order: OrderInsert;
  registration: Omit<typeof registrations.$inferInsert, 'orderId'>;
  /** The order's `order_events` row, written by the same statement (when nothing else is written with it). */
  placed?: Omit<Parameters<typeof recordOrderEvent>[1], 'orderId'>;
};

/** A transaction of placeOrder rolled back because no seat was left. */
class NoSeat extends Error {
  constructor(readonly answer: { lapsed: boolean }) {
    super('no seat left');
  }
}

/**
 * Takes the seat, inserts the order and its registration (and its `order_events` row, when
 * given) in ONE statement: data-modifying CTEs, each insert reading the row before it, so nothing
 * is written unless the seat's conditional UPDATE matched (DESIGN D12), and a unique violation
 * undoes the seat with the rest. Answers the order, or, when no seat was left, whether unpaid
 * orders past their deadline hold seats of the event (read in the same statement). Prepared once
 * per connection and shape (seat or not, outbox row or not): every call names the same columns.
 */
async function runPlacing(conn: Db, p: Placing): Promise<OrderRow | { lapsed: boolean }> {
  const params: Record<string, unknown> = { eventId: p.eventId, now: p.now.toISOString() };
  /** `insert into table (columns) select values from …`, the values as placeholders cast to their column's type. */
  const insertSelect = (prefix: string, table: PgTable, values: Record<string, unknown>, from: SQL) => {
    const columns = getTableColumns(table);
    const names: SQL[] = [];
    const selected: SQL[] = [];
    for (const [key, value] of Object.entries(values)) {
      const column = columns[key];
      if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
      names.push(sql`${sql.identifier(column.name)}`);
      if (is(value, SQL)) {
        selected.push(value);
        continue;
      }
      const name = `${prefix}_${key}`;
      // Encoded here: drizzle encodes a placeholder's null too (jsonb: 'null', not NULL).
      params[name] = value === null || value === undefined ? null : column.mapToDriverValue(value);
      selected.push(sql`${sql.placeholder(name)}::${sql.raw(column.getSQLType())}`);
    }
    return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(selected, sql`, `)} ${from}`;
  };
  const outbox = p.placed
    ? sql`, outbox as (${insertSelect(
        'e',
        orderEvents,
        {
          orderId: sql`placed.id`,
          kind: p.placed.kind,
          actor: p.placed.actor.kind,
          actorId: p.placed.actor.id ?? null,
          paymentStatusBefore: p.placed.before.paymentStatus,
          paymentStatusAfter: p.placed.after.paymentStatus,
          approvalStatusBefore: p.placed.before.approvalStatus,
          approvalStatusAfter: p.placed.after.approvalStatus,
          payload: p.placed.payload ?? {},
          createdAt: p.placed.at,
          availableAt: p.placed.at,
        },
        sql`from placed`,
      )})`
    : sql``;
  const statement = sql`with ${
    p.holdsSeat
      ? sql`seat as (update ${events} set seats_taken = seats_taken + 1
          where id = ${sql.placeholder('eventId')} and (capacity is null or seats_taken < capacity) returning id),`
      : sql``
  } placed as (${insertSelect('o', orders, p.order, p.holdsSeat ? sql`from seat` : sql``)} returning ${ORDER_COLUMNS}),
    registration as (${insertSelect('r', registrations, { ...p.registration, orderId: sql`placed.id` }, sql`from placed`)})
    ${outbox}
    select ${PLACED_COLUMNS}, (not exists (select 1 from placed) and exists (select 1 from orders o
      where o.event_id = ${sql.placeholder('eventId')} and o.payment_status = 'pending' and o.holds_seat
      and o.payment_expires_at < ${sql.placeholder('now')}::timestamptz)) as lapsed_seats_held
    from (select 1) as one left join placed on true`;
  // Named by its shape and by the values it names (a placeholder's name is its column), so a call
  // naming other columns can never run a statement prepared for other ones.
  const names = Object.keys(params).join(',');
  let shape = placingShapes.get(names);
  if (shape === undefined) placingShapes.set(names, (shape = placingShapes.size));
  const name = `place_order${p.holdsSeat ? '_seat' : ''}${p.placed ? '_outbox' : ''}_${shape}`;
  const placing = prepared(conn, name, (d) =>
    d._.session.prepareQuery(dialect.sqlToQuery(statement), undefined, name, false),
  );
  const result = (await placing.execute(params)) as { rows: Record<string, unknown>[] };
  const row = result.rows[0]!;
  if (row.id === null || row.id === undefined) return { lapsed: row.lapsed_seats_held === true };
  return fromRow(orders, row) as OrderRow;
}

/**
 * The order's columns named one by one, never `*`: PostgreSQL fixes a named statement's result
 * type when it is prepared, so `returning *` would fail on every connection that prepared it once
 * a migration adds a column to `orders` beside running instances ("cached plan must not change
 * result type"). `fromRow` reads the same list.
 */
const ORDER_COLUMNS = sql.join(
  Object.values(getTableColumns(orders)).map((column) => sql.identifier(column.name)),
  sql`, `,
);
const PLACED_COLUMNS = sql.join(
  Object.values(getTableColumns(orders)).map((column) => sql`placed.${sql.identifier(column.name)}`),
  sql`, `,
);
/** The placing statement's shapes: the placeholders' names of each, numbered in order of first use. */
const placingShapes = new Map<string, number>();

/** Turns SQL into its text and parameters (for statements drizzle's builders cannot write). */
const dialect = new PgDialect();

/** A row of `table` as the database driver answered it (column names), as drizzle maps it. */
function fromRow(table: PgTable, row: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = row[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  );
}

/** The live order of a user for an event, if any. */
export async function liveOrderOf(db: Db | Tx, userId: string, eventId: string): Promise<OrderRow | undefined> {
  const statement = prepared(db as Db, 'live_order_of', (d) =>
    d
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, sql.placeholder('userId')),
          eq(orders.eventId, sql.placeholder('eventId')),
          inArray(orders.paymentStatus, LIVE_STATUSES),
        ),
      )
      .limit(1)
      .prepare('live_order_of'),
  );
  const [row] = await statement.execute({ userId, eventId });
  return row;
}
