/**
 * The exhibitor directory (issue 23): the Market registrations whose order is complete and which
 * did not opt out, with what their exhibitor form makes public (company names, profiles, industry,
 * business categories, country, logo) and their works. Never their contacts: the rows read here
 * are the form's public fields only. An exhibitor's id is its registration's id.
 */
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DirectoryExhibitor, DirectoryPage, DirectoryWork } from '@domain/contract';
import { ENUMERATIONS, enumKey, type EnumerationKind } from '@domain/enumerations';
import {
  DIRECTORY_PAGE_SIZE,
  LISTED_ORDER_STATES,
  likePattern,
  type ExhibitorFilters,
} from '@domain/exhibitor-directory';
import { KINDS } from '@domain/kinds';
import { countryByIso, countryName } from '@domain/reference/countries';
import { isUuid } from '@domain/validation';
import { wordsOf } from '@i18n/catalogues';
import type { Locale } from '@i18n/locales';
import type { Db } from '../db/client';
import { events, files, orderContents, orders, registrations } from '../db/schema';
import { currentEdition } from '../editions/editions';
import { CONTENT_COLUMNS } from '../orders/orders';
import type { FileStorage } from '../files/storage';
import { resizedCache } from '../files/resized-cache';
import { resizedImage } from '../files/thumbnails';

/** The event types whose registrations are exhibitors: the kinds whose form is the exhibitor form. */
const EXHIBITOR_EVENT_TYPES = KINDS.filter((k) => k.form?.type === 'exhibitor').map((k) => k.eventType);

/** The widths logos are served at (`?w=`): a list's card, a profile. */
export const EXHIBITOR_LOGO_WIDTHS = [160, 320] as const;

/** The public address of an exhibitor's logo (the file's id: a new logo is a new address). */
export const exhibitorLogoPath = (fileId: string, width: number = EXHIBITOR_LOGO_WIDTHS[1]) =>
  `/api/v1/exhibitor-logos/${fileId}?w=${width}`;

const field = (key: string) => sql`(${registrations.form} ->> ${key})`;

/** Listed exhibitors: Market registrations of a complete order, not opted out, of the current edition. */
async function listedCondition(db: Db): Promise<SQL> {
  const edition = await currentEdition(db);
  const approval = LISTED_ORDER_STATES.approvalStatuses.filter((a) => a !== null);
  return and(
    inArray(events.type, EXHIBITOR_EVENT_TYPES),
    eq(registrations.directoryListed, true),
    inArray(orders.paymentStatus, LISTED_ORDER_STATES.paymentStatuses),
    or(isNull(orders.approvalStatus), inArray(orders.approvalStatus, approval)),
    // Before the first edition exists (a database older than editions), every event counts.
    edition ? eq(events.editionId, edition.id) : undefined,
  )!;
}

/** The filters of a query, as conditions on the listed rows. */
function filterConditions(f: ExhibitorFilters): SQL[] {
  const conditions: SQL[] = [];
  if (f.q) {
    const like = likePattern(f.q);
    conditions.push(
      or(
        ...['companyNameEn', 'companyNameZh', 'companyProfileEn', 'companyProfileZh'].map(
          (k) => sql`${field(k)} ilike ${like}`,
        ),
        sql`exists (select 1 from ${orderContents} c where c.order_id = ${orders.id} and (c.title ilike ${like} or c.title_zh ilike ${like}))`,
      )!,
    );
  }
  if (f.industry) conditions.push(sql`${field('companyIndustry')} = ${String(f.industry)}`);
  if (f.businessCategory)
    conditions.push(
      sql`(${registrations.form} -> 'companyBusinessCategory') @> ${JSON.stringify([f.businessCategory])}::jsonb`,
    );
  if (f.country) conditions.push(sql`${field('companyCountry')} = ${f.country}`);
  if (f.workCategory)
    conditions.push(
      sql`exists (select 1 from ${orderContents} c where c.order_id = ${orders.id} and c.category_id = ${f.workCategory})`,
    );
  return conditions;
}

type Row = { id: string; orderId: string; form: Record<string, unknown> };

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const inLocale = (locale: Locale, en: string, zh: string) => (locale === 'zh-TW' ? zh || en : en || zh);

/** The public view of rows and their works, labels in `locale`. */
async function views(db: Db, rows: Row[], locale: Locale): Promise<DirectoryExhibitor[]> {
  if (rows.length === 0) return [];
  const words = wordsOf(locale, 'enumerations');
  /** An enumeration's id with its label, or null for an id the enumeration does not have. */
  const label = (kind: EnumerationKind, id: unknown) =>
    (ENUMERATIONS[kind] as readonly unknown[]).includes(id)
      ? { id, label: words(enumKey(kind, id as never) as never) }
      : null;
  const works = await db
    .select(CONTENT_COLUMNS)
    .from(orderContents)
    .where(
      inArray(
        orderContents.orderId,
        rows.map((r) => r.orderId),
      ),
    )
    .orderBy(asc(orderContents.orderId), asc(orderContents.contentId));
  const worksOf = new Map<string, DirectoryWork[]>();
  for (const w of works) {
    const list = worksOf.get(w.orderId) ?? [];
    list.push({
      id: w.id,
      title: inLocale(locale, w.titleEn, w.titleZh),
      titleEn: w.titleEn,
      titleZh: w.titleZh,
      category: label('workCategory', w.categoryId) as DirectoryWork['category'],
      genre: label('workGenre', w.genre) as DirectoryWork['genre'],
    });
    worksOf.set(w.orderId, list);
  }
  return rows.map(({ id, orderId, form }) => {
    const country = countryByIso(text(form.companyCountry));
    const logo = text(form.companyLogoFileId);
    const categories = Array.isArray(form.companyBusinessCategory) ? form.companyBusinessCategory : [];
    const names = { en: text(form.companyNameEn), zh: text(form.companyNameZh) };
    const profiles = { en: text(form.companyProfileEn), zh: text(form.companyProfileZh) };
    return {
      id,
      companyName: inLocale(locale, names.en, names.zh),
      companyNameEn: names.en,
      companyNameZh: names.zh,
      profile: inLocale(locale, profiles.en, profiles.zh),
      profileEn: profiles.en,
      profileZh: profiles.zh,
      industry: label('companyType', form.companyIndustry) as DirectoryExhibitor['industry'],
      businessCategories: categories
        .map((c) => label('businessType', c))
        .filter((c): c is NonNullable<typeof c> => c !== null) as DirectoryExhibitor['businessCategories'],
      country: country ? { iso: country.iso, name: countryName(country, locale) } : null,
      logoUrl: isUuid(logo) ? exhibitorLogoPath(logo) : null,
      works: worksOf.get(orderId) ?? [],
    };
  });
}

const base = (db: Db) =>
  db
    .select({ id: registrations.id, orderId: registrations.orderId, form: registrations.form })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(events, eq(events.id, orders.eventId));

/** One listed exhibitor by its id (its Market registration's), or undefined for anything else. */
export async function listedExhibitor(
  db: Db,
  id: string,
  locale: Locale = 'en',
): Promise<DirectoryExhibitor | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await base(db)
    .where(and(eq(registrations.id, id), await listedCondition(db)))
    .limit(1);
  return (await views(db, rows, locale))[0];
}

/**
 * A page of the directory, by company name (in the language asked), with the total and the
 * countries of every listed exhibitor (the country filter's options).
 */
export async function listExhibitors(
  db: Db,
  filters: ExhibitorFilters = {},
  locale: Locale = 'en',
): Promise<DirectoryPage> {
  const listed = await listedCondition(db);
  const where = and(listed, ...filterConditions(filters));
  const limit = filters.limit ?? DIRECTORY_PAGE_SIZE;
  const page = filters.page ?? 1;
  const [first, second] = locale === 'zh-TW' ? ['companyNameZh', 'companyNameEn'] : ['companyNameEn', 'companyNameZh'];
  const name = sql`lower(coalesce(nullif(${field(first)}, ''), ${field(second)}))`;
  const [rows, [counted], countryRows] = await Promise.all([
    base(db)
      .where(where)
      .orderBy(name, asc(registrations.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(registrations)
      .innerJoin(orders, eq(orders.id, registrations.orderId))
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(where),
    db
      .selectDistinct({ iso: sql<string>`${field('companyCountry')}` })
      .from(registrations)
      .innerJoin(orders, eq(orders.id, registrations.orderId))
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(listed),
  ]);
  const collator = new Intl.Collator(locale);
  const countries = countryRows
    .map((r) => countryByIso(r.iso ?? ''))
    .filter((c) => c !== undefined)
    .map((c) => ({ iso: c.iso, name: countryName(c, locale) }))
    .sort((a, b) => collator.compare(a.name, b.name));
  return {
    data: await views(db, rows, locale),
    meta: { page, limit, total: counted?.total ?? 0 },
    countries,
  };
}

const logoCache = resizedCache(128);

/**
 * A listed exhibitor's logo at `width` (JPEG), or null: the file must be the logo a listed
 * exhibitor's form names (its owner's `company_logo` upload); asked every time, so a logo stops
 * being served as soon as its exhibitor opts out or changes it.
 */
export async function readExhibitorLogo(
  db: Db,
  storage: FileStorage,
  fileId: string,
  width: number,
): Promise<Uint8Array | null> {
  if (!isUuid(fileId)) return null;
  const [row] = await db
    .select({ storageKey: files.storageKey })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(files, and(eq(files.ownerId, registrations.userId), eq(files.purpose, 'company_logo')))
    .where(and(eq(files.id, fileId), sql`${field('companyLogoFileId')} = ${fileId}`, await listedCondition(db)))
    .limit(1);
  if (!row) return null;
  return logoCache.get(`${fileId}:${width}`, async () => {
    const bytes = await storage.get(row.storageKey);
    return bytes ? resizedImage(bytes, width) : null;
  });
}
