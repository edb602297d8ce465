/**
 * The order lifecycle: status lists, their named sets, and the one transition table for payment
 * and approval. `decide` is pure: the server's order-state service loads the order, asks here,
 * and applies the answer with a guarded UPDATE (the `guard` below) in one transaction.
 */
import type { DomainErrorCode } from './errors';

export const PAYMENT_STATUSES = ['free', 'pending', 'checking', 'paid', 'overdue', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const APPROVAL_STATUSES = ['pending_approval', 'auditing', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A payment record: one card attempt, or one confirmed payment (card or transfer). */
export const PAYMENT_RECORD_STATUSES = ['started', 'declined', 'paid', 'refund_due', 'refunded'] as const;
export type PaymentRecordStatus = (typeof PAYMENT_RECORD_STATUSES)[number];

/** Who caused a transition (recorded on every `order_events` row). */
export const ACTORS = ['registrant', 'organiser', 'gateway', 'system'] as const;
export type Actor = (typeof ACTORS)[number];

export const ORDER_EVENT_KINDS = [
  'placed',
  'card_attempt_started',
  'card_declined',
  'transfer_declared',
  'paid',
  'expired',
  'review_started',
  'approved',
  'rejected',
  'canceled',
  'refund_due',
  'refunded',
  /** The registrant edited the registration form (contact page); no status changes. */
  'form_updated',
  /** An organiser handed the badge out at the badge desk; no status changes. */
  'badge_picked_up',
  /** The organiser sent a declared transfer back to the registrant with a message (not found, wrong amount…). */
  'transfer_returned',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

// ---- Named sets -----------------------------------------------------------------------------

/** Orders that count: they hold their seat, their badge, their one registration per event. */
export const LIVE_STATUSES = ['free', 'pending', 'checking', 'paid'] as const satisfies readonly PaymentStatus[];
/** Orders that no longer count (a new order for the same event or badge may be placed). */
export const CLOSED_STATUSES = ['overdue', 'canceled'] as const satisfies readonly PaymentStatus[];
/** Settled orders: the badge's QR code is shown, an event registration is confirmed. */
export const ISSUED_STATUSES = ['paid', 'free'] as const satisfies readonly PaymentStatus[];
/** Orders past choosing how to pay: a badge is created for them (the QR waits for `issued`). */
export const BADGE_CREATING_STATUSES = ['checking', 'paid', 'free'] as const satisfies readonly PaymentStatus[];
/** Orders a gateway charge or a confirmed transfer can settle. */
export const SETTLEABLE_STATUSES = ['pending', 'checking', 'overdue'] as const satisfies readonly PaymentStatus[];
/** Approval states in which money may be asked for: none needed, or granted. */
export const PAYABLE_APPROVALS = [null, 'approved'] as const satisfies readonly (ApprovalStatus | null)[];
/** Approval states still waiting for the organiser. */
export const AWAITING_APPROVAL = ['pending_approval', 'auditing'] as const satisfies readonly ApprovalStatus[];

const has = <T>(list: readonly T[], value: T) => list.includes(value);
export const isLive = (s: PaymentStatus) => has(LIVE_STATUSES, s);
export const isClosed = (s: PaymentStatus) => has(CLOSED_STATUSES, s);
export const isIssued = (s: PaymentStatus) => has(ISSUED_STATUSES, s);
export const isAwaitingApproval = (a: ApprovalStatus | null) => a !== null && has(AWAITING_APPROVAL, a);
export const isPayableApproval = (a: ApprovalStatus | null) => has(PAYABLE_APPROVALS, a);

// ---- Deadlines --------------------------------------------------------------------------------

const DAY = 24 * 60 * 60 * 1000;

/** When an unpaid order lapses: `days` after `now`, never after the event's registration end. */
export function paymentDeadline(now: Date, registerEndAt: Date, days: number): Date {
  return new Date(Math.min(now.getTime() + days * DAY, registerEndAt.getTime()));
}

/**
 * The deadline of a transfer sent back to the registrant (decision 025): the full payment period
 * from now, or the deadline the order had if that is later. Not capped at the registration end:
 * the order was placed in time, and the organiser chose to ask for a correction, not to close it.
 */
export function returnedTransferDeadline(current: Date | null, now: Date, days: number): Date {
  const fresh = now.getTime() + days * DAY;
  return new Date(Math.max(current?.getTime() ?? 0, fresh));
}

/** The state an order is placed in. An order that needs approval gets its deadline at approval. */
export function initialState(input: {
  charged: boolean;
  needsApproval: boolean;
  now: Date;
  registerEndAt: Date;
  paymentDays: number;
}): { paymentStatus: PaymentStatus; approvalStatus: ApprovalStatus | null; paymentExpiresAt: Date | null } {
  return {
    paymentStatus: input.charged ? 'pending' : 'free',
    approvalStatus: input.needsApproval ? 'pending_approval' : null,
    paymentExpiresAt:
      input.charged && !input.needsApproval ? paymentDeadline(input.now, input.registerEndAt, input.paymentDays) : null,
  };
}

// ---- The transition table -----------------------------------------------------------------------

export type Command =
  | { type: 'start_card' }
  | { type: 'decline' }
  | { type: 'declare_transfer' }
  | { type: 'pay' }
  | { type: 'expire' }
  | { type: 'start_review' }
  | { type: 'approve' }
  | { type: 'reject'; reason: string }
  | { type: 'cancel'; reason?: string | undefined }
  | { type: 'return_transfer'; message: string };
export type CommandType = Command['type'];

type Rule = {
  /** Payment statuses the command applies to (the guarded UPDATE's `WHERE payment_status IN`). */
  from: readonly PaymentStatus[];
  /** Approval statuses it applies to; absent = any. */
  approvalFrom?: readonly (ApprovalStatus | null)[];
  to?: PaymentStatus;
  approvalTo?: ApprovalStatus;
  /** The order gives its seat back (if it holds one). */
  releasesSeat?: true;
  event: OrderEventKind;
};

/** Every transition of payment and approval. Anything not listed here is refused. */
export const TRANSITIONS: Record<CommandType, Rule> = {
  start_card: { from: ['pending'], approvalFrom: PAYABLE_APPROVALS, event: 'card_attempt_started' },
  decline: { from: ['pending'], event: 'card_declined' },
  declare_transfer: {
    from: ['pending', 'checking'],
    approvalFrom: PAYABLE_APPROVALS,
    to: 'checking',
    event: 'transfer_declared',
  },
  pay: { from: SETTLEABLE_STATUSES, approvalFrom: PAYABLE_APPROVALS, to: 'paid', event: 'paid' },
  expire: { from: ['pending'], to: 'overdue', releasesSeat: true, event: 'expired' },
  start_review: {
    from: ['pending', 'free'],
    approvalFrom: ['pending_approval'],
    approvalTo: 'auditing',
    event: 'review_started',
  },
  approve: { from: ['pending', 'free'], approvalFrom: AWAITING_APPROVAL, approvalTo: 'approved', event: 'approved' },
  reject: {
    from: ['pending', 'free'],
    approvalFrom: [...AWAITING_APPROVAL, 'approved'],
    to: 'canceled',
    approvalTo: 'rejected',
    releasesSeat: true,
    event: 'rejected',
  },
  cancel: { from: ['pending', 'checking', 'free', 'paid'], to: 'canceled', releasesSeat: true, event: 'canceled' },
  // The organiser could not confirm a declared transfer: back to unpaid, with a message and a
  // fair deadline (decision 025). The declared details stay, so the pay page shows what to correct.
  return_transfer: {
    from: ['checking'],
    approvalFrom: PAYABLE_APPROVALS,
    to: 'pending',
    event: 'transfer_returned',
  },
};

/**
 * The commands the transition table allows an order in its current state (the back office shows
 * these actions); the server decides again with the time rules when one is sent.
 */
export function commandsAllowed(order: {
  paymentStatus: PaymentStatus;
  approvalStatus: ApprovalStatus | null;
}): CommandType[] {
  return (Object.keys(TRANSITIONS) as CommandType[]).filter((type) => {
    const rule = TRANSITIONS[type];
    return (
      rule.from.includes(order.paymentStatus) &&
      (!rule.approvalFrom || rule.approvalFrom.includes(order.approvalStatus))
    );
  });
}

export type OrderFacts = {
  paymentStatus: PaymentStatus;
  approvalStatus: ApprovalStatus | null;
  paymentExpiresAt: Date | null;
  holdsSeat: boolean;
  /** Whether the order is charged (its price, fixed when placed, is above zero). */
  charged: boolean;
};
export type DecisionContext = {
  now: Date;
  paymentDays: number;
  registerEndAt: Date;
  formModifyExpiresAt: Date | null;
  /** Whether orders of this kind hold one of the event's seats. */
  kindHoldsSeat: boolean;
};

export type Change = {
  paymentStatus?: PaymentStatus;
  approvalStatus?: ApprovalStatus;
  paymentExpiresAt?: Date | null;
  paidAt?: Date;
  approvedAt?: Date;
  rejectedReason?: string;
  /** take: the order takes a seat again (paid after it lapsed); release: it gives its seat back. */
  seat?: 'take' | 'release';
};

export type Decision =
  | {
      ok: true;
      command: Command;
      /** What the guarded UPDATE requires of the row, so a concurrent change is never overwritten. */
      guard: { paymentStatus: readonly PaymentStatus[]; approvalStatus?: readonly (ApprovalStatus | null)[] };
      change: Change;
      event: { kind: OrderEventKind; payload: Record<string, unknown> };
      /** A paid order canceled: its confirmed payments are now owed back. */
      refundsPayments: boolean;
    }
  | { ok: false; code: DomainErrorCode; message?: string };

const APPROVAL_COMMANDS: readonly CommandType[] = ['start_review', 'approve', 'reject'];
const refuse = (code: DomainErrorCode, message?: string): Decision => ({
  ok: false,
  code,
  ...(message ? { message } : {}),
});
const DEADLINE_PASSED = 'The payment deadline of this order has passed';

/** Which refusal a command gets when the order is not in a state the table allows. */
function refusal(command: Command, order: OrderFacts): Decision {
  const s = order.paymentStatus;
  switch (command.type) {
    case 'start_card':
      return refuse(s === 'paid' || s === 'free' ? 'order_paid' : 'order_not_payable', `Order is ${s}`);
    case 'declare_transfer':
      return refuse(s === 'paid' || s === 'free' ? 'order_paid' : 'order_closed');
    case 'pay':
      return refuse(s === 'paid' ? 'order_paid' : 'order_not_payable', `Order is ${s}`);
    case 'decline':
    case 'expire':
      return refuse('order_state_changed');
    case 'start_review':
    case 'approve':
      return refuse(order.approvalStatus === 'approved' ? 'already_approved' : 'not_awaiting_approval');
    case 'reject':
      return refuse(
        TRANSITIONS.reject.approvalFrom!.includes(order.approvalStatus)
          ? 'order_not_rejectable'
          : 'not_awaiting_approval',
      );
    case 'cancel':
      return refuse('order_not_cancelable');
    case 'return_transfer':
      return refuse(s === 'paid' || s === 'free' ? 'order_paid' : s === 'pending' ? 'not_checking' : 'order_closed');
  }
}

/**
 * Decides a command for an order: the change and the domain event, or the refusal's code.
 * Checks, in order: the command's own input, the transition table (payment, then approval), then
 * the time rules (deadlines, the form-modify limit).
 */
export function decide(order: OrderFacts, ctx: DecisionContext, command: Command): Decision {
  const rule = TRANSITIONS[command.type];
  if (command.type === 'reject' && !command.reason.trim()) return refuse('reason_required');
  if (command.type === 'return_transfer' && !command.message.trim()) return refuse('reason_required');
  if (APPROVAL_COMMANDS.includes(command.type)) {
    // Approval commands: the approval status decides first.
    if (!rule.approvalFrom!.includes(order.approvalStatus)) return refusal(command, order);
    if (!rule.from.includes(order.paymentStatus)) return refusal(command, order);
  } else {
    // Payment commands: the payment status decides first, then approval.
    if (!rule.from.includes(order.paymentStatus)) return refusal(command, order);
    if (rule.approvalFrom && !rule.approvalFrom.includes(order.approvalStatus)) return refuse('not_approved');
  }
  const now = ctx.now.getTime();
  const lapsed = order.paymentExpiresAt !== null && order.paymentExpiresAt.getTime() < now;
  const change: Change = {};
  const payload: Record<string, unknown> = {};
  switch (command.type) {
    case 'start_card':
      if (lapsed) return refuse('order_closed', DEADLINE_PASSED);
      break;
    case 'declare_transfer':
      // An unpaid order past its deadline is overdue even before the expiry run marks it so: a
      // transfer declared now does not count (spec §4, transfer instruction).
      if (order.paymentStatus === 'pending' && lapsed) return refuse('order_closed', DEADLINE_PASSED);
      // After formModifyExpiresAt, declared details can no longer be corrected.
      if (
        order.paymentStatus === 'checking' &&
        ctx.formModifyExpiresAt !== null &&
        ctx.formModifyExpiresAt.getTime() < now
      )
        return refuse('form_modify_expired');
      break;
    case 'pay':
      change.paidAt = ctx.now;
      // An overdue order gave its seat back: paying late takes one again.
      if (order.paymentStatus === 'overdue' && ctx.kindHoldsSeat && !order.holdsSeat) change.seat = 'take';
      break;
    case 'expire':
      if (!lapsed) return refuse('order_state_changed');
      break;
    case 'approve':
      change.approvedAt = ctx.now;
      // Approval before payment: the time to pay starts now.
      if (order.charged && order.paymentStatus === 'pending')
        change.paymentExpiresAt = paymentDeadline(ctx.now, ctx.registerEndAt, ctx.paymentDays);
      break;
    case 'reject':
      change.rejectedReason = command.reason.trim();
      payload.reason = change.rejectedReason;
      break;
    case 'cancel':
      if (command.reason) payload.reason = command.reason;
      break;
    case 'return_transfer':
      payload.message = command.message.trim();
      // The time the transfer was being checked does not count against the registrant: at least
      // the full payment period from now, never shorter than the deadline they had (decision 025).
      change.paymentExpiresAt = returnedTransferDeadline(order.paymentExpiresAt, ctx.now, ctx.paymentDays);
      payload.paymentExpiresAt = change.paymentExpiresAt.toISOString();
      break;
    default:
      break;
  }
  if (rule.to && rule.to !== order.paymentStatus) change.paymentStatus = rule.to;
  if (rule.approvalTo) change.approvalStatus = rule.approvalTo;
  if (rule.releasesSeat && order.holdsSeat) change.seat = 'release';
  return {
    ok: true,
    command,
    guard: { paymentStatus: rule.from, ...(rule.approvalFrom ? { approvalStatus: rule.approvalFrom } : {}) },
    change,
    event: { kind: rule.event, payload },
    refundsPayments: command.type === 'cancel' && order.paymentStatus === 'paid',
  };
}

/**
 * Whether the payment choice, declared transfer and invoice of an order may still be edited
 * (spec §4 Form editing): not once paid or closed, not after formModifyExpiresAt while a transfer
 * is being checked, not after the payment deadline of an unpaid order.
 */
export function detailsEditRefusal(
  order: Pick<OrderFacts, 'paymentStatus' | 'paymentExpiresAt'>,
  ctx: { now: Date; formModifyExpiresAt: Date | null },
): { code: DomainErrorCode; message?: string } | null {
  const s = order.paymentStatus;
  if (isIssued(s)) return { code: 'order_paid' };
  if (isClosed(s)) return { code: 'order_closed' };
  const now = ctx.now.getTime();
  if (s === 'checking' && ctx.formModifyExpiresAt !== null && ctx.formModifyExpiresAt.getTime() < now)
    return { code: 'form_modify_expired' };
  if (s === 'pending' && order.paymentExpiresAt !== null && order.paymentExpiresAt.getTime() < now)
    return { code: 'order_closed', message: DEADLINE_PASSED };
  return null;
}
