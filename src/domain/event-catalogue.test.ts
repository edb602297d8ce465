import { describe, expect, it } from 'vitest';
import {
  applyEventPatch,
  blankCatalogueForm,
  catalogueChanges,
  catalogueIssues,
  createFromForm,
  emptyAddress,
  EventCreate,
  EventPatch,
  kindFacts,
  newCatalogueEvent,
  slugIssue,
  statusChangeRefusal,
  type CatalogueForm,
} from './event-catalogue';
import type { EventSettingsForm } from './event-settings';
import { REGISTRATION_KINDS } from './kinds';

const general = kindFacts(REGISTRATION_KINDS.event_general);
const audit = kindFacts(REGISTRATION_KINDS.event_audit);
const online = kindFacts(REGISTRATION_KINDS.event_online);
const market = kindFacts(REGISTRATION_KINDS.market_earlybird);
const marketOnline = kindFacts(REGISTRATION_KINDS.market_online);
const pitching = kindFacts(REGISTRATION_KINDS.pitching_project);
const free = kindFacts(REGISTRATION_KINDS.badge_free);

const base = newCatalogueEvent({
  slug: 'film-forum',
  type: 'event_general',
  nameEn: 'Film forum',
  nameZh: '影視論壇',
  startTime: '2027-11-04T01:00:00.000Z',
  endAt: '2027-11-04T03:00:00.000Z',
  registerStartAt: '2027-10-01T00:00:00.000Z',
  registerEndAt: '2027-11-03T15:59:00.000Z',
});
const codes = (issues: { path: string; code: string }[]) => issues.map((i) => `${i.path}:${i.code}`);

describe('slugs', () => {
  it('are lower-case words joined by single hyphens, 3 to 60 characters', () => {
    for (const ok of ['abc', 'opening-forum-2027', 'a1-b2']) expect(slugIssue(ok), ok).toBeNull();
    for (const bad of ['ab', 'Opening', 'two  words', '-lead', 'trail-', 'double--hyphen', 'x'.repeat(61), 'café'])
      expect(slugIssue(bad)?.code, bad).toBe('slug_format');
  });
});

describe('the rules of an event against its kind', () => {
  it('a plain event passes', () => {
    expect(catalogueIssues(base, general, { seatsTaken: 0 })).toEqual([]);
  });

  it('names in both languages, the end not before the start', () => {
    const e = applyEventPatch(base, { nameZh: '  ', endAt: '2027-11-04T00:00:00.000Z' });
    expect(codes(catalogueIssues(e, general, { seatsTaken: 0 }))).toEqual([
      'nameZh:required',
      'endAt:end_before_start',
    ]);
  });

  it('approval only where the event decides it (not audit or Market online, which always ask; not badges)', () => {
    const asks = { ...base, requiresApproval: true };
    expect(catalogueIssues(asks, general, { seatsTaken: 0 })).toEqual([]);
    expect(catalogueIssues(asks, market, { seatsTaken: 0 })).toEqual([]);
    expect(codes(catalogueIssues(asks, audit, { seatsTaken: 0 }))).toEqual(['requiresApproval:approval_not_offered']);
    expect(codes(catalogueIssues({ ...asks, capacity: null }, marketOnline, { seatsTaken: 0 }))).toEqual([
      'requiresApproval:approval_not_offered',
    ]);
    expect(codes(catalogueIssues({ ...asks, capacity: null }, free, { seatsTaken: 0 }))).toContain(
      'requiresApproval:approval_not_offered',
    );
  });

  it('included badges for Market and pitching only', () => {
    const six = { ...base, includedBadges: 6 };
    expect(catalogueIssues(six, market, { seatsTaken: 0 })).toEqual([]);
    expect(catalogueIssues({ ...six, capacity: null }, pitching, { seatsTaken: 0 })).toEqual([]);
    expect(codes(catalogueIssues(six, general, { seatsTaken: 0 }))).toEqual([
      'includedBadges:included_badges_not_offered',
    ]);
  });

  it('an address at the venue, a live-stream link online', () => {
    const address = { ...emptyAddress(), streetAddress: '1 Main St.', addressCountry: 'TW' };
    expect(catalogueIssues({ ...base, addressEn: address }, general, { seatsTaken: 0 })).toEqual([]);
    expect(codes(catalogueIssues({ ...base, addressEn: address }, online, { seatsTaken: 0 }))).toEqual([
      'addressEn:address_not_venue',
    ]);
    expect(
      codes(catalogueIssues({ ...base, addressZh: { ...address, streetAddress: ' ' } }, general, { seatsTaken: 0 })),
    ).toEqual(['addressZh:required']);
    const live = { ...base, liveStreamUrl: 'https://live.example/x' };
    expect(catalogueIssues(live, online, { seatsTaken: 0 })).toEqual([]);
    expect(codes(catalogueIssues(live, general, { seatsTaken: 0 }))).toEqual(['liveStreamUrl:live_link_not_online']);
  });

  it('the type changes on a draft without orders only', () => {
    const changed = { ...base, type: 'event_audit' as const };
    const rule = (status: 'draft' | 'published' | 'archived', orders: number) =>
      codes(catalogueIssues(changed, audit, { seatsTaken: 0, typeChanged: true, status, orders }));
    expect(rule('draft', 0)).toEqual([]);
    expect(rule('draft', 1)).toEqual(['type:type_fixed']);
    expect(rule('published', 0)).toEqual(['type:type_fixed']);
    expect(rule('archived', 0)).toEqual(['type:type_fixed']);
  });

  it('the settings rules still hold (seats, window, whole TWD, free badges)', () => {
    const e = applyEventPatch(base, { capacity: 2, priceCentsTwd: 150 });
    expect(codes(catalogueIssues(e, general, { seatsTaken: 3 }))).toEqual([
      'capacity:capacity_below_taken',
      'priceCentsTwd:twd_whole_dollars',
    ]);
    expect(codes(catalogueIssues({ ...base, priceCentsTwd: 100 }, free, { seatsTaken: 0 }))).toContain(
      'priceCentsTwd:free_event',
    );
  });
});

describe('structs', () => {
  it('a create needs the public fields; unknown fields and a slug change are refused', () => {
    expect(EventCreate.is({ slug: 'x', type: 'event_general' })).toBe(false);
    expect(EventPatch.is({ slug: 'other' })).toBe(false);
    expect(EventPatch.is({ seatsTaken: 1 })).toBe(false);
    expect(EventPatch.is({ liveStreamUrl: 'javascript:alert(1)' })).toBe(false);
    expect(EventPatch.is({ liveStreamUrl: 'https://user:pw@live.example' })).toBe(false);
    expect(EventPatch.is({ liveStreamUrl: 'https://live.example/x' })).toBe(true);
    expect(EventPatch.is({ type: 'party' })).toBe(false);
  });
});

describe('history', () => {
  it('records the fields that changed, addresses by value', () => {
    const address = { ...emptyAddress(), streetAddress: '1 Main St.', addressCountry: 'TW' };
    const a = { ...base, addressEn: address };
    expect(catalogueChanges(a, { ...a, addressEn: { ...address } })).toEqual({});
    expect(catalogueChanges(a, applyEventPatch(a, { nameEn: 'Forum', capacity: 5 }))).toEqual({
      nameEn: { before: 'Film forum', after: 'Forum' },
      capacity: { before: null, after: 5 },
    });
  });
});

describe('status changes', () => {
  it('publish drafts, unpublish without live orders, archive for good', () => {
    expect(statusChangeRefusal('publish', { status: 'draft', liveOrders: 0 })).toBeNull();
    expect(statusChangeRefusal('publish', { status: 'published', liveOrders: 0 })).toBe('event_status_conflict');
    expect(statusChangeRefusal('unpublish', { status: 'published', liveOrders: 0 })).toBeNull();
    expect(statusChangeRefusal('unpublish', { status: 'published', liveOrders: 1 })).toBe('event_has_orders');
    expect(statusChangeRefusal('archive', { status: 'published', liveOrders: 4 })).toBeNull();
    expect(statusChangeRefusal('archive', { status: 'draft', liveOrders: 0 })).toBeNull();
    for (const change of ['publish', 'unpublish', 'archive'] as const)
      expect(statusChangeRefusal(change, { status: 'archived', liveOrders: 0 })).toBe('event_status_conflict');
  });
});

describe('the form', () => {
  const form = (extra: Partial<CatalogueForm> = {}): CatalogueForm => ({
    ...blankCatalogueForm(),
    type: 'event_online',
    slug: 'online-talk',
    nameEn: 'Online talk',
    nameZh: '線上講座',
    locationEn: 'Online',
    locationZh: '線上',
    startTime: '2027-11-04T09:00',
    endAt: '2027-11-04T11:00',
    ...extra,
  });
  const settings: EventSettingsForm = {
    capacity: '',
    registerStartAt: '2027-10-01T09:00',
    registerEndAt: '2027-11-03T23:59',
    formModifyExpiresAt: '',
    priceCentsTwd: '0',
    priceCentsUsd: '0',
    originalPriceCentsTwd: '',
  };

  it('reads Taipei times and sends only what the kind has', () => {
    const read = createFromForm(
      form({ liveStreamUrl: 'https://live.example/t', includedBadges: '3' }),
      settings,
      online,
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.body).toMatchObject({
      slug: 'online-talk',
      type: 'event_online',
      startTime: '2027-11-04T01:00:00.000Z',
      liveStreamUrl: 'https://live.example/t',
      includedBadges: null,
      addressEn: null,
      capacity: null,
    });
    expect(EventCreate.is(read.body)).toBe(true);
  });

  it('names every field that is wrong at once', () => {
    const read = createFromForm(
      form({ slug: 'X', nameEn: '', endAt: '2027-11-04T08:00', liveStreamUrl: 'ftp://x', startTime: '' }),
      { ...settings, registerStartAt: 'soon', priceCentsTwd: '12.5' },
      online,
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(codes(read.issues)).toEqual([
      'slug:slug_format',
      'nameEn:required',
      'startTime:required',
      'liveStreamUrl:invalid_url',
      'registerStartAt:invalid_date',
    ]);
  });

  it('an own address needs a street in both languages and a country', () => {
    const read = createFromForm(
      form({
        type: 'event_general',
        ownAddress: true,
        addressCountry: '',
        addressZh: { ...emptyAddress(), streetAddress: '經貿二路 2 號' },
      }),
      settings,
      general,
    );
    expect(read.ok).toBe(false);
    if (!read.ok) expect(codes(read.issues)).toEqual(['addressCountry:required', 'addressEn:required']);
  });
});
