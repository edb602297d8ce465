import { describe, expect, it } from 'vitest';
import { translator } from '@i18n/i18n';
import type { Event } from '@domain/events';
import {
  actionHref,
  eventAction,
  eventJsonLd,
  eventTexts,
  isoWithOffset,
  jsonForScript,
  needsBadgeFirst,
  offerAvailability,
  partitionEvents,
} from './event-info';

const base: Event = {
  id: '1',
  slug: 'opening-forum',
  type: 'event_general',
  name: 'Opening forum',
  nameEn: 'Opening forum',
  nameZh: '開幕論壇',
  description: 'Talks.',
  startTime: '2026-11-25T06:00:00.000Z',
  endAt: '2026-11-25T08:00:00.000Z',
  location: 'Hall 2',
  address: {
    streetAddress: 'No. 2, Jingmao 2nd Rd.',
    addressLocality: 'Nangang District',
    addressRegion: 'Taipei City',
    postalCode: '115',
    addressCountry: 'TW',
  },
  image: '/images/events/conference.jpg',
  registerStartAt: '2026-10-01T16:00:00.000Z',
  registerEndAt: '2026-11-24T15:59:00.000Z',
  formModifyExpiresAt: null,
  priceCentsTwd: 0,
  priceCentsUsd: 0,
  originalPriceCentsTwd: null,
  capacity: 200,
  seatsLeft: 12,
  requiresApproval: false,
  registrationState: 'open',
};

describe('event info helpers', () => {
  it('write ISO 8601 dates with the Taipei offset', () => {
    expect(isoWithOffset('2026-11-25T06:00:00.000Z')).toBe('2026-11-25T14:00:00+08:00');
    expect(isoWithOffset('2026-11-24T15:59:00.000Z')).toBe('2026-11-24T23:59:00+08:00');
    expect(isoWithOffset('2026-01-01T00:00:00.000Z', 'UTC')).toBe('2026-01-01T00:00:00+00:00');
  });

  it('choose the call to action by kind: Market and pitching register through their wizards (issue 19)', () => {
    expect(eventAction(base)).toEqual({ kind: 'register', path: '/events/opening-forum/registrations/new' });
    expect(eventAction({ ...base, type: 'badge_professional' })).toEqual({ kind: 'applyBadge', path: '/badges/new' });
    expect(eventAction({ ...base, type: 'badge_free' }).kind).toBe('invitation');
    for (const type of ['market_earlybird', 'market_online', 'pitching_project', 'pitching_story'] as const)
      expect(eventAction({ ...base, slug: 'x-y', type })).toEqual({
        kind: 'register',
        path: '/events/x-y/registrations/new',
      });
  });

  it('signed out, an action goes through sign-in and back to its page', () => {
    expect(actionHref('/events/x/registrations/new', 'zh-TW', true)).toBe('/zh-tw/events/x/registrations/new');
    expect(actionHref('/events/x/registrations/new', 'zh-TW', false)).toBe(
      `/api/v1/user/signin?locale=zh-TW&return_to=${encodeURIComponent('/zh-tw/events/x/registrations/new')}`,
    );
  });

  it('ask for an exhibit badge only where the kind needs one, and only of visitors without one', () => {
    expect(needsBadgeFirst(base, false)).toBe(true);
    expect(needsBadgeFirst(base, true)).toBe(false);
    expect(needsBadgeFirst({ type: 'event_audit' }, true)).toBe(false);
    expect(needsBadgeFirst({ type: 'market_earlybird' }, false)).toBe(false);
    expect(needsBadgeFirst({ type: 'pitching_project' }, false)).toBe(false);
  });

  it('group open and not-yet-open registrations, and keep closed ones apart', () => {
    const { upcoming, closed } = partitionEvents([
      base,
      { ...base, slug: 'b', type: 'badge_professional', registrationState: 'not_open' },
      { ...base, slug: 'm', type: 'market_earlybird' },
      { ...base, slug: 'c', registrationState: 'closed' },
    ]);
    expect(upcoming.events.map((e) => e.slug)).toEqual(['opening-forum']);
    expect(upcoming.badges.map((e) => e.slug)).toEqual(['b']);
    expect(upcoming.marketPitching.map((e) => e.slug)).toEqual(['m']);
    expect(closed.map((e) => e.slug)).toEqual(['c']);
  });

  it('describe price, window and seats in both languages', () => {
    const en = eventTexts({ ...base, priceCentsTwd: 100_000 }, translator('en'), 'en');
    expect(en.price).toBe('TWD 1,000');
    expect(eventTexts(base, translator('en'), 'en').price).toBe('Free');
    expect(en.state).toBe('Registration open until 2026/11/24 23:59 (GMT+8)');
    expect(en.seats).toBe('12 seats left');
    const zh = eventTexts(
      {
        ...base,
        priceCentsTwd: 600_000,
        originalPriceCentsTwd: 1_000_000,
        seatsLeft: 0,
        registrationState: 'not_open',
      },
      translator('zh-TW'),
      'zh-TW',
    );
    expect(zh.price).toBe('新臺幣 6,000 元');
    expect(zh.originalPrice).toBe('新臺幣 10,000 元');
    expect(zh.state).toBe('2026/10/2 00:00 (GMT+8) 開放報名');
    expect(zh.seats).toBe('名額已滿');
  });

  const urls = {
    pageUrl: 'https://x.test/en/events/opening-forum',
    actionUrl: 'https://x.test/en/events/opening-forum/registrations/new',
    virtualUrl: 'https://x.test/en/live/opening-forum',
    organizerName: 'Taiwan Creative Content Agency',
    organizerUrl: 'https://tccf.taicca.tw/',
  };

  it('build schema.org Event data: venue with its postal address, image, offer', () => {
    const ld = eventJsonLd({ ...base, priceCentsTwd: 100_000 }, urls);
    expect(ld).toMatchObject({
      '@type': 'Event',
      startDate: '2026-11-25T14:00:00+08:00',
      endDate: '2026-11-25T16:00:00+08:00',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: ['https://x.test/images/events/conference.jpg'],
      offers: {
        price: 1000,
        priceCurrency: 'TWD',
        availability: 'https://schema.org/InStock',
        validFrom: '2026-10-02T00:00:00+08:00',
        validThrough: '2026-11-24T23:59:00+08:00',
      },
    });
    expect(ld?.location).toEqual({
      '@type': 'Place',
      name: 'Hall 2',
      address: {
        '@type': 'PostalAddress',
        streetAddress: 'No. 2, Jingmao 2nd Rd.',
        addressLocality: 'Nangang District',
        addressRegion: 'Taipei City',
        postalCode: '115',
        addressCountry: 'TW',
      },
    });
    // An image given as an absolute URL stays as it is.
    expect(eventJsonLd({ ...base, image: 'https://cdn.test/a.jpg' }, urls)?.image).toEqual(['https://cdn.test/a.jpg']);
  });

  it('mark online events and the online Market as attended online, at their virtual location', () => {
    for (const type of ['event_online', 'market_online'] as const) {
      const online = eventJsonLd({ ...base, type, address: null }, urls);
      expect(online?.location, type).toEqual({ '@type': 'VirtualLocation', url: urls.virtualUrl });
      expect(online?.eventAttendanceMode, type).toBe('https://schema.org/OnlineEventAttendanceMode');
    }
    expect(eventJsonLd({ ...base, type: 'market_earlybird' }, urls)?.eventAttendanceMode).toBe(
      'https://schema.org/OfflineEventAttendanceMode',
    );
  });

  it('offer what the registration window allows: pre-order before it opens, sold out when closed or full', () => {
    const availability = (over: Partial<Event>) => eventJsonLd({ ...base, ...over }, urls)?.offers.availability;
    expect(availability({ registrationState: 'not_open' })).toBe('https://schema.org/PreOrder');
    expect(availability({ registrationState: 'open' })).toBe('https://schema.org/InStock');
    expect(availability({ registrationState: 'open', seatsLeft: 0 })).toBe('https://schema.org/SoldOut');
    expect(availability({ registrationState: 'closed', seatsLeft: 12 })).toBe('https://schema.org/SoldOut');
    expect(availability({ registrationState: 'open', capacity: null, seatsLeft: null })).toBe(
      'https://schema.org/InStock',
    );
    expect(offerAvailability({ registrationState: 'closed', seatsLeft: null })).toBe('https://schema.org/SoldOut');
  });

  it('give badges no Event markup: they are admissions to the conference', () => {
    expect(eventJsonLd({ ...base, type: 'badge_professional' }, urls)).toBeNull();
    expect(eventJsonLd({ ...base, type: 'badge_free' }, urls)).toBeNull();
    expect(eventJsonLd({ ...base, type: 'pitching_project' }, urls)).not.toBeNull();
  });

  it('escape JSON so it cannot close its script tag', () => {
    expect(jsonForScript({ a: '</script><b>' })).toBe('{"a":"\\u003c/script>\\u003cb>"}');
    expect(JSON.parse(jsonForScript({ a: '</script>' }))).toEqual({ a: '</script>' });
  });
});
