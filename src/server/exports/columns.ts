import type { EventType } from '@domain/events';
import type { Cell } from '@domain/exports';
import { displayedPaymentStatus } from '@domain/orders';
import { countryByIso, countryName } from '@domain/reference/countries';
import { wordsOf, type KeyOf } from '@i18n/catalogues';
import type { Locale } from '@i18n/locales';
import type { BadgeExportRow, OrderExportRow, RegistrationExportRow, RegistrationShape } from './sources';

/*
 * The columns of each export, with their headers in the organiser's language and how each cell is
 * read from a row. Enumerations are written by their names (statuses, types, industries…), files
 * by their names, lists either joined (business categories, works) or in numbered columns
 * (copyright contacts, team members, companies: "Contact 2: E-mail"), so a spreadsheet can sort
 * and filter on them.
 */

/** How a column is laid out in XLSX (width, number format). CSV writes every kind as text. */
export type ColumnKind = 'text' | 'long' | 'date' | 'money' | 'number';
export type Column<R> = { key: string; header: string; kind: ColumnKind; value: (row: R) => Cell };

/** The words of one language: the exports' own headers, and the labels they share with the pages. */
export function labelsFor(locale: Locale) {
  const words = wordsOf(locale, 'exports', 'pages', 'enumerations');
  const l = (key: string) => words(key as KeyOf<'exports' | 'pages' | 'enumerations'>);
  const group = (group: string, field: string) =>
    l('admin.exports.group').replace('{{group}}', group).replace('{{field}}', field);
  const nth = (key: string, n: number) => l(key).replace('{{n}}', String(n));
  return {
    locale,
    l,
    group,
    nth,
    /** An enumeration entry by its name (`enum.companyType.3` → "Production company"). */
    enumName: (prefix: string, id: unknown) => (id === null || id === undefined ? '' : l(`${prefix}${String(id)}`)),
    yesNo: (v: unknown) => (v === true ? l('admin.yes') : v === false ? l('admin.no') : ''),
    list: (items: string[]) => items.filter(Boolean).join(l('admin.listSeparator')),
    eventName: (r: { eventNameEn: string; eventNameZh: string }) =>
      locale === 'zh-TW' ? r.eventNameZh || r.eventNameEn : r.eventNameEn,
  };
}
export type Labels = ReturnType<typeof labelsFor>;

const col = <R>(key: string, header: string, kind: ColumnKind, value: (row: R) => Cell): Column<R> => ({
  key,
  header,
  kind,
  value,
});
const money = (cents: number | null | undefined, currency: string) =>
  cents === null || cents === undefined
    ? null
    : { cents, currency: currency === 'USD' ? ('USD' as const) : ('TWD' as const) };

/** Orders: number, registrant, statuses, amounts, payment method, transfer and invoice, dates. */
export function orderColumns(w: Labels): Column<OrderExportRow>[] {
  const c = (key: string, kind: ColumnKind, value: (r: OrderExportRow) => Cell) =>
    col<OrderExportRow>(key, w.l(`admin.exports.col.${key}`), kind, value);
  return [
    c('orderNo', 'text', (r) => r.order.orderNo),
    c('placedAt', 'date', (r) => r.order.createdAt),
    c('event', 'text', (r) => w.eventName(r)),
    c('type', 'text', (r) => w.l(`admin.type.${r.order.registrationType}`)),
    c('name', 'text', (r) => r.name),
    c('email', 'text', (r) => r.email),
    c('company', 'text', (r) => r.company),
    c('paymentStatus', 'text', (r) => w.l(`status.payment.${displayedPaymentStatus(r.order.paymentStatus)}`)),
    c('approvalStatus', 'text', (r) =>
      r.order.approvalStatus ? w.l(`status.approval.${r.order.approvalStatus}`) : '',
    ),
    c('paymentMethod', 'text', (r) => (r.order.paymentType ? w.l(`pay.type.${r.order.paymentType}`) : '')),
    c('currency', 'text', (r) => r.order.currency),
    c('amount', 'money', (r) => money(r.order.amountCents, r.order.currency)),
    c('quantity', 'number', (r) => r.order.quantity),
    c('unitPriceTwd', 'money', (r) => money(r.order.unitPriceTwdCents, 'TWD')),
    c('totalTwd', 'money', (r) => money(r.order.totalTwdCents, 'TWD')),
    c('totalUsd', 'money', (r) => money(r.order.totalUsdCents, 'USD')),
    c('paidAt', 'date', (r) => r.order.paidAt),
    c('deadline', 'date', (r) => r.order.paymentExpiresAt),
    c('approvedAt', 'date', (r) => r.order.approvedAt),
    c('rejectedReason', 'long', (r) => r.order.rejectedReason),
    c('remitter', 'text', (r) => r.order.remitter),
    c('senderBank', 'text', (r) => r.order.senderBank),
    c('lastFive', 'text', (r) => r.order.lastFiveDigits),
    c('invoice', 'text', (r) => (r.receiptKind ? w.l(`pay.receipt.${r.receiptKind}`) : '')),
    c('invoiceTitle', 'text', (r) => r.invoiceTitle),
    c('ubn', 'text', (r) => r.ubn),
    c('language', 'text', (r) => (r.order.locale ? w.l(`lang.${r.order.locale}`) : '')),
  ];
}

/** The form sections each kind of event stores, in the order the columns show them. */
const SECTIONS: Record<EventType, readonly Section[]> = {
  badge_professional: ['badge'],
  badge_free: ['badge'],
  event_audit: ['terms'],
  event_general: ['terms'],
  event_online: ['terms'],
  market_earlybird: ['exhibitor', 'works'],
  market_online: ['exhibitor', 'works'],
  pitching_project: ['works', 'pitching'],
  pitching_story: ['story', 'works', 'pitching'],
};
type Section = 'badge' | 'exhibitor' | 'story' | 'works' | 'pitching' | 'terms';
const SECTION_ORDER: Section[] = ['badge', 'exhibitor', 'story', 'works', 'pitching', 'terms'];

type R = RegistrationExportRow;
const text = (v: unknown): Cell => (typeof v === 'string' ? v : typeof v === 'number' ? v : null);
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const items = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(record) : []);
const fileName = (r: R, id: unknown) => (typeof id === 'string' ? (r.fileNames.get(id) ?? id) : null);

/**
 * Registrations with their form fields, one column per field: the sections of the event types in
 * the export (a badge application, the exhibitor form with its contact info, the story form, the
 * works, the agreements), the lists in as many numbered columns as the longest one needs.
 */
export function registrationColumns(w: Labels, shape: RegistrationShape): Column<R>[] {
  const out: Column<R>[] = [];
  const seen = new Set<string>();
  const add = (key: string, header: string, kind: ColumnKind, value: (r: R) => Cell) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(col(key, header, kind, value));
  };
  const form = (r: R, key: string) => r.form[key];
  const field = (labelKey: string, key: string, kind: ColumnKind = 'text') =>
    add(key, w.l(labelKey), kind, (r) => text(form(r, key)));

  add('orderNo', w.l('admin.exports.col.orderNo'), 'text', (r) => r.orderNo);
  add('event', w.l('admin.exports.col.event'), 'text', (r) => w.eventName(r));
  add('type', w.l('admin.exports.col.type'), 'text', (r) => w.l(`admin.type.${r.registrationType}`));
  add('paymentStatus', w.l('admin.exports.col.paymentStatus'), 'text', (r) =>
    w.l(`status.payment.${displayedPaymentStatus(r.paymentStatus)}`),
  );
  add('approvalStatus', w.l('admin.exports.col.approvalStatus'), 'text', (r) =>
    r.approvalStatus ? w.l(`status.approval.${r.approvalStatus}`) : '',
  );
  add('name', w.l('admin.exports.col.name'), 'text', (r) => r.name);
  add('email', w.l('admin.exports.col.email'), 'text', (r) => r.email);
  add('placedAt', w.l('admin.exports.col.placedAt'), 'date', (r) => r.createdAt);
  add('formUpdatedAt', w.l('admin.exports.col.formUpdatedAt'), 'date', (r) => r.formUpdatedAt);

  const sections = new Set(shape.types.flatMap((t) => SECTIONS[t]));
  for (const section of SECTION_ORDER.filter((s) => sections.has(s))) {
    if (section === 'badge') {
      add('identity', w.l('admin.field.identity'), 'text', (r) => w.enumName('identity.', form(r, 'identity')));
      for (const [groupKey, fields] of [
        ['applicant', ['nameZh', 'nameEn', 'companyNameZh', 'companyNameEn', 'contactPhone', 'contactEmail']],
        ['badge', ['nameZh', 'nameEn', 'companyNameZh', 'companyNameEn']],
      ] as const) {
        const heading = w.l(groupKey === 'applicant' ? 'badge.applicantInfo' : 'badge.printedInfo');
        for (const f of fields)
          add(`${groupKey}.${f}`, w.group(heading, w.l(`badge.field.${f}`)), 'text', (r) =>
            text(record(form(r, groupKey))[f]),
          );
      }
      add('sameAsApplicant', w.l('admin.field.sameAsApplicant'), 'text', (r) => w.yesNo(form(r, 'sameAsApplicant')));
      add('personalPhotoFileId', w.l('admin.field.personalPhotoFileId'), 'text', (r) =>
        fileName(r, form(r, 'personalPhotoFileId')),
      );
    }
    if (section === 'exhibitor') {
      add('marketIdentity', w.l('admin.field.marketIdentity'), 'text', (r) =>
        w.enumName('enum.participation.', form(r, 'marketIdentity')),
      );
      field('market.form.companyNameZh', 'companyNameZh');
      field('market.form.companyNameEn', 'companyNameEn');
      field('market.form.companyProfileZh', 'companyProfileZh', 'long');
      field('market.form.companyProfileEn', 'companyProfileEn', 'long');
      add('companyIndustry', w.l('market.form.companyIndustry'), 'text', (r) =>
        w.enumName('enum.companyType.', form(r, 'companyIndustry')),
      );
      add('companyBusinessCategory', w.l('market.form.companyBusinessCategory'), 'text', (r) => {
        const ids = form(r, 'companyBusinessCategory');
        return Array.isArray(ids) ? w.list(ids.map((id) => w.enumName('enum.businessType.', id))) : null;
      });
      add('companyCountry', w.l('market.form.companyCountry'), 'text', (r) => {
        const iso = form(r, 'companyCountry');
        const found = typeof iso === 'string' ? countryByIso(iso) : undefined;
        return found ? countryName(found, w.locale) : text(iso);
      });
      add('companyLogoFileId', w.l('admin.field.companyLogoFileId'), 'text', (r) =>
        fileName(r, form(r, 'companyLogoFileId')),
      );
      for (let i = 0; i < shape.copyrightContacts; i++) {
        const heading = w.nth('market.form.contactN', i + 1);
        for (const f of ['nameZh', 'nameEn', 'positionZh', 'positionEn', 'phone', 'email'])
          add(`copyrightContacts.${i}.${f}`, w.group(heading, w.l(`market.form.contact.${f}`)), 'text', (r) =>
            text(items(form(r, 'copyrightContacts'))[i]?.[f]),
          );
      }
      for (const f of ['contactName', 'contactTitle', 'contactPhone', 'contactEmail'])
        add(f, w.l(`market.form.${f}`), 'text', (r) => text(r.contact[f] ?? form(r, f)));
      add('agreeTerms', w.l('admin.field.agreeTerms'), 'text', (r) => w.yesNo(form(r, 'agreeTerms')));
      add('agreeDisclosure', w.l('admin.field.agreeDisclosure'), 'text', (r) => w.yesNo(form(r, 'agreeDisclosure')));
    }
    if (section === 'story') {
      for (const f of ['settingZh', 'settingEn', 'storySummaryZh', 'storySummaryEn'])
        field(`pitching.form.${f}`, f, 'long');
      add('storyGenreId', w.l('pitching.form.storyGenreId'), 'text', (r) =>
        w.enumName('enum.storyGenre.', form(r, 'storyGenreId')),
      );
      field('pitching.form.storyGenreOther', 'storyGenreOther');
      add('storyOutlineFileId', w.l('admin.field.storyOutlineFileId'), 'text', (r) =>
        fileName(r, form(r, 'storyOutlineFileId')),
      );
      field('pitching.form.screenRightsHolderZh', 'screenRightsHolderZh');
      field('pitching.form.screenRightsHolderEn', 'screenRightsHolderEn');
      field('pitching.form.characterDescriptionZh', 'characterDescriptionZh', 'long');
      field('pitching.form.characterDescriptionEn', 'characterDescriptionEn', 'long');
      add('relationImageFileId', w.l('admin.field.relationImageFileId'), 'text', (r) =>
        fileName(r, form(r, 'relationImageFileId')),
      );
      field('pitching.form.suitableForFilmZh', 'suitableForFilmZh', 'long');
      field('pitching.form.suitableForFilmEn', 'suitableForFilmEn', 'long');
      const numbered = (
        list: 'teamMembers' | 'companies',
        count: number,
        item: string,
        prefix: string,
        fields: string[],
      ) => {
        for (let i = 0; i < count; i++) {
          const heading = w.nth(item, i + 1);
          for (const f of fields)
            add(
              `${list}.${i}.${f}`,
              w.group(heading, w.l(`${prefix}${f}`)),
              f.startsWith('profile') ? 'long' : 'text',
              (r) => text(items(form(r, list))[i]?.[f]),
            );
        }
      };
      numbered('teamMembers', shape.teamMembers, 'pitching.form.memberN', 'pitching.form.member.', [
        'nameZh',
        'nameEn',
        'titleZh',
        'titleEn',
        'profileZh',
        'profileEn',
      ]);
      numbered('companies', shape.companies, 'pitching.form.companyN', 'pitching.form.company.', [
        'nameZh',
        'nameEn',
        'profileZh',
        'profileEn',
        'recommendedIpZh',
        'recommendedIpEn',
      ]);
    }
    if (section === 'works')
      add('works', w.l('admin.exports.col.works'), 'long', (r) =>
        w.list(r.works.map((x) => (w.locale === 'zh-TW' ? x.titleZh || x.title : x.title || x.titleZh))),
      );
    if (section === 'pitching') {
      add('agreePolicy', w.l('admin.field.agreePolicy'), 'text', (r) => w.yesNo(form(r, 'agreePolicy')));
      add('agreeTerms', w.l('admin.field.agreeTerms'), 'text', (r) => w.yesNo(form(r, 'agreeTerms')));
    }
    if (section === 'terms')
      add('agreeTerms', w.l('admin.field.agreeTerms'), 'text', (r) => w.yesNo(form(r, 'agreeTerms')));
  }
  return out;
}

/** Badges: identity, names, company, holder, and when it was issued and picked up. */
export function badgeColumns(w: Labels): Column<BadgeExportRow>[] {
  const c = (key: string, header: string, kind: ColumnKind, value: (r: BadgeExportRow) => Cell) =>
    col<BadgeExportRow>(key, header, kind, value);
  const printed = (f: string) => w.group(w.l('badge.printedInfo'), w.l(`badge.field.${f}`));
  return [
    c('orderNo', w.l('admin.exports.col.orderNo'), 'text', (r) => r.orderNo),
    c('event', w.l('admin.exports.col.event'), 'text', (r) => w.eventName(r)),
    c('identity', w.l('admin.field.identity'), 'text', (r) => w.enumName('identity.', r.badge.identity)),
    c('nameZh', printed('nameZh'), 'text', (r) => r.badge.nameZh),
    c('nameEn', printed('nameEn'), 'text', (r) => r.badge.nameEn),
    c('companyNameZh', printed('companyNameZh'), 'text', (r) => r.badge.companyNameZh),
    c('companyNameEn', printed('companyNameEn'), 'text', (r) => r.badge.companyNameEn),
    c('email', w.l('admin.exports.col.email'), 'text', (r) => r.email),
    c('paymentStatus', w.l('admin.exports.col.paymentStatus'), 'text', (r) =>
      w.l(`status.payment.${displayedPaymentStatus(r.paymentStatus)}`),
    ),
    c('issuedAt', w.l('admin.exports.col.issuedAt'), 'date', (r) => r.badge.createdAt),
    c('pickedUpAt', w.l('admin.exports.col.pickedUpAt'), 'date', (r) => r.badge.pickedUpAt),
  ];
}
