/*
 * The back office's badge links, events and exports screens (issue 11): what their pages and
 * islands show, as the API answers it (camelCase), and their paths.
 */
import type { BadgeLinkStatus } from '@domain/badge-links';
import type { BadgeIdentity } from '@domain/badges';
import {
  EVENT_SETTING_FIELDS,
  inputFromCents,
  type EventSettingField,
  type EventSettingsForm,
  type SettingValue,
} from '@domain/event-settings';
import type { RegistrationWindowState } from '@domain/events';
import type { EventType } from '@domain/kinds/types';
import { formatDateTime, formatMoney } from '@domain/format';
import { toTaipeiInput } from '@domain/taipei-time';
import type { Locale } from '@i18n/locales';

/** A link an organiser made, as the list shows it (GET /api/v1/admin/badge-links, camelCase). */
export type AdminLink = {
  id: string;
  code: string;
  identity: BadgeIdentity;
  /** `/get-badge/{type}/{code}`: the locale goes in front. */
  path: string;
  email: string | null;
  status: BadgeLinkStatus;
  expiresAt: string;
  createdAt: string;
  usedAt: string | null;
  usedBy: { email: string; name: string | null } | null;
  orderNo: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  batchId: string | null;
  createdBy: string | null;
  note: string | null;
};
export type AdminLinkPage = { data: AdminLink[]; meta: { page: number; limit: number; total: number } };

/** A batch with its counts (GET /api/v1/admin/badge-link-batches). */
export type AdminBatch = {
  id: string;
  identity: BadgeIdentity;
  linkType: string;
  size: number;
  emailed: boolean;
  note: string;
  expiresAt: string;
  createdBy: string;
  createdAt: string;
  used: number;
  revoked: number;
  expired: number;
  unused: number;
};

/** An event as the back office sees it (GET /api/v1/admin/events). */
export type AdminEvent = {
  id: string;
  slug: string;
  type: EventType;
  name: string;
  nameEn: string;
  nameZh: string;
  startTime: string;
  endAt: string;
  registrationState: RegistrationWindowState;
  holdsSeat: boolean;
  capacity: number | null;
  seatsTaken: number;
  seatsLeft: number | null;
  liveOrders: number;
  registerStartAt: string;
  registerEndAt: string;
  formModifyExpiresAt: string | null;
  priceCentsTwd: number;
  priceCentsUsd: number;
  originalPriceCentsTwd: number | null;
  updatedAt: string;
};
export type EventChange = {
  id: number;
  changedBy: string;
  createdAt: string;
  changes: Partial<Record<EventSettingField, { before: SettingValue; after: SettingValue }>>;
};

/** The page of a batch of links (without the locale). */
export const batchPath = (id: string) => `/admin/badge-links/${encodeURIComponent(id)}`;
/** The page of an event in the back office (without the locale). */
export const adminEventPath = (slug: string) => `/admin/events/${encodeURIComponent(slug)}`;

/** An event's settings as its form shows them: amounts in dollars, dates in Taipei time, none as empty. */
export function settingsForm(e: AdminEvent): EventSettingsForm {
  return {
    capacity: e.capacity === null ? '' : String(e.capacity),
    registerStartAt: toTaipeiInput(e.registerStartAt),
    registerEndAt: toTaipeiInput(e.registerEndAt),
    formModifyExpiresAt: e.formModifyExpiresAt ? toTaipeiInput(e.formModifyExpiresAt) : '',
    priceCentsTwd: inputFromCents(e.priceCentsTwd, 0),
    priceCentsUsd: e.priceCentsUsd ? inputFromCents(e.priceCentsUsd, 2) : '0',
    originalPriceCentsTwd: inputFromCents(e.originalPriceCentsTwd, 0),
  };
}

/** How a setting's value reads in the history: dates in Taipei time, prices as money, none in words. */
export function settingText(
  field: EventSettingField,
  value: SettingValue,
  locale: Locale,
  words: { none: string; unlimited: string },
): string {
  if (value === null) return field === 'capacity' ? words.unlimited : words.none;
  if (typeof value === 'string') return formatDateTime(value);
  if (field === 'priceCentsUsd') return formatMoney(value, 'USD', locale);
  if (field === 'priceCentsTwd' || field === 'originalPriceCentsTwd') return formatMoney(value, 'TWD', locale);
  return String(value);
}

/** The fields of a change in the form's order. */
export const changedFields = (change: EventChange['changes']) =>
  EVENT_SETTING_FIELDS.filter((f) => change[f] !== undefined).map((f) => ({ field: f, ...change[f]! }));
