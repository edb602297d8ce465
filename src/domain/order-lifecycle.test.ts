import { describe, expect, it } from 'vitest';
import {
  APPROVAL_STATUSES,
  commandsAllowed,
  decide,
  detailsEditRefusal,
  initialState,
  paymentDeadline,
  PAYMENT_STATUSES,
  TRANSITIONS,
  type ApprovalStatus,
  type Command,
  type CommandType,
  type DecisionContext,
  type OrderFacts,
  type PaymentStatus,
} from './order-lifecycle';

const NOW = new Date('2026-11-23T04:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ctx: DecisionContext = {
  now: NOW,
  paymentDays: 3,
  registerEndAt: new Date(NOW.getTime() + 30 * DAY),
  formModifyExpiresAt: new Date(NOW.getTime() + 10 * DAY),
  kindHoldsSeat: true,
};
const order = (over: Partial<OrderFacts> = {}): OrderFacts => ({
  paymentStatus: 'pending',
  approvalStatus: null,
  paymentExpiresAt: new Date(NOW.getTime() + DAY),
  holdsSeat: true,
  charged: true,
  ...over,
});
const COMMANDS: Record<CommandType, Command> = {
  start_card: { type: 'start_card' },
  decline: { type: 'decline' },
  declare_transfer: { type: 'declare_transfer' },
  pay: { type: 'pay' },
  expire: { type: 'expire' },
  start_review: { type: 'start_review' },
  approve: { type: 'approve' },
  reject: { type: 'reject', reason: 'Not an industry professional' },
  cancel: { type: 'cancel' },
  return_transfer: { type: 'return_transfer', message: 'No transfer with these last five digits has arrived' },
};
const APPROVALS: (ApprovalStatus | null)[] = [null, ...APPROVAL_STATUSES];

/** What a payment command does once the order can take it: `to` when no approval is needed or it was given. */
const approvedTo = (a: ApprovalStatus | null, to: string) =>
  a === null || a === 'approved' ? `✓ ${to}/${a}` : '✗ not_approved';

/**
 * The whole table, every payment status × approval status × command: what is allowed, to which
 * state, and the refusal code of everything else. Written out, not derived from TRANSITIONS, so
 * a change to the table shows up here as a diff a reviewer reads.
 */
const EXPECTED: Record<CommandType, (p: PaymentStatus, a: ApprovalStatus | null) => string> = {
  start_card: (p, a) =>
    p !== 'pending'
      ? p === 'paid' || p === 'free'
        ? '✗ order_paid'
        : '✗ order_not_payable'
      : approvedTo(a, 'pending'),
  decline: (p, a) => (p === 'pending' ? `✓ pending/${a}` : '✗ order_state_changed'),
  declare_transfer: (p, a) =>
    p === 'paid' || p === 'free'
      ? '✗ order_paid'
      : p === 'overdue' || p === 'canceled'
        ? '✗ order_closed'
        : approvedTo(a, 'checking'),
  pay: (p, a) =>
    p === 'paid' ? '✗ order_paid' : p === 'free' || p === 'canceled' ? '✗ order_not_payable' : approvedTo(a, 'paid'),
  // Not lapsed here (the deadline is tomorrow): see the time rules below.
  expire: () => '✗ order_state_changed',
  start_review: (p, a) =>
    a !== 'pending_approval'
      ? a === 'approved'
        ? '✗ already_approved'
        : '✗ not_awaiting_approval'
      : p === 'pending' || p === 'free'
        ? `✓ ${p}/auditing`
        : '✗ not_awaiting_approval',
  approve: (p, a) =>
    a === 'approved'
      ? '✗ already_approved'
      : a === 'pending_approval' || a === 'auditing'
        ? p === 'pending' || p === 'free'
          ? `✓ ${p}/approved`
          : '✗ not_awaiting_approval'
        : '✗ not_awaiting_approval',
  reject: (p, a) =>
    a === null || a === 'rejected'
      ? '✗ not_awaiting_approval'
      : p === 'pending' || p === 'free'
        ? '✓ canceled/rejected'
        : '✗ order_not_rejectable',
  cancel: (p, a) => (p === 'overdue' || p === 'canceled' ? '✗ order_not_cancelable' : `✓ canceled/${a}`),
  return_transfer: (p, a) =>
    p === 'paid' || p === 'free'
      ? '✗ order_paid'
      : p === 'pending'
        ? '✗ not_checking'
        : p === 'overdue' || p === 'canceled'
          ? '✗ order_closed'
          : a === null || a === 'approved'
            ? `✓ pending/${a}`
            : '✗ not_approved',
};

describe('the transition table', () => {
  const cases = (Object.keys(COMMANDS) as CommandType[]).flatMap((c) =>
    PAYMENT_STATUSES.flatMap((p) => APPROVALS.map((a) => [c, p, a] as const)),
  );
  it.each(cases)('%s from %s / %s', (command, paymentStatus, approvalStatus) => {
    const decision = decide(order({ paymentStatus, approvalStatus }), ctx, COMMANDS[command]);
    const shown = decision.ok
      ? `✓ ${decision.change.paymentStatus ?? paymentStatus}/${decision.change.approvalStatus ?? approvalStatus}`
      : `✗ ${decision.code}`;
    expect(shown).toBe(EXPECTED[command](paymentStatus, approvalStatus));
  });

  it('every allowed transition guards the UPDATE with the statuses the table allows', () => {
    for (const [type, rule] of Object.entries(TRANSITIONS)) {
      const from = rule.from[0]!;
      const approval = rule.approvalFrom?.[0] ?? null;
      const decision = decide(
        order({ paymentStatus: from, approvalStatus: approval, paymentExpiresAt: new Date(NOW.getTime() - 1) }),
        { ...ctx, formModifyExpiresAt: null },
        COMMANDS[type as CommandType],
      );
      if (!decision.ok) {
        // start_card and declare_transfer refuse a lapsed order: covered below.
        expect(['start_card', 'declare_transfer']).toContain(type);
        continue;
      }
      expect(decision.guard.paymentStatus).toEqual(rule.from);
      expect(decision.guard.approvalStatus).toEqual(rule.approvalFrom);
      expect(decision.event.kind).toBe(rule.event);
    }
  });
});

describe('time rules', () => {
  const lapsed = order({ paymentExpiresAt: new Date(NOW.getTime() - 1) });

  it('expire: only an unpaid order past its deadline; it gives its seat back', () => {
    const decision = decide(lapsed, ctx, { type: 'expire' });
    expect(decision).toMatchObject({ ok: true, change: { paymentStatus: 'overdue', seat: 'release' } });
    expect(decide(order(), ctx, { type: 'expire' })).toMatchObject({ ok: false, code: 'order_state_changed' });
    // An order with no deadline (waiting for approval) never lapses.
    expect(decide(order({ paymentExpiresAt: null }), ctx, { type: 'expire' })).toMatchObject({ ok: false });
  });

  it('a lapsed order starts no card payment and takes no transfer, even before the expiry run', () => {
    for (const type of ['start_card', 'declare_transfer'] as const) {
      expect(decide(lapsed, ctx, { type })).toMatchObject({
        ok: false,
        code: 'order_closed',
        message: 'The payment deadline of this order has passed',
      });
    }
  });

  it('a transfer being checked can be corrected until formModifyExpiresAt, not after', () => {
    const checking = order({ paymentStatus: 'checking' });
    expect(decide(checking, ctx, { type: 'declare_transfer' }).ok).toBe(true);
    const late = { ...ctx, formModifyExpiresAt: new Date(NOW.getTime() - 1) };
    expect(decide(checking, late, { type: 'declare_transfer' })).toMatchObject({ code: 'form_modify_expired' });
    // …while an unpaid order can still declare its first transfer.
    expect(decide(order(), late, { type: 'declare_transfer' }).ok).toBe(true);
  });

  it('a gateway charge of a lapsed order still pays it (the money moved), and takes a seat again', () => {
    const overdue = order({ paymentStatus: 'overdue', holdsSeat: false });
    expect(decide(overdue, ctx, { type: 'pay' })).toMatchObject({
      ok: true,
      change: { paymentStatus: 'paid', paidAt: NOW, seat: 'take' },
    });
    const noSeat = decide(overdue, { ...ctx, kindHoldsSeat: false }, { type: 'pay' });
    expect(noSeat.ok && noSeat.change.seat).toBeUndefined();
  });
});

describe('approval before payment', () => {
  const waiting = order({ approvalStatus: 'pending_approval', paymentExpiresAt: null });

  it('refuses card and transfer until approved (not_approved)', () => {
    for (const type of ['start_card', 'declare_transfer', 'pay'] as const) {
      expect(decide(waiting, ctx, { type })).toMatchObject({ ok: false, code: 'not_approved' });
    }
  });

  it('approval starts the payment deadline: days from now, never after the registration end', () => {
    expect(decide(waiting, ctx, { type: 'approve' })).toMatchObject({
      ok: true,
      change: { approvalStatus: 'approved', approvedAt: NOW, paymentExpiresAt: new Date(NOW.getTime() + 3 * DAY) },
    });
    const soon = { ...ctx, registerEndAt: new Date(NOW.getTime() + HOUR) };
    expect(decide(waiting, soon, { type: 'approve' })).toMatchObject({
      change: { paymentExpiresAt: soon.registerEndAt },
    });
    // A free order gets no deadline.
    const free = order({ paymentStatus: 'free', approvalStatus: 'auditing', paymentExpiresAt: null, charged: false });
    const approved = decide(free, ctx, { type: 'approve' });
    expect(approved.ok && approved.change.paymentExpiresAt).toBeUndefined();
  });

  it('reject needs a reason, frees the seat and closes the order', () => {
    expect(decide(waiting, ctx, { type: 'reject', reason: '  ' })).toMatchObject({ code: 'reason_required' });
    expect(decide(waiting, ctx, { type: 'reject', reason: ' Incomplete profile ' })).toMatchObject({
      ok: true,
      change: {
        paymentStatus: 'canceled',
        approvalStatus: 'rejected',
        rejectedReason: 'Incomplete profile',
        seat: 'release',
      },
      event: { kind: 'rejected', payload: { reason: 'Incomplete profile' } },
    });
  });

  it('cancel of a paid order owes its payments back', () => {
    const paid = decide(order({ paymentStatus: 'paid' }), ctx, { type: 'cancel' });
    expect(paid).toMatchObject({ ok: true, refundsPayments: true, change: { seat: 'release' } });
    expect(decide(order(), ctx, { type: 'cancel' })).toMatchObject({ ok: true, refundsPayments: false });
    // An order that holds no seat gives none back.
    const seatless = decide(order({ holdsSeat: false }), ctx, { type: 'cancel' });
    expect(seatless.ok && seatless.change.seat).toBeUndefined();
  });
});

describe('placement', () => {
  const base = { now: NOW, registerEndAt: ctx.registerEndAt, paymentDays: 3 };
  it.each([
    [true, false, 'pending', null, true],
    [true, true, 'pending', 'pending_approval', false],
    [false, false, 'free', null, false],
    [false, true, 'free', 'pending_approval', false],
  ] as const)('charged %s, needs approval %s → %s / %s, deadline %s', (charged, needsApproval, p, a, hasDeadline) => {
    const state = initialState({ ...base, charged, needsApproval });
    expect(state).toMatchObject({ paymentStatus: p, approvalStatus: a });
    expect(state.paymentExpiresAt !== null).toBe(hasDeadline);
  });

  it('the deadline is capped at the registration end', () => {
    expect(paymentDeadline(NOW, new Date(NOW.getTime() + HOUR), 3)).toEqual(new Date(NOW.getTime() + HOUR));
    expect(paymentDeadline(NOW, ctx.registerEndAt, 3)).toEqual(new Date(NOW.getTime() + 3 * DAY));
  });
});

describe('editing the payment details', () => {
  const at = { now: NOW, formModifyExpiresAt: null };
  it.each([
    ['paid', 'order_paid'],
    ['free', 'order_paid'],
    ['overdue', 'order_closed'],
    ['canceled', 'order_closed'],
    ['pending', null],
    ['checking', null],
  ] as const)('%s → %s', (paymentStatus, code) => {
    expect(detailsEditRefusal({ paymentStatus, paymentExpiresAt: null }, at)?.code ?? null).toBe(code);
  });
  it('not after the deadline (unpaid) or the form-modify limit (checking)', () => {
    const past = new Date(NOW.getTime() - 1);
    expect(detailsEditRefusal({ paymentStatus: 'pending', paymentExpiresAt: past }, at)?.code).toBe('order_closed');
    expect(
      detailsEditRefusal({ paymentStatus: 'checking', paymentExpiresAt: null }, { now: NOW, formModifyExpiresAt: past })
        ?.code,
    ).toBe('form_modify_expired');
  });
});

describe('a transfer sent back (return_transfer, decision 025)', () => {
  const checking = (over: Partial<OrderFacts> = {}) => order({ paymentStatus: 'checking', ...over });
  const back = (message = 'The amount received was TWD 900, not TWD 1,000') =>
    ({ type: 'return_transfer', message }) as const;

  it('goes back to unpaid with the message on the event; the seat stays taken', () => {
    const decision = decide(checking(), ctx, back('  Please check the last five digits  '));
    expect(decision).toMatchObject({
      ok: true,
      change: { paymentStatus: 'pending' },
      event: { kind: 'transfer_returned', payload: { message: 'Please check the last five digits' } },
      guard: { paymentStatus: ['checking'] },
      refundsPayments: false,
    });
    if (!decision.ok) return;
    expect(decision.change.seat).toBeUndefined();
    expect(decision.change.approvalStatus).toBeUndefined();
  });

  it('needs a message', () => {
    expect(decide(checking(), ctx, back('   '))).toEqual({ ok: false, code: 'reason_required' });
  });

  it('a deadline already passed: the full payment period from now, even past the registration end', () => {
    const lapsed = checking({ paymentExpiresAt: new Date(NOW.getTime() - 5 * DAY) });
    const closing = { ...ctx, registerEndAt: new Date(NOW.getTime() - DAY) };
    const decision = decide(lapsed, closing, back());
    expect(decision.ok && decision.change.paymentExpiresAt).toEqual(new Date(NOW.getTime() + 3 * DAY));
    expect(decision.ok && decision.event.payload.paymentExpiresAt).toBe(
      new Date(NOW.getTime() + 3 * DAY).toISOString(),
    );
  });

  it('a deadline about to pass is pushed out; a later one is kept', () => {
    const soon = decide(checking({ paymentExpiresAt: new Date(NOW.getTime() + HOUR) }), ctx, back());
    expect(soon.ok && soon.change.paymentExpiresAt).toEqual(new Date(NOW.getTime() + 3 * DAY));
    const later = new Date(NOW.getTime() + 7 * DAY);
    const kept = decide(checking({ paymentExpiresAt: later }), ctx, back());
    expect(kept.ok && kept.change.paymentExpiresAt).toEqual(later);
  });

  it('after the form-modify limit too (the registrant must be able to correct the transfer)', () => {
    const decision = decide(checking(), { ...ctx, formModifyExpiresAt: new Date(NOW.getTime() - DAY) }, back());
    expect(decision.ok).toBe(true);
    // …and the order, pending again, takes a corrected transfer within its new deadline.
    const again = decide(
      order({ paymentExpiresAt: new Date(NOW.getTime() + 3 * DAY) }),
      { ...ctx, formModifyExpiresAt: new Date(NOW.getTime() - DAY) },
      { type: 'declare_transfer' },
    );
    expect(again).toMatchObject({ ok: true, change: { paymentStatus: 'checking' } });
  });
});

describe("commandsAllowed (the back office's actions)", () => {
  it('offers approval commands while waiting, payment commands once payable', () => {
    expect(commandsAllowed({ paymentStatus: 'pending', approvalStatus: 'pending_approval' }).sort()).toEqual(
      ['approve', 'cancel', 'decline', 'expire', 'reject', 'start_review'].sort(),
    );
    expect(commandsAllowed({ paymentStatus: 'checking', approvalStatus: null }).sort()).toEqual(
      ['cancel', 'declare_transfer', 'pay', 'return_transfer'].sort(),
    );
    expect(commandsAllowed({ paymentStatus: 'canceled', approvalStatus: 'rejected' })).toEqual([]);
  });
});
