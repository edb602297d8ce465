/**
 * The declarative schema of what a registration stores (`registrations.form`, and the contact
 * info the exhibitor form keeps apart): its fields in the order the forms show them, the label
 * each had for the registrant (an i18n key, both catalogues), the enumeration a number names, the
 * files, the nested groups and numbered lists. A kind lists its sections; the back office's order
 * view and the registrations export read them, so a field is described once.
 */

/** How a stored value is read: text (long: a paragraph), an enumeration entry or several, a file, yes/no, a country. */
export type ValueKind = 'text' | 'long' | 'enum' | 'enums' | 'file' | 'yesNo' | 'country';

export type ValueField = {
  key: string;
  /** i18n key of the field's label. */
  label: string;
  kind: ValueKind;
  /** `enum` and `enums`: the i18n prefix of the entries' names (`enum.companyType.` + id). */
  names?: string;
  /** Kept in the contact info beside the form (the exhibitor form's contact person). */
  contact?: true;
};
/** A nested object (the badge application's applicant and printed badge): `label` is its heading. */
export type GroupField = { key: string; label: string; kind: 'group'; fields: readonly ValueField[] };
/** A list of items (copyright contacts, team members): `label` is its heading, `item` names one ("Contact {{n}}"). */
export type ListField = { key: string; label: string; kind: 'list'; item: string; fields: readonly ValueField[] };
/** The works chosen from the content site: kept with the order, not in the form. */
export type WorksField = { key: 'works'; label: string; kind: 'works' };
export type FormField = ValueField | GroupField | ListField | WorksField;

/** A part of a registration's stored data, shared by the kinds that store it. */
export type FormSection = { id: string; fields: readonly FormField[] };

/** The fields of several sections in their order, each key once (the first section that has it wins). */
export function fieldsOf(sections: readonly FormSection[]): FormField[] {
  const seen = new Set<string>();
  const out: FormField[] = [];
  for (const field of sections.flatMap((s) => s.fields)) {
    if (seen.has(field.key)) continue;
    seen.add(field.key);
    out.push(field);
  }
  return out;
}

/** Every label key a set of sections uses (headings, item names, enumeration prefixes aside). */
export function labelKeysOf(sections: readonly FormSection[]): string[] {
  return sections.flatMap((s) =>
    s.fields.flatMap((f) => [
      f.label,
      ...(f.kind === 'list' ? [f.item] : []),
      ...(f.kind === 'group' || f.kind === 'list' ? f.fields.map((g) => g.label) : []),
    ]),
  );
}

/** The section of the works chosen from the content site (Market and pitching). */
export const WORKS_SECTION: FormSection = {
  id: 'works',
  fields: [{ key: 'works', label: 'admin.exports.col.works', kind: 'works' }],
};

/** A field whose label is the registrant's own (`{prefix}{key}`). */
export const field = (
  prefix: string,
  key: string,
  kind: ValueKind = 'text',
  extra: Partial<ValueField> = {},
): ValueField => ({
  key,
  label: `${prefix}${key}`,
  kind,
  ...extra,
});

/** The terms checkbox of a registration (spec §5). */
export const AGREE_TERMS = field('admin.field.', 'agreeTerms', 'yesNo');
