/** Events on the wire (decision 043): `GET /events`, `GET /events/{slug}`, the pick-up schedule. */
import type { EventType } from '@domain/kinds/types';

export type RegistrationWindowState = 'not_open' | 'open' | 'closed';

/** Where an event held in person is, as schema.org PostalAddress fields (localised). */
export type PostalAddress = {
  streetAddress: string;
  addressLocality: string;
  addressRegion: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  addressCountry: string;
};

/** Which event: its id, slug and kind, its name in the reader's language and in both. */
export type EventNames = {
  id: string;
  slug: string;
  type: EventType;
  name: string;
  nameEn: string;
  nameZh: string;
};

/** The terms of its registration: the window, the form's deadline and the prices (cents). */
export type EventTerms = {
  registerStartAt: string;
  registerEndAt: string;
  formModifyExpiresAt: string | null;
  priceCentsTwd: number;
  priceCentsUsd: number;
  originalPriceCentsTwd: number | null;
};

export type Event = EventNames &
  EventTerms & {
    description: string;
    startTime: string;
    endAt: string;
    location: string;
    /** The venue's postal address; null for events attended online. */
    address: PostalAddress | null;
    /** The event's image: a path on the portal (`/images/…`) or an absolute URL. */
    image: string;
    capacity: number | null;
    seatsLeft: number | null;
    requiresApproval: boolean;
    registrationState: RegistrationWindowState;
    /** Online events: the live stream's address once the organiser sets it; null until then (and for others). */
    liveStreamUrl?: string | null;
  };

/**
 * One slot of the edition's badge pick-up schedule (spec §9), as the API answers it: Taipei
 * calendar days (`YYYY-MM-DD`, both inclusive), opening hours (`HH:MM`, Taipei time) and the
 * place, localised (`place`) and in both languages.
 */
export type PickupSlot = {
  firstDay: string;
  lastDay: string;
  opensAt: string;
  closesAt: string;
  place: string;
  placeEn: string;
  placeZh: string;
};
