/*
 * A stored registration form (badge application, exhibitor form and contact info, story form,
 * the terms of an event registration) as rows the back office shows: each field with the label
 * the registrant saw, enumerations by their names, files as links, lists item by item. Pure: the
 * page passes the messages of its language.
 */

export type FormValue =
  { kind: 'text'; text: string } | { kind: 'file'; name: string; href: string } | { kind: 'group'; rows: FormRow[] };
export type FormRow = { key: string; label: string; value: FormValue };

/** Looks a message up; undefined when the language has no such key. */
export type Lookup = (key: string) => string | undefined;

/** Where the labels of a group's fields come from, tried in order. */
const LABELS: Record<string, string[]> = {
  '': ['pitching.form.', 'market.form.', 'admin.field.'],
  applicant: ['badge.field.', 'admin.field.'],
  badge: ['badge.field.', 'admin.field.'],
  copyrightContacts: ['market.form.contact.'],
  teamMembers: ['pitching.form.member.'],
  companies: ['pitching.form.company.'],
};
/** The heading of a nested group, and of each item of a list. */
const GROUPS: Record<string, { heading: string; item?: string }> = {
  applicant: { heading: 'badge.applicantInfo' },
  badge: { heading: 'badge.printedInfo' },
  copyrightContacts: { heading: 'market.form.copyrightContacts', item: 'market.form.contactN' },
  teamMembers: { heading: 'pitching.form.teamMembers', item: 'pitching.form.memberN' },
  companies: { heading: 'pitching.form.companies', item: 'pitching.form.companyN' },
};
/** Fields whose numbers name an enumeration entry. */
const ENUMS: Record<string, string> = {
  companyIndustry: 'enum.companyType.',
  companyBusinessCategory: 'enum.businessType.',
  storyGenreId: 'enum.storyGenre.',
  marketIdentity: 'enum.participation.',
  identity: 'identity.',
};

/** The order the forms show their fields in (spec §3); a field not listed comes after these. */
const ORDER = [
  'identity',
  'marketIdentity',
  'applicant',
  'badge',
  'sameAsApplicant',
  'personalPhotoFileId',
  'nameZh',
  'nameEn',
  'titleZh',
  'titleEn',
  'positionZh',
  'positionEn',
  'companyNameZh',
  'companyNameEn',
  'companyProfileZh',
  'companyProfileEn',
  'companyIndustry',
  'companyBusinessCategory',
  'companyCountry',
  'companyLogoFileId',
  'copyrightContacts',
  'phone',
  'email',
  'contactName',
  'contactTitle',
  'contactPhone',
  'contactEmail',
  'settingZh',
  'settingEn',
  'storySummaryZh',
  'storySummaryEn',
  'storyGenreId',
  'storyGenreOther',
  'storyOutlineFileId',
  'screenRightsHolderZh',
  'screenRightsHolderEn',
  'characterDescriptionZh',
  'characterDescriptionEn',
  'relationImageFileId',
  'suitableForFilmZh',
  'suitableForFilmEn',
  'profileZh',
  'profileEn',
  'recommendedIpZh',
  'recommendedIpEn',
  'teamMembers',
  'companies',
  'agreeTerms',
  'agreeDisclosure',
  'agreePolicy',
];
const rank = (key: string) => {
  const i = ORDER.indexOf(key);
  return i === -1 ? ORDER.length : i;
};

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));

/** The rows of a stored form (and its contact info, which the exhibitor form keeps apart). */
export function formRows(
  form: Record<string, unknown> | null | undefined,
  lookup: Lookup,
  files: ReadonlyMap<string, { name: string; href: string }>,
  /** The name of a country by its ISO code (the exhibitor's country), in the page's language. */
  countryName: (iso: string) => string | undefined = () => undefined,
): FormRow[] {
  const label = (group: string, key: string) => {
    for (const prefix of LABELS[group] ?? LABELS['']!) {
      const found = lookup(`${prefix}${key}`);
      if (found) return found;
    }
    return key;
  };
  const value = (key: string, raw: unknown): FormValue | null => {
    if (raw === null || raw === undefined || raw === '') return null;
    if (key.endsWith('FileId') && typeof raw === 'string') {
      const file = files.get(raw);
      return file ? { kind: 'file', name: file.name, href: file.href } : { kind: 'text', text: raw };
    }
    if (typeof raw === 'boolean') return { kind: 'text', text: lookup(raw ? 'admin.yes' : 'admin.no') ?? String(raw) };
    const names = ENUMS[key];
    if (names && (typeof raw === 'number' || typeof raw === 'string' || Array.isArray(raw))) {
      const ids = Array.isArray(raw) ? raw : [raw];
      return {
        kind: 'text',
        text: ids
          .map((id) => lookup(`${names}${String(id)}`) ?? String(id))
          .join(lookup('admin.listSeparator') ?? ', '),
      };
    }
    if (key === 'companyCountry' && typeof raw === 'string') return { kind: 'text', text: countryName(raw) ?? raw };
    if (typeof raw === 'string' || typeof raw === 'number') return { kind: 'text', text: String(raw) };
    return null;
  };
  const rows = (group: string, record: Record<string, unknown>): FormRow[] =>
    Object.entries(record)
      .sort(([a], [b]) => rank(a) - rank(b))
      .flatMap(([key, raw]): FormRow[] => {
        if (key === 'key') return [];
        const nested = GROUPS[key];
        if (nested && Array.isArray(raw)) {
          const items = raw
            .filter((item): item is Record<string, unknown> => !!item && typeof item === 'object')
            .map((item, i) => ({
              key: `${key}.${i}`,
              label: fill(lookup(nested.item ?? '') ?? `${i + 1}`, { n: i + 1 }),
              value: { kind: 'group' as const, rows: rows(key, item) },
            }));
          return items.length
            ? [{ key, label: lookup(nested.heading) ?? key, value: { kind: 'group', rows: items } }]
            : [];
        }
        if (nested && raw && typeof raw === 'object') {
          return [
            {
              key,
              label: lookup(nested.heading) ?? key,
              value: { kind: 'group', rows: rows(key, raw as Record<string, unknown>) },
            },
          ];
        }
        const shown = value(key, raw);
        return shown ? [{ key, label: label(group, key), value: shown }] : [];
      });
  return form ? rows('', form) : [];
}
