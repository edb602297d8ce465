/** Events as the API client sees them (camelCase), and the registration-window rule. */
import type { EventType } from './kinds/types';

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

export type Event = {
  id: string;
  slug: string;
  type: EventType;
  name: string;
  nameEn: string;
  nameZh: string;
  description: string;
  startTime: string;
  endAt: string;
  location: string;
  /** The venue's postal address; null for events attended online. */
  address: PostalAddress | null;
  /** The event's image: a path on the portal (`/images/…`) or an absolute URL. */
  image: string;
  registerStartAt: string;
  registerEndAt: string;
  formModifyExpiresAt: string | null;
  priceCentsTwd: number;
  priceCentsUsd: number;
  originalPriceCentsTwd: number | null;
  capacity: number | null;
  seatsLeft: number | null;
  requiresApproval: boolean;
  registrationState: RegistrationWindowState;
  /** Online events: the live stream's address once the organiser sets it; null until then (and for others). */
  liveStreamUrl?: string | null;
};

/** Whether registration is open at `now`: from registerStartAt (inclusive) to registerEndAt (inclusive). */
export function registrationWindowState(
  event: { registerStartAt: Date | string; registerEndAt: Date | string },
  now: Date,
): RegistrationWindowState {
  const t = now.getTime();
  if (t < new Date(event.registerStartAt).getTime()) return 'not_open';
  if (t > new Date(event.registerEndAt).getTime()) return 'closed';
  return 'open';
}
