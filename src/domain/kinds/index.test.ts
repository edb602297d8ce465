import { describe, expect, it } from 'vitest';
import {
  BADGE_REGISTRATION_TYPES,
  kindOf,
  kindOfRegistrationType,
  MULTI_ENTRY_REGISTRATION_TYPES,
  needsApproval,
  registrationTypeFor,
  takesEventRegistration,
} from './index';
import { orderPages } from './pages';
import { EVENT_TYPES, REGISTRATION_TYPES } from './types';

describe('the registration-kind registry', () => {
  it('has one kind per event type, and every registration type belongs to exactly one kind', () => {
    for (const type of EVENT_TYPES) expect(kindOf(type).eventType).toBe(type);
    for (const rt of REGISTRATION_TYPES) {
      const owners = EVENT_TYPES.filter((t) => (kindOf(t).registrationTypes as readonly string[]).includes(rt));
      expect(owners, rt).toHaveLength(1);
      expect(kindOfRegistrationType(rt)?.eventType).toBe(owners[0]);
    }
    expect(kindOfRegistrationType('NOPE')).toBeUndefined();
  });

  it.each([
    ['badge_professional', false, false, true, 'badge'],
    ['badge_free', false, false, true, 'badge'],
    ['event_audit', true, true, false, 'event'],
    ['event_general', true, false, false, 'event'],
    ['event_online', true, false, false, 'event'],
    ['market_earlybird', true, false, false, 'event'],
    ['market_online', false, true, false, 'event'],
    ['pitching_project', false, false, false, 'event'],
    ['pitching_story', false, false, false, 'event'],
  ] as const)(
    '%s: holds a seat %s, always approved first %s, issues a badge %s, pages under %s',
    (type, seat, approval, badge, pages) => {
      const kind = kindOf(type);
      expect(kind.holdsSeat).toBe(seat);
      expect(kind.approval === 'always').toBe(approval);
      expect(kind.issuesBadge).toBe(badge);
      expect(kind.pages).toBe(pages);
    },
  );

  it('follows the wizard steps of spec §2', () => {
    expect(kindOf('event_audit').steps).toEqual(['confirm', 'wait_approval']);
    expect(kindOf('market_online').steps).toEqual([
      'upload_content',
      'pick_identity',
      'pick_works',
      'fill_form',
      'wait_approval',
      'pay',
    ]);
    expect(kindOf('pitching_story').quantity).toBe('per_work');
  });

  it('the event registration call takes the open, non-badge kinds only', () => {
    // Every type but the two badges'.
    expect(EVENT_TYPES.filter((t) => takesEventRegistration(kindOf(t)))).toEqual(
      EVENT_TYPES.filter((t) => t !== 'badge_professional' && t !== 'badge_free'),
    );
    expect(BADGE_REGISTRATION_TYPES).toEqual(['BADGE_PROFESSIONAL', 'BADGE_FREE']);
    expect(MULTI_ENTRY_REGISTRATION_TYPES).toEqual(['PITCHING_PROJECT', 'PITCHING_STORY']);
  });

  it('approval: always for audit and Market online, else as the event says', () => {
    expect(needsApproval(kindOf('event_audit'), { requiresApproval: false })).toBe(true);
    expect(needsApproval(kindOf('event_general'), { requiresApproval: false })).toBe(false);
    expect(needsApproval(kindOf('event_general'), { requiresApproval: true })).toBe(true);
  });

  it('a requested registration type must be one of the kind', () => {
    expect(registrationTypeFor(kindOf('market_earlybird'), undefined)).toEqual({ ok: true, type: 'MARKET_EARLYBIRD' });
    expect(registrationTypeFor(kindOf('market_earlybird'), 'MARKET_DOMESTIC')).toEqual({
      ok: true,
      type: 'MARKET_DOMESTIC',
    });
    expect(registrationTypeFor(kindOf('event_general'), 'EVENT_AUDIT')).toEqual({ ok: false });
  });

  it('places each order’s pages: badges under /badges, the rest under their event', () => {
    expect(
      orderPages({ orderId: 'o1', eventSlug: 'badge-professional', registrationType: 'BADGE_PROFESSIONAL' }),
    ).toEqual({
      summary: '/events/badge-professional/registrations/o1',
      pay: '/badges/o1/pay',
      processing: '/badges/o1/processing',
      pending: '/events/badge-professional/registrations/o1/pending',
      done: '/account/badge',
      register: '/badges/new',
    });
    expect(orderPages({ orderId: 'o 2', eventSlug: 'opening-forum', registrationType: 'EVENT_GENERAL' })).toMatchObject(
      {
        pay: '/events/opening-forum/registrations/o%202/pay',
        done: '/events/opening-forum/registrations/o%202',
        register: '/events/opening-forum/registrations/new',
      },
    );
  });
});
