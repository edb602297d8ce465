import { describe, expect, it } from 'vitest';
import type { Order } from '@domain/orders';
import { holdsIssuedBadge, standingOrderFor } from './orders';

describe('the standing order for an event ("You are registered")', () => {
  const order = (over: Partial<Order>) =>
    ({
      eventSlug: 'opening-forum',
      registrationType: 'EVENT_GENERAL',
      paymentStatus: 'free',
      approvalStatus: null,
      createdAt: '2026-10-01T00:00:00.000Z',
      ...over,
    }) as Order;
  const forum = { slug: 'opening-forum', type: 'event_general' } as const;

  it('finds a live order of the event, the newest first', () => {
    const old = order({ paymentStatus: 'canceled', createdAt: '2026-10-01T00:00:00.000Z' });
    const current = order({ orderId: 'b', createdAt: '2026-10-02T00:00:00.000Z' });
    const newer = order({ orderId: 'c', paymentStatus: 'pending', createdAt: '2026-10-03T00:00:00.000Z' });
    expect(standingOrderFor([old, current, newer], forum)).toBe(newer);
    expect(standingOrderFor([old, current], forum)).toBe(current);
  });

  it('ignores other events, closed and rejected orders', () => {
    expect(standingOrderFor([order({ eventSlug: 'other' })], forum)).toBeUndefined();
    expect(standingOrderFor([order({ paymentStatus: 'overdue' })], forum)).toBeUndefined();
    expect(standingOrderFor([order({ approvalStatus: 'rejected' })], forum)).toBeUndefined();
  });

  it('for a badge event, any live badge order counts (one e-mail, one badge)', () => {
    const free = order({ eventSlug: 'badge-free', registrationType: 'BADGE_FREE' });
    expect(standingOrderFor([free], { slug: 'badge-professional', type: 'badge_professional' })).toBe(free);
    expect(standingOrderFor([order({})], { slug: 'badge-professional', type: 'badge_professional' })).toBeUndefined();
  });
});

describe('an issued badge (what event registration needs)', () => {
  const order = (over: Partial<Order>) =>
    ({ registrationType: 'BADGE_PROFESSIONAL', paymentStatus: 'paid', ...over }) as Order;

  it('counts a paid or free badge order, not one waiting for payment or checking, nor other orders', () => {
    expect(holdsIssuedBadge([order({})])).toBe(true);
    expect(holdsIssuedBadge([order({ registrationType: 'BADGE_FREE', paymentStatus: 'free' })])).toBe(true);
    expect(holdsIssuedBadge([order({ paymentStatus: 'pending' }), order({ paymentStatus: 'checking' })])).toBe(false);
    expect(holdsIssuedBadge([order({ paymentStatus: 'canceled' })])).toBe(false);
    expect(holdsIssuedBadge([order({ registrationType: 'EVENT_GENERAL', paymentStatus: 'free' })])).toBe(false);
    expect(holdsIssuedBadge([])).toBe(false);
  });
});
