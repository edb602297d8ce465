import { sectionsOf } from '@domain/kinds';
import type { ValueField } from '@domain/kinds/form-schema';
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

type R = RegistrationExportRow;
const text = (v: unknown): Cell => (typeof v === 'string' ? v : typeof v === 'number' ? v : null);
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const items = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(record) : []);
const fileName = (r: R, id: unknown) => (typeof id === 'string' ? (r.fileNames.get(id) ?? id) : null);
const columnKind = (f: ValueField): ColumnKind => (f.kind === 'long' ? 'long' : 'text');

/** A stored value as a cell, read as its field says (enumerations by name, files by name, yes/no, countries). */
function cell(w: Labels, r: R, f: ValueField, raw: unknown): Cell {
  switch (f.kind) {
    case 'enum':
      return w.enumName(f.names ?? '', raw);
    case 'enums':
      return Array.isArray(raw) ? w.list(raw.map((id) => w.enumName(f.names ?? '', id))) : null;
    case 'file':
      return fileName(r, raw);
    case 'yesNo':
      return w.yesNo(raw);
    case 'country': {
      const found = typeof raw === 'string' ? countryByIso(raw) : undefined;
      return found ? countryName(found, w.locale) : text(raw);
    }
    default:
      return text(raw);
  }
}

/**
 * Registrations with their form fields, one column per field: the fields of the kinds in the
 * export as their form schemas declare them (a badge application, the exhibitor form with its
 * contact info, the story form, the works, the agreements: `@domain/kinds`), the lists in as many
 * numbered columns as the longest one needs.
 */
export function registrationColumns(w: Labels, shape: RegistrationShape): Column<R>[] {
  const out: Column<R>[] = [];
  const seen = new Set<string>();
  const add = (key: string, header: string, kind: ColumnKind, value: (r: R) => Cell) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(col(key, header, kind, value));
  };

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

  for (const f of sectionsOf(shape.types).flatMap((s) => s.fields)) {
    if (f.kind === 'works') {
      add(f.key, w.l(f.label), 'long', (r) =>
        w.list(r.works.map((x) => (w.locale === 'zh-TW' ? x.titleZh || x.title : x.title || x.titleZh))),
      );
    } else if (f.kind === 'group') {
      const heading = w.l(f.label);
      for (const g of f.fields)
        add(`${f.key}.${g.key}`, w.group(heading, w.l(g.label)), columnKind(g), (r) =>
          cell(w, r, g, record(r.form[f.key])[g.key]),
        );
    } else if (f.kind === 'list') {
      for (let i = 0; i < (shape.lists[f.key] ?? 0); i++) {
        const heading = w.nth(f.item, i + 1);
        for (const g of f.fields)
          add(`${f.key}.${i}.${g.key}`, w.group(heading, w.l(g.label)), columnKind(g), (r) =>
            cell(w, r, g, items(r.form[f.key])[i]?.[g.key]),
          );
      }
    } else {
      // The exhibitor's contact person is kept beside the form (older rows: in it).
      add(f.key, w.l(f.label), columnKind(f), (r) =>
        cell(w, r, f, f.contact ? (r.contact[f.key] ?? r.form[f.key]) : r.form[f.key]),
      );
    }
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
