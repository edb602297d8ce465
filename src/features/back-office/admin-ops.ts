/*
 * The back office's badge links, events and exports screens (issue 11): what their pages and
 * islands show, as the API answers it (camelCase), and their paths.
 */
import {
  EVENT_SETTING_FIELDS,
  inputFromCents,
  type EventSettingField,
  type EventSettingsForm,
  type SettingValue,
} from '@domain/event-settings';
import { formatDateTime, formatMoney } from '@domain/format';
import { toTaipeiInput } from '@domain/taipei-time';
import type { Locale } from '@i18n/locales';
import type { AdminEvent, EventChange } from '@domain/contract/admin';

export type { AdminBatch, AdminEvent, AdminLink, AdminLinkPage, EventChange } from '@domain/contract/admin';

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
