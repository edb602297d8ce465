/**
 * The one writer of order state. Every transition (place, card attempt, declare transfer, pay,
 * decline, expire, review, approve, reject, cancel) is decided by the pure domain
 * (`@domain/order-lifecycle`) and applied here: a guarded `UPDATE … WHERE status IN (allowed)
 * RETURNING`, the seat taken or given back in the same transaction, the change published to the
 * hooks of the order's kind (`server/kinds`: the badge of badge kinds, included badges, pitching's
 * works and quota), and one `order_events` row (the audit trail and the outbox). No other module writes
 * `orders.payment_status`, `orders.approval_status` or `events.seats_taken`.
 */
import { and, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
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
import { publishOrderChange } from '../kinds/index';
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

/** Whether unpaid orders past their deadline still hold seats of the event (the expiry run has not reached them). */
async function hasLapsedSeats(db: Db, eventId: string, now: Date) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.eventId, eventId),
        eq(orders.paymentStatus, 'pending'),
        eq(orders.holdsSeat, true),
        lt(orders.paymentExpiresAt, now),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether the event is full now and no unpaid order past its deadline holds one of its seats. */
async function fullWithoutLapsedSeats(db: Db, eventId: string, now: Date): Promise<boolean> {
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
  return row !== undefined && row.full === true && row.lapsed === false;
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
 * a conditional UPDATE in the order's transaction, so concurrent requests cannot oversell
 * (DESIGN D12). Unique violations (one live order per user and event, one badge per user and
 * e-mail) are left to the caller, which knows what they mean for its kind.
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
  const placeIn = (conn: Db) =>
    conn.transaction(async (tx) => {
      if (kind.holdsSeat && !(await takeSeat(tx, event.id))) throw new DomainError('event_capacity_full');
      const [order] = await tx
        .insert(orders)
        .values({
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
        })
        .returning();
      await tx
        .insert(registrations)
        .values({ orderId: order!.id, userId: input.user.id, form: input.form, contact: input.contact ?? null });
      if (input.contents?.length) {
        await tx.insert(orderContents).values(
          input.contents.map((c) => ({
            orderId: order!.id,
            contentId: c.id,
            title: c.title,
            titleZh: c.titleZh ?? '',
            genre: c.genre ?? null,
            categoryId: c.categoryId ?? null,
            pitching: c.pitching ?? false,
          })),
        );
      }
      await input.within?.(tx, order!);
      await publishOrderChange({
        tx,
        event,
        before: null,
        after: order!,
        happened: 'placed',
        now: ctx.now,
        pickupSecret: ctx.pickupSecret,
      });
      await recordOrderEvent(tx, {
        orderId: order!.id,
        kind: 'placed',
        actor: input.actor,
        before: { paymentStatus: null, approvalStatus: null },
        after: { paymentStatus: order!.paymentStatus, approvalStatus: order!.approvalStatus },
        payload: {
          registrationType: input.registrationType,
          quantity: price.quantity,
          totalTwdCents: price.total.twd.cents,
          totalUsdCents: price.total.usd?.cents ?? null,
        },
        at: ctx.now,
      });
      return order!;
    });
  // A seat-limited event is read again, with whether lapsed orders still hold seats, in one
  // statement on the connection the order's transaction then runs on, right before it: full and
  // none lapsed is refused there without opening a transaction. In a burst the request read the
  // event while every other request was reading it too, before the first seats were taken; the
  // pool's queue then puts this read after the transactions ahead of it, so most of a burst is
  // refused in one statement instead of four (begin, seat, rollback, lapsed). A seat freed after
  // the read is as if this request had come a moment earlier; a seat is only ever taken by the
  // conditional UPDATE in the transaction (DESIGN D12).
  const seatLimited = kind.holdsSeat && event.capacity !== null;
  let fullNow = false;
  const attempt = () =>
    onOneConnection(db, async (conn) => {
      if (seatLimited && (await fullWithoutLapsedSeats(conn, event.id, ctx.now))) {
        fullNow = true;
        throw new DomainError('event_capacity_full');
      }
      return placeIn(conn);
    });
  try {
    return await attempt();
  } catch (error) {
    // Full, but lapsed unpaid orders still hold seats (the expiry run is throttled): release
    // them now and try once more, so a freed seat is never refused.
    if (
      error instanceof DomainError &&
      error.code === 'event_capacity_full' &&
      !fullNow &&
      (await hasLapsedSeats(db, event.id, ctx.now))
    ) {
      await expireOverdueOrders(db, ctx.now);
      return attempt();
    }
    throw error;
  }
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
