/**
 * What the two Market kinds (early-bird, online) share: what a registration stores, the wizard's
 * step labels, and their common properties. The form's structs and rules: `./market.ts`.
 */
import { AGREE_TERMS, field, WORKS_SECTION, type FormSection, type ValueField } from './form-schema';
import type { RegistrationKind } from './kind';
import { ExhibitorForm, MarketRegistration } from './market';

const formField = (key: string, kind: ValueField['kind'] = 'text', extra: Partial<ValueField> = {}) =>
  field('market.form.', key, kind, extra);

/** An exhibitor registration as stored: participation, company, copyright contacts, contact info, agreements. */
export const EXHIBITOR_SECTION: FormSection = {
  id: 'exhibitor',
  fields: [
    field('admin.field.', 'marketIdentity', 'enum', { names: 'enum.participation.' }),
    formField('companyNameZh'),
    formField('companyNameEn'),
    formField('companyProfileZh', 'long'),
    formField('companyProfileEn', 'long'),
    formField('companyIndustry', 'enum', { names: 'enum.companyType.' }),
    formField('companyBusinessCategory', 'enums', { names: 'enum.businessType.' }),
    formField('companyCountry', 'country'),
    field('admin.field.', 'companyLogoFileId', 'file'),
    {
      key: 'copyrightContacts',
      label: 'market.form.copyrightContacts',
      kind: 'list',
      item: 'market.form.contactN',
      fields: ['nameZh', 'nameEn', 'positionZh', 'positionEn', 'phone', 'email'].map((k) =>
        field('market.form.contact.', k),
      ),
    },
    ...['contactName', 'contactTitle', 'contactPhone', 'contactEmail'].map((k) =>
      formField(k, 'text', { contact: true }),
    ),
    AGREE_TERMS,
    field('admin.field.', 'agreeDisclosure', 'yesNo'),
  ],
};

/** The Market wizard's step labels. */
export const MARKET_STEP_LABELS = {
  upload_content: 'market.step.upload_content',
  pick_identity: 'market.step.pick_identity',
  pick_works: 'market.step.pick_works',
  fill_form: 'market.step.fill_form',
  completed: 'market.step.completed',
  wait_approval: 'market.step.wait_approval',
  pay: 'market.step.pay',
} as const;

/** What both Market kinds are: exhibitors with works, the exhibitor form, 4 exhibitor badges included (spec §9). */
export const MARKET_KIND = {
  group: 'marketPitching',
  body: MarketRegistration,
  form: { type: 'exhibitor', struct: ExhibitorForm },
  schema: [EXHIBITOR_SECTION, WORKS_SECTION],
  wizard: { island: 'market', stepLabels: MARKET_STEP_LABELS },
  publicAction: 'register',
  quantity: 'one',
  entries: 'one',
  price: 'event',
  issuesBadge: false,
  requiresBadge: false,
  open: true,
  pages: 'event',
  works: true,
  includedBadges: 4,
  includedBadgeIdentity: 'EXHIBITOR_MARKET',
} as const satisfies Partial<RegistrationKind>;
