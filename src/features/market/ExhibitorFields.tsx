import { SelectField } from '@components/forms/SelectField';
import { LimitedText, RowList, setRow, type LimitedTextProps } from '@components/wizard/FormParts';
import { LazyUploader } from '@components/wizard/LazyUploader';
import { Choice } from '@components/wizard/WizardParts';
import type { T } from '@i18n/t';
import { BUSINESS_TYPES, INDUSTRIES, MARKET_LIMITS } from '@domain/kinds/market';
import { emptyContact, type ContactRow, type ExhibitorValues } from './exhibitor-form';

export type CountryOption = { iso: string; iso2: string; name: string };

type Props = {
  t: T;
  values: ExhibitorValues;
  onChange: (change: (v: ExhibitorValues) => ExhibitorValues) => void;
  /** Messages by field path (`companyNameEn`, `copyrightContacts.0.email`). */
  errors: Record<string, string>;
  /** Countries with names in the page's language (from the page, not bundled). */
  countries: CountryOption[];
};

const TEXT = MARKET_LIMITS.text;

/** The fields of a copyright contact, in order, and what each asks for. */
const CONTACT_FIELDS = [
  ['nameZh', { required: true }],
  ['nameEn', { required: true }],
  ['positionZh', {}],
  ['positionEn', {}],
  ['phone', { required: true, type: 'tel', inputMode: 'tel' }],
  ['email', { required: true, type: 'email' }],
] as const satisfies readonly (readonly [Exclude<keyof ContactRow, 'key'>, Partial<LimitedTextProps>])[];

/**
 * The exhibitor registration form with its contact info (spec §3, §5): company names and
 * profiles with live counters, industry, up to 3 business categories (a fourth tick is ignored),
 * country, logo, the copyright contacts (at least one; add and remove) and the contact info.
 * Shared by the Market wizard's form step and the contact page's editor.
 */
export function ExhibitorFields({ t, values, onChange, errors, countries }: Props) {
  const required = t('form.requiredMark');
  const set = <K extends keyof ExhibitorValues>(name: K, value: ExhibitorValues[K]) =>
    onChange((v) => ({ ...v, [name]: value }));
  const setContact = (index: number, name: keyof ContactRow, value: string) =>
    onChange((v) => ({ ...v, copyrightContacts: setRow(v.copyrightContacts, index, name, value) }));

  type TextName =
    | 'companyNameZh'
    | 'companyNameEn'
    | 'companyProfileZh'
    | 'companyProfileEn'
    | 'contactName'
    | 'contactTitle'
    | 'contactPhone'
    | 'contactEmail';
  /** A text of the form: its limit and counter, a text area for the profiles. */
  const text = (name: TextName, opts: Partial<LimitedTextProps> = {}) => (
    <LimitedText
      id={`exhibitor-${name}`}
      label={t(`market.form.${name}`)}
      value={values[name]}
      onChange={(v) => set(name, v)}
      max={TEXT}
      required
      requiredLabel={required}
      error={errors[name]}
      {...opts}
    />
  );

  /** A required choice of the form, "please choose" until chosen. */
  const select = (name: 'companyIndustry' | 'companyCountry', options: { value: string; label: string }[]) => (
    <SelectField
      id={`exhibitor-${name}`}
      label={t(`market.form.${name}`)}
      requiredLabel={required}
      value={values[name]}
      onChange={(v) => set(name, v)}
      placeholder={t('market.form.choose')}
      options={options}
      error={errors[name]}
    />
  );

  const categories = values.companyBusinessCategory;
  const toggleCategory = (id: number, checked: boolean) =>
    onChange((v) => {
      const now = v.companyBusinessCategory;
      if (checked && (now.includes(id) || now.length >= MARKET_LIMITS.businessCategories)) return v; // spec §5: a fourth is ignored
      return { ...v, companyBusinessCategory: checked ? [...now, id] : now.filter((c) => c !== id) };
    });

  return (
    <>
      <fieldset className="card grid gap-4 md:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('market.form.company')}</legend>
        {text('companyNameZh', { autoComplete: 'organization' })}
        {text('companyNameEn')}
        {text('companyProfileZh', { max: MARKET_LIMITS.companyProfileZh, required: false, long: true })}
        {text('companyProfileEn', { max: MARKET_LIMITS.companyProfileEn, required: false, long: true })}
        {select(
          'companyIndustry',
          INDUSTRIES.map((id) => ({ value: String(id), label: t(`enum.companyType.${id}`) })),
        )}
        {select(
          'companyCountry',
          countries.map((c) => ({ value: c.iso, label: c.name })),
        )}
        <fieldset
          className="md:col-span-2"
          aria-describedby={`categories-note${errors.companyBusinessCategory ? ' categories-error' : ''}`}
        >
          <legend className="text-sm font-semibold">{t('market.form.companyBusinessCategory')}</legend>
          <p id="categories-note" className="mb-2 text-xs text-neutral-600">
            {t('market.form.categoriesNote', {
              count: categories.length,
              max: MARKET_LIMITS.businessCategories,
            })}
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            {BUSINESS_TYPES.map((id) => (
              <Choice key={id} checked={categories.includes(id)} onChange={(on) => toggleCategory(id, on)}>
                {t(`enum.businessType.${id}`)}
              </Choice>
            ))}
          </div>
          {errors.companyBusinessCategory && (
            <p id="categories-error" className="mt-1 text-xs text-red-700">
              {errors.companyBusinessCategory}
            </p>
          )}
        </fieldset>
        <div className="md:col-span-2">
          <LazyUploader
            id="company_logo"
            purpose="company_logo"
            label={t('market.form.companyLogo')}
            value={values.companyLogo}
            onChange={(file) => set('companyLogo', file)}
            t={t}
            error={errors.companyLogoFileId}
            required={false}
          />
        </div>
      </fieldset>

      <RowList
        legend={t('market.form.copyrightContacts')}
        rows={values.copyrightContacts}
        min={1}
        max={MARKET_LIMITS.copyrightContacts}
        onChange={(change) => onChange((v) => ({ ...v, copyrightContacts: change(v.copyrightContacts) }))}
        empty={emptyContact}
        rowLegend={(n) => t('market.form.contactN', { n })}
        removeLabel={(n) => t('market.form.removeContact', { n })}
        addLabel={t('market.form.addContact')}
        error={errors.copyrightContacts}
        firstFieldId={(i) => `contact-${i}-nameZh`}
      >
        {(c, i) =>
          CONTACT_FIELDS.map(([name, opts]) => (
            <LimitedText
              key={name}
              id={`contact-${i}-${name}`}
              label={t(`market.form.contact.${name}`)}
              value={c[name]}
              onChange={(v) => setContact(i, name, v)}
              max={TEXT}
              requiredLabel={required}
              error={errors[`copyrightContacts.${i}.${name}`]}
              {...opts}
              hint={name === 'email' ? t('form.email') : undefined}
            />
          ))
        }
      </RowList>

      <fieldset className="card grid gap-4 md:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('market.form.contactInfo')}</legend>
        {text('contactName', { autoComplete: 'name' })}
        {text('contactTitle', { autoComplete: 'organization-title' })}
        {text('contactPhone', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
        {text('contactEmail', { type: 'email', hint: t('form.email'), autoComplete: 'email' })}
      </fieldset>
    </>
  );
}
