import { itemKey, newItemKey, parseUploaded, record, text, type UploadedFile } from '@lib/form-values';

/*
 * The exhibitor form as the browser holds it (spec §3 Exhibitor registration form + Contact
 * info): strings as the controls give them, the logo as the uploader's file, each copyright
 * contact with its 21-character key. The wizard keeps it in its draft; the contact page starts
 * from the stored registration. `toExhibitorForm` makes the camelCase value the domain's
 * `ExhibitorForm` struct validates and the API takes (the client snakeizes it).
 */

export type ContactRow = {
  key: string;
  nameZh: string;
  nameEn: string;
  positionZh: string;
  positionEn: string;
  phone: string;
  email: string;
};

export type ExhibitorValues = {
  companyNameZh: string;
  companyNameEn: string;
  companyProfileZh: string;
  companyProfileEn: string;
  /** '' until chosen, else '1'…'8'. */
  companyIndustry: string;
  companyBusinessCategory: number[];
  /** ISO 3166-1 alpha-3, '' until chosen. */
  companyCountry: string;
  companyLogo: UploadedFile | null;
  copyrightContacts: ContactRow[];
  contactName: string;
  contactTitle: string;
  contactPhone: string;
  contactEmail: string;
};

export const emptyContact = (): ContactRow => ({
  key: newItemKey(),
  nameZh: '',
  nameEn: '',
  positionZh: '',
  positionEn: '',
  phone: '',
  email: '',
});

/** An empty form with one copyright contact (spec §3: at least one contact is shown). */
export const emptyExhibitor = (): ExhibitorValues => ({
  companyNameZh: '',
  companyNameEn: '',
  companyProfileZh: '',
  companyProfileEn: '',
  companyIndustry: '',
  companyBusinessCategory: [],
  companyCountry: '',
  companyLogo: null,
  copyrightContacts: [emptyContact()],
  contactName: '',
  contactTitle: '',
  contactPhone: '',
  contactEmail: '',
});

/**
 * Exhibitor values from anything (a stored draft, or the registration's form and contact merged):
 * field by field, with a fresh key for a contact without a valid one and at least one contact.
 */
export function parseExhibitor(raw: unknown): ExhibitorValues {
  const d = record(raw);
  const contacts = Array.isArray(d.copyrightContacts) ? d.copyrightContacts.map(record) : [];
  const categories = Array.isArray(d.companyBusinessCategory)
    ? [...new Set(d.companyBusinessCategory.map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= 14))]
    : [];
  const industry = d.companyIndustry;
  return {
    companyNameZh: text(d.companyNameZh),
    companyNameEn: text(d.companyNameEn),
    companyProfileZh: text(d.companyProfileZh),
    companyProfileEn: text(d.companyProfileEn),
    companyIndustry: typeof industry === 'number' ? String(industry) : text(industry),
    companyBusinessCategory: categories.slice(0, 3),
    companyCountry: text(d.companyCountry),
    companyLogo: parseUploaded(d.companyLogo),
    copyrightContacts: contacts.length
      ? contacts.map((c) => ({
          key: itemKey(c.key),
          nameZh: text(c.nameZh),
          nameEn: text(c.nameEn),
          positionZh: text(c.positionZh),
          positionEn: text(c.positionEn),
          phone: text(c.phone),
          email: text(c.email),
        }))
      : [emptyContact()],
    contactName: text(d.contactName),
    contactTitle: text(d.contactTitle),
    contactPhone: text(d.contactPhone),
    contactEmail: text(d.contactEmail),
  };
}

/** Whether the user has typed or chosen anything in the form. */
export const hasExhibitorInput = (v: ExhibitorValues) =>
  !!v.companyLogo ||
  v.companyBusinessCategory.length > 0 ||
  [
    v.companyNameZh,
    v.companyNameEn,
    v.companyProfileZh,
    v.companyProfileEn,
    v.companyIndustry,
    v.companyCountry,
    v.contactName,
    v.contactTitle,
    v.contactPhone,
    v.contactEmail,
  ].some((s) => s !== '') ||
  v.copyrightContacts.some((c) => [c.nameZh, c.nameEn, c.positionZh, c.positionEn, c.phone, c.email].some(Boolean));

/** The form as the API takes it (camelCase; `ExhibitorForm` of the domain validates it). */
export function toExhibitorForm(v: ExhibitorValues) {
  return {
    companyNameZh: v.companyNameZh,
    companyNameEn: v.companyNameEn,
    companyProfileZh: v.companyProfileZh,
    companyProfileEn: v.companyProfileEn,
    companyIndustry: v.companyIndustry === '' ? undefined : Number(v.companyIndustry),
    companyBusinessCategory: v.companyBusinessCategory,
    companyCountry: v.companyCountry,
    companyLogoFileId: v.companyLogo?.uid ?? null,
    copyrightContacts: v.copyrightContacts.map((c) => ({ ...c })),
    contactName: v.contactName,
    contactTitle: v.contactTitle,
    contactPhone: v.contactPhone,
    contactEmail: v.contactEmail,
  };
}
