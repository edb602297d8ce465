/*
 * A stored registration form (badge application, exhibitor form and contact info, story form,
 * the terms of an event registration) as rows the back office shows: each field with the label
 * the registrant saw, enumerations by their names, files as links, lists item by item, in the
 * order of the kind's form schema (`@domain/kinds`). Pure: the page passes the messages of its
 * language.
 */
import { ALL_FIELDS } from '@domain/kinds';
import type { FormField } from '@domain/kinds/form-schema';

export type FormValue =
  { kind: 'text'; text: string } | { kind: 'file'; name: string; href: string } | { kind: 'group'; rows: FormRow[] };
export type FormRow = { key: string; label: string; value: FormValue };

/** Looks a message up; undefined when the language has no such key. */
export type Lookup = (key: string) => string | undefined;

/** The place of a field in the schema's order; a field the schema does not have comes after. */
const rankIn = (fields: readonly FormField[]) => (key: string) => {
  const i = fields.findIndex((f) => f.key === key);
  return i === -1 ? fields.length : i;
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
  /** The fields of the form's kind (its schema's sections); by default every kind's. */
  schema: readonly FormField[] = ALL_FIELDS,
): FormRow[] {
  const value = (key: string, raw: unknown, field: FormField | undefined): FormValue | null => {
    if (raw === null || raw === undefined || raw === '') return null;
    if ((field?.kind === 'file' || key.endsWith('FileId')) && typeof raw === 'string') {
      const file = files.get(raw);
      return file ? { kind: 'file', name: file.name, href: file.href } : { kind: 'text', text: raw };
    }
    if (typeof raw === 'boolean') return { kind: 'text', text: lookup(raw ? 'admin.yes' : 'admin.no') ?? String(raw) };
    const names = field && (field.kind === 'enum' || field.kind === 'enums') ? field.names : undefined;
    if (names && (typeof raw === 'number' || typeof raw === 'string' || Array.isArray(raw))) {
      const ids = Array.isArray(raw) ? raw : [raw];
      return {
        kind: 'text',
        text: ids
          .map((id) => lookup(`${names}${String(id)}`) ?? String(id))
          .join(lookup('admin.listSeparator') ?? ', '),
      };
    }
    if (field?.kind === 'country' && typeof raw === 'string') return { kind: 'text', text: countryName(raw) ?? raw };
    if (typeof raw === 'string' || typeof raw === 'number') return { kind: 'text', text: String(raw) };
    return null;
  };
  const rows = (fields: readonly FormField[], record: Record<string, unknown>): FormRow[] => {
    const rank = rankIn(fields);
    return Object.entries(record)
      .sort(([a], [b]) => rank(a) - rank(b))
      .flatMap(([key, raw]): FormRow[] => {
        if (key === 'key') return [];
        const field = fields.find((f) => f.key === key);
        const label = field ? (lookup(field.label) ?? key) : key;
        if (field?.kind === 'list' && Array.isArray(raw)) {
          const items = raw
            .filter((item): item is Record<string, unknown> => !!item && typeof item === 'object')
            .map((item, i) => ({
              key: `${key}.${i}`,
              label: fill(lookup(field.item) ?? `${i + 1}`, { n: i + 1 }),
              value: { kind: 'group' as const, rows: rows(field.fields, item) },
            }));
          return items.length ? [{ key, label, value: { kind: 'group', rows: items } }] : [];
        }
        if (field?.kind === 'group' && raw && typeof raw === 'object' && !Array.isArray(raw)) {
          return [{ key, label, value: { kind: 'group', rows: rows(field.fields, raw as Record<string, unknown>) } }];
        }
        const shown = value(key, raw, field?.kind === 'group' || field?.kind === 'list' ? undefined : field);
        return shown ? [{ key, label, value: shown }] : [];
      });
  };
  return form ? rows(schema, form) : [];
}
