import { describe, expect, it } from 'vitest';
import {
  cardDeclined,
  displayedPaymentStatus,
  headlineStatus,
  registrationFormClosedAt,
  registrationFormEditable,
  registrationStatus,
} from './orders';
import type { ApprovalStatus, PaymentStatus } from './order-lifecycle';
import { orderPages } from './kinds/pages';

describe('order status rules (spec §4)', () => {
  it.each([
    ['pending', 'unpaid', 'submitted'],
    ['checking', 'checking', 'completed'],
    ['paid', 'paid', 'completed'],
    ['free', 'free', 'completed'],
    ['overdue', 'overdue', 'cancelled'],
    ['canceled', 'canceled', 'cancelled'],
    ['something-new', 'canceled', 'cancelled'],
  ])('%s is shown as %s and gives registration status %s', (server, shown, registration) => {
    expect(displayedPaymentStatus(server)).toBe(shown);
    expect(registrationStatus(server)).toBe(registration);
  });

  it('links an order to its summary under its event', () => {
    expect(orderPages({ eventSlug: 'opening-forum', orderId: 'abc', registrationType: 'EVENT_GENERAL' }).summary).toBe(
      '/events/opening-forum/registrations/abc',
    );
  });
});

describe('headline status of an order (orders list, summary)', () => {
  it.each<[PaymentStatus, ApprovalStatus | null, string, string]>([
    // payment, approval, headline, spec registration status (still shown as the status field)
    ['paid', null, 'completed', 'completed'],
    ['free', null, 'completed', 'completed'],
    ['free', 'approved', 'completed', 'completed'],
    ['paid', 'approved', 'completed', 'completed'],
    ['checking', null, 'checking', 'completed'],
    ['checking', 'approved', 'checking', 'completed'],
    ['free', 'pending_approval', 'pending_approval', 'completed'],
    ['free', 'auditing', 'pending_approval', 'completed'],
    ['pending', 'pending_approval', 'pending_approval', 'submitted'],
    ['pending', 'approved', 'awaiting_payment', 'submitted'],
    ['pending', null, 'awaiting_payment', 'submitted'],
    ['free', 'rejected', 'rejected', 'completed'],
    ['canceled', 'rejected', 'rejected', 'cancelled'],
    ['overdue', null, 'cancelled', 'cancelled'],
    ['canceled', 'pending_approval', 'cancelled', 'cancelled'],
  ])('%s / %s reads %s (registration status %s)', (paymentStatus, approvalStatus, headline, registration) => {
    expect(headlineStatus({ paymentStatus, approvalStatus })).toBe(headline);
    expect(registrationStatus(paymentStatus)).toBe(registration);
  });

  it('never reads completed while a transfer is checked or the organiser has not approved', () => {
    for (const approvalStatus of [null, 'pending_approval', 'auditing', 'approved', 'rejected'] as const)
      expect(headlineStatus({ paymentStatus: 'checking', approvalStatus })).not.toBe('completed');
    for (const paymentStatus of ['free', 'pending', 'checking', 'paid'] as const)
      expect(headlineStatus({ paymentStatus, approvalStatus: 'pending_approval' })).not.toBe('completed');
  });
});

describe('a declined card attempt', () => {
  const card = {
    type: 'credit_card' as const,
    cardStartedAt: '2026-11-21T10:00:00.000Z',
    gatewayAt: '2026-11-21T10:01:00.000Z',
    gatewayStatus: 'DECLINED',
  };
  it('is a gateway answer other than success, after the attempt started', () => {
    expect(cardDeclined(card)).toBe(true);
    expect(cardDeclined({ ...card, gatewayStatus: 'SUCCESS' })).toBe(false);
    // An answer to an earlier attempt says nothing about the current one.
    expect(cardDeclined({ ...card, gatewayAt: '2026-11-21T09:59:00.000Z' })).toBe(false);
    expect(cardDeclined({ ...card, gatewayAt: null })).toBe(false);
    expect(cardDeclined({ ...card, type: 'atm' })).toBe(false);
    expect(cardDeclined(null)).toBe(false);
  });
});

describe('the registration form’s edit window (summary)', () => {
  const now = new Date('2026-11-01T00:00:00Z');
  const deadline = '2026-10-31T16:00:00.000Z';
  const order = { paymentStatus: 'paid' as PaymentStatus, approvalStatus: null, formModifyExpiresAt: deadline };

  it('says when editing closed once the deadline has passed, and only then', () => {
    expect(registrationFormEditable(order, now)).toBe(false);
    expect(registrationFormClosedAt(order, now)).toEqual(new Date(deadline));
    const before = new Date('2026-10-31T15:00:00Z');
    expect(registrationFormEditable(order, before)).toBe(true);
    expect(registrationFormClosedAt(order, before)).toBeNull();
  });
  it('says nothing for an order whose form could not be edited anyway, or without a deadline', () => {
    expect(registrationFormClosedAt({ ...order, paymentStatus: 'canceled' }, now)).toBeNull();
    expect(registrationFormClosedAt({ ...order, approvalStatus: 'rejected' as ApprovalStatus }, now)).toBeNull();
    expect(registrationFormClosedAt({ ...order, formModifyExpiresAt: null }, now)).toBeNull();
  });
});
