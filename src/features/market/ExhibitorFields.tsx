import { lazy, useRef } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { TextField } from '@components/ui/TextField';
import { SelectField } from '@components/forms/SelectField';
import { TextAreaField } from '@components/forms/TextAreaField';
import type { T } from '@i18n/t';
import { BUSINESS_TYPES, INDUSTRIES, MARKET_LIMITS } from '@domain/kinds/market';
import { emptyContact, type ContactRow, type ExhibitorValues } from './exhibitor-form';

/* The uploader (react-dropzone) loads when the form shows, not with the wizard's first steps (decision 006). */
const Uploader = lazy(() => import('@components/uploads/Uploader').then((m) => ({ default: m.Uploader })));

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

/**
 * The exhibitor registration form with its contact info (spec §3, §5): company names and
 * profiles with live counters, industry, up to 3 business categories (a fourth tick is ignored),
 * country, logo, the copyright contacts (at least one; add and remove) and the contact info.
 * Shared by the Market wizard's form step and the contact page's editor.
 */
export function ExhibitorFields({ t, values, onChange, errors, countries }: Props) {
  const addButton = useRef<HTMLButtonElement>(null);
  const required = t('form.requiredMark');
  const set = <K extends keyof ExhibitorValues>(name: K, value: ExhibitorValues[K]) =>
    onChange((v) => ({ ...v, [name]: value }));
  const setContact = (index: number, name: keyof ContactRow, value: string) =>
    onChange((v) => ({
      ...v,
      copyrightContacts: v.copyrightContacts.map((c, i) => (i === index ? { ...c, [name]: value } : c)),
    }));

  const text = (
    name: 'companyNameZh' | 'companyNameEn' | 'contactName' | 'contactTitle' | 'contactPhone' | 'contactEmail',
    opts: { type?: string; hint?: string; autoComplete?: string; inputMode?: 'tel' | 'email' } = {},
  ) => (
    <TextField
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

  const categories = values.companyBusinessCategory;
  const toggleCategory = (id: number, checked: boolean) =>
    onChange((v) => {
      const now = v.companyBusinessCategory;
      if (checked && (now.includes(id) || now.length >= MARKET_LIMITS.businessCategories)) return v; // spec §5: a fourth is ignored
      return { ...v, companyBusinessCategory: checked ? [...now, id] : now.filter((c) => c !== id) };
    });

  const contacts = values.copyrightContacts;
  const addContact = () => {
    onChange((v) => ({ ...v, copyrightContacts: [...v.copyrightContacts, emptyContact()] }));
    const next = contacts.length;
    requestAnimationFrame(() => document.getElementById(`contact-${next}-nameZh`)?.focus());
  };
  const removeContact = (index: number) => {
    onChange((v) => ({ ...v, copyrightContacts: v.copyrightContacts.filter((_, i) => i !== index) }));
    requestAnimationFrame(() => addButton.current?.focus());
  };

  return (
    <>
      <fieldset className="card grid gap-4 md:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('market.form.company')}</legend>
        {text('companyNameZh', { autoComplete: 'organization' })}
        {text('companyNameEn')}
        <TextAreaField
          id="exhibitor-companyProfileZh"
          label={t('market.form.companyProfileZh')}
          value={values.companyProfileZh}
          onChange={(v) => set('companyProfileZh', v)}
          max={MARKET_LIMITS.companyProfileZh}
          error={errors.companyProfileZh}
        />
        <TextAreaField
          id="exhibitor-companyProfileEn"
          label={t('market.form.companyProfileEn')}
          value={values.companyProfileEn}
          onChange={(v) => set('companyProfileEn', v)}
          max={MARKET_LIMITS.companyProfileEn}
          error={errors.companyProfileEn}
        />
        <SelectField
          id="exhibitor-companyIndustry"
          label={t('market.form.companyIndustry')}
          requiredLabel={required}
          value={values.companyIndustry}
          onChange={(v) => set('companyIndustry', v)}
          placeholder={t('market.form.choose')}
          options={INDUSTRIES.map((id) => ({ value: String(id), label: t(`enum.companyType.${id}`) }))}
          error={errors.companyIndustry}
        />
        <SelectField
          id="exhibitor-companyCountry"
          label={t('market.form.companyCountry')}
          requiredLabel={required}
          value={values.companyCountry}
          onChange={(v) => set('companyCountry', v)}
          placeholder={t('market.form.choose')}
          options={countries.map((c) => ({ value: c.iso, label: c.name }))}
          error={errors.companyCountry}
        />
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
              <label key={id} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-1 h-4 w-4"
                  checked={categories.includes(id)}
                  onChange={(e) => toggleCategory(id, e.target.checked)}
                />
                <span>{t(`enum.businessType.${id}`)}</span>
              </label>
            ))}
          </div>
          {errors.companyBusinessCategory && (
            <p id="categories-error" className="mt-1 text-xs text-red-700">
              {errors.companyBusinessCategory}
            </p>
          )}
        </fieldset>
        <div className="md:col-span-2">
          <ClientSuspense fallback={<p className="text-sm">{t('market.form.companyLogo')}</p>}>
            <Uploader
              id="company_logo"
              purpose="company_logo"
              label={t('market.form.companyLogo')}
              value={values.companyLogo}
              onChange={(file) => set('companyLogo', file)}
              t={t}
              error={errors.companyLogoFileId}
              required={false}
            />
          </ClientSuspense>
        </div>
      </fieldset>

      <fieldset className="card space-y-4">
        <legend className="px-1 text-lg font-semibold">{t('market.form.copyrightContacts')}</legend>
        {contacts.map((c, i) => {
          const n = i + 1;
          const field = (
            name: Exclude<keyof ContactRow, 'key'>,
            opts: { required?: boolean; type?: string; hint?: string; inputMode?: 'tel' | 'email' } = {},
          ) => (
            <TextField
              id={`contact-${i}-${name}`}
              label={t(`market.form.contact.${name}`)}
              value={c[name]}
              onChange={(v) => setContact(i, name, v)}
              max={TEXT}
              requiredLabel={required}
              error={errors[`copyrightContacts.${i}.${name}`]}
              {...opts}
            />
          );
          return (
            <fieldset key={c.key} className="grid gap-4 rounded-md border border-neutral-300 p-4 md:grid-cols-2">
              <legend className="px-1 font-semibold">{t('market.form.contactN', { n })}</legend>
              {field('nameZh', { required: true })}
              {field('nameEn', { required: true })}
              {field('positionZh')}
              {field('positionEn')}
              {field('phone', { required: true, type: 'tel', inputMode: 'tel' })}
              {field('email', { required: true, type: 'email', hint: t('form.email') })}
              {contacts.length > 1 && (
                <div className="md:col-span-2">
                  <button type="button" className="btn-secondary" onClick={() => removeContact(i)}>
                    {t('market.form.removeContact', { n })}
                  </button>
                </div>
              )}
            </fieldset>
          );
        })}
        {errors.copyrightContacts && <p className="text-sm text-red-700">{errors.copyrightContacts}</p>}
        {contacts.length < MARKET_LIMITS.copyrightContacts && (
          <button ref={addButton} type="button" className="btn-secondary" onClick={addContact}>
            {t('market.form.addContact')}
          </button>
        )}
      </fieldset>

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
