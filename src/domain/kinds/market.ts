/**
 * The Market exhibitor registration (spec §3 Exhibitor registration form, Contact info; §5): the
 * limits, the structs the wizard and the API both validate with, and the participation-type rules.
 * Wire keys are snake_case (`company_name_zh`, `copyright_contacts`, `selected_contents`…); these
 * structs see them camelCased. What the two Market kinds declare besides: `./market-kinds.ts`.
 */
import { array, boolean, defaulted, literal, object, optional, refine, size, type Infer } from 'superstruct';
import { CountryAlpha3, FileChoice, ItemKey, NumberOf, OptionalText, RequiredText } from '@domain/validation';
import { WorkId } from '@domain/works';
import type { RegistrationType } from './types';

/** Field limits of spec §3 / §9. */
export const MARKET_LIMITS = {
  text: 256,
  companyProfileZh: 80,
  companyProfileEn: 400,
  businessCategories: 3,
  copyrightContacts: 20,
  works: 20,
} as const;

/** Participation types (spec §3 Enumerations): 1 pavilion organizer … 5 online domestic. */
export const PARTICIPATION_TYPES = [1, 2, 3, 4, 5] as const;
export type ParticipationType = (typeof PARTICIPATION_TYPES)[number];
/** Company types 1–8; the 8 industry options use the same labels (decision 014). */
export const COMPANY_TYPES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export const INDUSTRIES = COMPANY_TYPES;
/** Business types 1–14. */
export const BUSINESS_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] as const;

/**
 * The registration type of a Market order: physical domestic (3) and international (4)
 * participation become MARKET_DOMESTIC / MARKET_INTERNATIONAL when the event offers them, else the
 * kind's default (early-bird → MARKET_EARLYBIRD, online → MARKET_ONLINE).
 */
export function marketRegistrationType(
  kindDefault: RegistrationType,
  offered: readonly string[] | null | undefined,
  participation: ParticipationType,
): RegistrationType {
  if (participation === 3 && offered?.includes('MARKET_DOMESTIC')) return 'MARKET_DOMESTIC';
  if (participation === 4 && offered?.includes('MARKET_INTERNATIONAL')) return 'MARKET_INTERNATIONAL';
  return kindDefault;
}

/** A number, or its decimal string (form controls give strings; the wire sends numbers). */
const Id = (values: readonly number[]) => NumberOf(values, 3);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => EMAIL.test(value.trim());
const Email = refine(
  RequiredText(MARKET_LIMITS.text),
  'email',
  (v) => isEmail(v) || 'Please enter a valid e-mail address',
);

/** One copyright contact: names and phone and e-mail required, positions optional, all ≤ 256. */
export const CopyrightContact = object({
  key: ItemKey,
  nameZh: RequiredText(MARKET_LIMITS.text),
  nameEn: RequiredText(MARKET_LIMITS.text),
  positionZh: OptionalText(MARKET_LIMITS.text),
  positionEn: OptionalText(MARKET_LIMITS.text),
  phone: RequiredText(MARKET_LIMITS.text),
  email: Email,
});
export type CopyrightContact = Infer<typeof CopyrightContact>;

/** Contact info (spec §3/§5): name, title, phone, e-mail, all required, ≤ 256. */
export const ContactInfo = object({
  contactName: RequiredText(MARKET_LIMITS.text),
  contactTitle: RequiredText(MARKET_LIMITS.text),
  contactPhone: RequiredText(MARKET_LIMITS.text),
  contactEmail: Email,
});
export type ContactInfo = Infer<typeof ContactInfo>;

/** Business categories: distinct ids, at most 3 (the form ignores a fourth; the API refuses it). */
const BusinessCategories = refine(
  array(Id(BUSINESS_TYPES)),
  'categories',
  (v) =>
    (v.length <= MARKET_LIMITS.businessCategories && new Set(v).size === v.length) ||
    `Choose at most ${MARKET_LIMITS.businessCategories} business categories, each once`,
);

const exhibitorFields = {
  companyNameZh: RequiredText(MARKET_LIMITS.text),
  companyNameEn: RequiredText(MARKET_LIMITS.text),
  companyProfileZh: OptionalText(MARKET_LIMITS.companyProfileZh),
  companyProfileEn: OptionalText(MARKET_LIMITS.companyProfileEn),
  companyIndustry: Id(INDUSTRIES),
  companyBusinessCategory: defaulted(BusinessCategories, []),
  /** ISO 3166-1 alpha-3 (`iso` of the country reference data); the server checks it exists. */
  companyCountry: CountryAlpha3,
  companyLogoFileId: FileChoice,
  copyrightContacts: size(array(CopyrightContact), 1, MARKET_LIMITS.copyrightContacts),
};

/**
 * The exhibitor form with its contact info: what the contact page edits (PUT /registrations/{id});
 * with the exhibitor directory choice (issue 23: listed unless false; absent, unchanged).
 */
export const ExhibitorForm = object({
  ...exhibitorFields,
  ...ContactInfo.schema,
  directoryListed: optional(boolean()),
});
export type ExhibitorForm = Infer<typeof ExhibitorForm>;

/**
 * A Market registration (POST /orders?event=…): both agreements, a participation type, at least
 * one work, the exhibitor form and the contact info.
 */
export const MarketRegistration = object({
  ...exhibitorFields,
  ...ContactInfo.schema,
  agreeTerms: literal(true),
  agreeDisclosure: literal(true),
  marketIdentity: Id(PARTICIPATION_TYPES),
  selectedContents: size(array(WorkId), 1, MARKET_LIMITS.works),
});
export type MarketRegistration = Infer<typeof MarketRegistration>;

/**
 * The stored exhibitor form (registrations.form) without the contact info (registrations.contact)
 * and the directory choice (registrations.directory_listed).
 */
export function splitExhibitorForm(value: Omit<ExhibitorForm, 'directoryListed'> & { directoryListed?: boolean }) {
  const { contactName, contactTitle, contactPhone, contactEmail, directoryListed, ...form } = value;
  return {
    form,
    contact: { contactName, contactTitle, contactPhone, contactEmail },
    ...(directoryListed === undefined ? {} : { directoryListed }),
  };
}
