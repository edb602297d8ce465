/*
 * The event catalogue's screens (issue 21): the event as the back office's API answers it
 * (camelCase), the form's starting values, and how a history row reads.
 */
import {
  ADDRESS_PARTS,
  CATALOGUE_FIELDS,
  catalogueTexts,
  emptyAddress,
  type CatalogueField,
  type CatalogueForm,
  type CatalogueValue,
  type EventAddress,
  type EventStatus,
  type KindFacts,
} from '@domain/event-catalogue';
import { EVENT_SETTING_FIELDS, type EventSettingField, type EventSettingsForm } from '@domain/event-settings';
import { formatDateTime, formatMoney } from '@domain/format';
import type { EventType } from '@domain/kinds/types';
import { toTaipeiInput } from '@domain/taipei-time';
import type { Translate } from '@i18n/i18n';
import type { Locale } from '@i18n/locales';
import type { AdminEvent, EventChange } from '@domain/contract/admin';

/** The form's starting values of a new event: the domain's blank form. */
export { blankCatalogueForm } from '@domain/event-catalogue';

/** An event as the catalogue's pages read it (GET /admin/events/{slug}): the contract's. */
export type CatalogueEventView = AdminEvent;

/** A history row: what happened, who, when, and the fields before → after (the contract's). */
export type CatalogueChange = EventChange;

/** What the form knows of each type: its label and the kind's facts (the island does not load the registry). */
export type TypeChoice = { value: EventType; label: string; facts: KindFacts };

/** The page of a new event (without the locale). */
export const NEW_EVENT_PATH = '/admin/events/new';

export const blankSettingsForm = (): EventSettingsForm => ({
  capacity: '',
  registerStartAt: '',
  registerEndAt: '',
  formModifyExpiresAt: '',
  priceCentsTwd: '0',
  priceCentsUsd: '0',
  originalPriceCentsTwd: '',
});

const partsOf = (a: EventAddress | null) =>
  a ? Object.fromEntries(ADDRESS_PARTS.map((k) => [k, a[k]])) : emptyAddress();

const pickFields = <K extends keyof CatalogueEventView>(e: CatalogueEventView, fields: readonly K[]) =>
  Object.fromEntries(fields.map((f) => [f, e[f]])) as Pick<CatalogueEventView, K>;

/** An event as loaded (ISO dates, cents), each field its forms edit: what they compare a change against. */
export const currentCatalogue = (e: CatalogueEventView) => pickFields(e, CATALOGUE_FIELDS);

/** An event's settings as loaded: what the settings form compares a change against. */
export const currentSettings = (e: CatalogueEventView) =>
  pickFields(e, EVENT_SETTING_FIELDS as readonly EventSettingField[]);

/** An event's details as its form shows them (Taipei times, none as empty). */
export function catalogueForm(e: CatalogueEventView): CatalogueForm {
  return {
    type: e.type,
    slug: e.slug,
    ...catalogueTexts(e),
    startTime: toTaipeiInput(e.startTime),
    endAt: toTaipeiInput(e.endAt),
    requiresApproval: e.requiresApproval,
    includedBadges: e.includedBadges === null ? '' : String(e.includedBadges),
    liveStreamUrl: e.liveStreamUrl ?? '',
    imageFileId: e.imageFileId ?? '',
    ownAddress: e.addressEn !== null || e.addressZh !== null,
    addressEn: partsOf(e.addressEn) as CatalogueForm['addressEn'],
    addressZh: partsOf(e.addressZh) as CatalogueForm['addressZh'],
    addressCountry: e.addressEn?.addressCountry ?? e.addressZh?.addressCountry ?? 'TW',
  };
}

/** The fields of a history row in the form's order (the status last). */
export const changedCatalogueFields = (change: CatalogueChange['changes']) =>
  [...CATALOGUE_FIELDS, 'status' as const]
    .filter((f) => change[f] !== undefined)
    .map((f) => ({ field: f, ...change[f]! }));

/** An event's seats in the back office: not counted, taken of unlimited, or taken, left and capacity. */
export const seatsText = (e: CatalogueEventView, t: Translate): string =>
  !e.holdsSeat
    ? t('admin.events.seatsNotCounted')
    : e.capacity === null
      ? t('admin.events.seatsUnlimited', { taken: e.seatsTaken })
      : t('admin.events.seatsSummary', { taken: e.seatsTaken, left: e.seatsLeft ?? 0, capacity: e.capacity });

/**
 * How a value reads in the history: dates in Taipei time, prices as money, yes/no, an address on
 * one line, a status or type by its name, none in words.
 */
export function catalogueValueText(
  field: CatalogueField | 'status',
  value: CatalogueValue,
  locale: Locale,
  t: Translate,
  typeLabel: (type: string) => string,
): string {
  if (value === null || value === '')
    return field === 'capacity' ? t('admin.events.unlimited') : t('admin.events.noValue');
  if (field === 'imageFileId') return t('admin.events.imageSet');
  if (typeof value === 'boolean') return t(value ? 'admin.events.yes' : 'admin.events.no');
  if (typeof value === 'object')
    return [value.streetAddress, value.addressLocality, value.addressRegion, value.postalCode, value.addressCountry]
      .filter(Boolean)
      .join(', ');
  if (field === 'status') return t(`admin.events.status.${value as EventStatus}`);
  if (field === 'type') return typeLabel(String(value));
  if (typeof value === 'string')
    return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))
      ? formatDateTime(value)
      : value.length > 120
        ? `${value.slice(0, 119)}…`
        : value;
  if (field === 'priceCentsUsd') return formatMoney(value, 'USD', locale);
  if (field === 'priceCentsTwd' || field === 'originalPriceCentsTwd') return formatMoney(value, 'TWD', locale);
  return String(value);
}
