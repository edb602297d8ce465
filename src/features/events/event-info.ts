/**
 * The public side of events (home cards, event info pages): grouping, calls to action, and the
 * schema.org Event data. Pure: no I/O.
 */
import { plainText } from '@domain/rich-text';
import type { Translate } from '@i18n/i18n';
import type { Locale } from '@i18n/locales';
import { signInHref } from '@lib/auth';
import { localized } from '@lib/routes';
import { DEFAULT_TIMEZONE, formatDateRange, formatDateTime, formatMoney, zonedParts } from '@domain/format';
import type { Event } from '@domain/events';
import { kindOf, type RegistrationKind } from '@domain/kinds';
import type { PublicAction } from '@domain/kinds/kind';
import { registerPath } from '@domain/kinds/pages';
import type { EventType } from '@domain/kinds/types';

export type EventGroup = RegistrationKind['group'];

/** Which home section an event type belongs to (its kind's). */
export const eventGroup = (type: EventType): EventGroup => kindOf(type).group;

/**
 * What a visitor can do about an event, as its kind says (its public page and home card):
 * - `register`: the registration wizard (`/events/{slug}/registrations/new`);
 * - `applyBadge`: the Professional badge application (`/badges/new`);
 * - `invitation`: free badges come only through a one-time link, so no button.
 */
export type EventAction = { kind: Exclude<PublicAction, 'invitation'>; path: string } | { kind: 'invitation' };

export function eventAction(event: Pick<Event, 'type' | 'slug'>): EventAction {
  const action = kindOf(event.type).publicAction;
  return action === 'invitation' ? { kind: action } : { kind: action, path: registerPath(event) };
}

/**
 * Where an action's button leads: its page, or signed out, the sign-in that comes back to it (the
 * wizards need a signed-in user; the page stays the same for every visitor signed out).
 */
export const actionHref = (path: string, locale: Locale, signedIn: boolean) =>
  signedIn ? localized(locale, path) : signInHref(locale, localized(locale, path));

/** Whether the event's kind asks for an exhibit badge, and the visitor has none (or is signed out). */
export const needsBadgeFirst = (event: Pick<Event, 'type'>, holdsBadge: boolean) =>
  kindOf(event.type).requiresBadge && !holdsBadge;

/** The event info page (without locale). */
export const eventInfoPath = (slug: string) => `/events/${encodeURIComponent(slug)}`;

export const isSoldOut = (event: Pick<Event, 'seatsLeft'>) => event.seatsLeft === 0;

/** Whether the visitor can act now: window open, seats left, and a flow that takes them. */
export const canActNow = (event: Event) =>
  event.registrationState === 'open' && !isSoldOut(event) && 'path' in eventAction(event);

/** Splits events for the home page: open or not yet open by group (API order: by start), closed apart. */
export function partitionEvents(events: Event[]): { upcoming: Record<EventGroup, Event[]>; closed: Event[] } {
  const upcoming: Record<EventGroup, Event[]> = { badges: [], events: [], marketPitching: [] };
  const closed: Event[] = [];
  for (const event of events) {
    if (event.registrationState === 'closed') closed.push(event);
    else upcoming[eventGroup(event.type)].push(event);
  }
  // Badges: the one to apply for before the one that comes by invitation.
  const byInvitation = (e: Event) => Number(kindOf(e.type).publicAction === 'invitation');
  upcoming.badges.sort((a, b) => byInvitation(a) - byInvitation(b));
  return { upcoming, closed };
}

/** The texts an event card and the info page show, in the reader's language. */
export function eventTexts(event: Event, t: Translate, locale: Locale) {
  const state = event.registrationState;
  return {
    type: t(`eventInfo.types.${event.type}` as 'eventInfo.types.event_general'),
    dates: formatDateRange(event.startTime, event.endAt),
    window: formatDateRange(event.registerStartAt, event.registerEndAt),
    price: event.priceCentsTwd > 0 ? formatMoney(event.priceCentsTwd, 'TWD', locale) : t('eventInfo.free'),
    originalPrice:
      event.originalPriceCentsTwd && event.originalPriceCentsTwd > event.priceCentsTwd
        ? formatMoney(event.originalPriceCentsTwd, 'TWD', locale)
        : null,
    state:
      state === 'open'
        ? t('eventInfo.state.open', { date: formatDateTime(event.registerEndAt) })
        : state === 'not_open'
          ? t('eventInfo.state.not_open', { date: formatDateTime(event.registerStartAt) })
          : t('eventInfo.state.closed'),
    seats:
      event.seatsLeft === null
        ? null
        : event.seatsLeft === 0
          ? t('eventInfo.soldOut')
          : event.seatsLeft === 1
            ? t('eventInfo.seatsLeftOne')
            : t('eventInfo.seatsLeft', { seats: event.seatsLeft.toLocaleString('en-US') }),
  };
}

const isoParts = zonedParts({
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'longOffset',
});
/** ISO 8601 with the zone's offset, to the second: `2026-11-25T09:30:00+08:00`. */
export function isoWithOffset(value: Date | string, timeZone = DEFAULT_TIMEZONE): string {
  const p = isoParts(new Date(value), timeZone);
  const offset = (p.timeZoneName ?? 'GMT').replace(/^GMT/, '') || '+00:00';
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
}

/** Open Graph locale of a portal locale. */
export const ogLocale = (locale: Locale) => (locale === 'zh-TW' ? 'zh_TW' : 'en_US');

const SCHEMA = 'https://schema.org/';

/**
 * The schema.org availability of an event's offer: what registration allows now. Before the
 * window opens it can only be pre-ordered; after it closes, or with no seat left, it is sold out.
 */
export function offerAvailability(event: Pick<Event, 'registrationState' | 'seatsLeft'>): string {
  if (event.registrationState === 'not_open') return `${SCHEMA}PreOrder`;
  if (event.registrationState === 'closed' || isSoldOut(event)) return `${SCHEMA}SoldOut`;
  return `${SCHEMA}InStock`;
}

/** Whether an event has schema.org Event data: badges are admissions to the conference, not events. */
export const hasEventMarkup = (event: Pick<Event, 'type'>) => eventGroup(event.type) !== 'badges';

/**
 * schema.org `Event` (https://schema.org/Event, Google's Event rich result): dates with offset,
 * attendance mode, the venue with its postal address or the virtual location, an image,
 * organiser, and one offer whose validity is the registration window and whose availability
 * follows it. Null for badges (no Event markup).
 */
export function eventJsonLd(
  event: Event,
  o: {
    /** Absolute URL of the event's page; the event's image path is resolved against it. */
    pageUrl: string;
    actionUrl: string;
    /** Where an online event is watched. */ virtualUrl: string;
    organizerName: string;
    organizerUrl: string;
    timeZone?: string;
  },
) {
  if (!hasEventMarkup(event)) return null;
  const online = kindOf(event.type).attendance === 'online';
  const tz = o.timeZone ?? DEFAULT_TIMEZONE;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.name,
    description: plainText(event.description),
    url: o.pageUrl,
    image: [new URL(event.image, o.pageUrl).href],
    startDate: isoWithOffset(event.startTime, tz),
    endDate: isoWithOffset(event.endAt, tz),
    eventAttendanceMode: `${SCHEMA}${online ? 'Online' : 'Offline'}EventAttendanceMode`,
    eventStatus: `${SCHEMA}EventScheduled`,
    location: online
      ? { '@type': 'VirtualLocation', url: o.virtualUrl }
      : {
          '@type': 'Place',
          name: event.location,
          address: event.address ? { '@type': 'PostalAddress', ...event.address } : event.location,
        },
    organizer: { '@type': 'Organization', name: o.organizerName, url: o.organizerUrl },
    offers: {
      '@type': 'Offer',
      price: event.priceCentsTwd / 100,
      priceCurrency: 'TWD',
      availability: offerAvailability(event),
      validFrom: isoWithOffset(event.registerStartAt, tz),
      validThrough: isoWithOffset(event.registerEndAt, tz),
      url: o.actionUrl,
    },
  };
}

/** JSON for an inline `<script type="application/ld+json">`: `<` escaped so no text can close the tag. */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Cache-Control of public pages seen signed out (home, event info); signed-in pages are private. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

/**
 * Marks a signed-out response as publicly cacheable. `Vary: Cookie`: the same URL renders the
 * signed-in header for a visitor with the identity cookie, so caches (the browser's included)
 * must not hand the public copy to them.
 */
export function markPublic(headers: Headers): void {
  headers.set('cache-control', PUBLIC_CACHE_CONTROL);
  headers.append('vary', 'Cookie');
}
