import { lazy, useRef } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { SelectField } from '@components/forms/SelectField';
import { TextAreaField } from '@components/forms/TextAreaField';
import { TextField } from '@components/ui/TextField';
import { PITCHING_LIMITS, STORY_GENRE_IDS, STORY_GENRE_OTHER_ID } from '@domain/kinds/pitching';
import type { T } from '@i18n/t';
import { emptyCompany, emptyMember, type CompanyRow, type MemberRow, type StoryValues } from './story-form';

/* The uploader (react-dropzone) loads with the form step, not with the works step (decision 006). */
const Uploader = lazy(() => import('@components/uploads/Uploader').then((m) => ({ default: m.Uploader })));

type Props = {
  t: T;
  values: StoryValues;
  onChange: (change: (v: StoryValues) => StoryValues) => void;
  /** Messages by field path (`settingZh`, `teamMembers.1.profileEn`, `storyOutlineFileId`). */
  errors: Record<string, string>;
};

type StoryText = Exclude<
  keyof StoryValues,
  'storyGenreId' | 'storyOutline' | 'relationImage' | 'teamMembers' | 'companies'
>;

const L = PITCHING_LIMITS;
/** The limit of each text of the story itself (spec §3, §9). */
const STORY_LIMITS: Record<StoryText, number> = {
  settingZh: L.settingZh,
  settingEn: L.settingEn,
  storySummaryZh: L.storySummaryZh,
  storySummaryEn: L.storySummaryEn,
  storyGenreOther: L.text,
  screenRightsHolderZh: L.text,
  screenRightsHolderEn: L.text,
  characterDescriptionZh: L.characterDescription,
  characterDescriptionEn: L.characterDescription,
  suitableForFilmZh: L.suitableForFilmZh,
  suitableForFilmEn: L.suitableForFilmEn,
};
const MEMBER_LIMITS: Record<Exclude<keyof MemberRow, 'key'>, number> = {
  nameZh: L.text,
  nameEn: L.text,
  titleZh: L.text,
  titleEn: L.text,
  profileZh: L.profileZh,
  profileEn: L.profileEn,
};
const COMPANY_LIMITS: Record<Exclude<keyof CompanyRow, 'key'>, number> = {
  nameZh: L.text,
  nameEn: L.text,
  profileZh: L.profileZh,
  profileEn: L.profileEn,
  recommendedIpZh: L.recommendedIp,
  recommendedIpEn: L.recommendedIp,
};

/**
 * The Story to Screen form (spec §3 Pitching story form, §5): the story in both languages with
 * live counters, the genre (with "other" described), the outline (required) and relation image
 * (optional) uploads, the team members (at least one) and companies (optional) as lists the user
 * adds to and removes from. Shared by the pitching wizard's form step and the contact page.
 */
export function StoryFields({ t, values, onChange, errors }: Props) {
  const addMemberButton = useRef<HTMLButtonElement>(null);
  const addCompanyButton = useRef<HTMLButtonElement>(null);
  const required = t('form.requiredMark');
  const set = <K extends keyof StoryValues>(name: K, value: StoryValues[K]) =>
    onChange((v) => ({ ...v, [name]: value }));

  /** A text of the story: a one-line input up to 256 characters, a text area beyond. */
  const story = (name: StoryText) => {
    const max = STORY_LIMITS[name];
    const common = {
      id: `story-${name}`,
      label: t(`pitching.form.${name}`),
      value: values[name],
      onChange: (v: string) => set(name, v),
      max,
      required: true,
      requiredLabel: required,
      error: errors[name],
    };
    // The Chinese setting (200) sits beside the English one (800): both are text areas.
    const long = max > L.text || name === 'settingZh';
    return long ? <TextAreaField {...common} rows={max >= 1000 ? 5 : 3} /> : <TextField {...common} />;
  };

  const setMember = (index: number, name: keyof MemberRow, value: string) =>
    onChange((v) => ({ ...v, teamMembers: v.teamMembers.map((m, i) => (i === index ? { ...m, [name]: value } : m)) }));
  const setCompany = (index: number, name: keyof CompanyRow, value: string) =>
    onChange((v) => ({ ...v, companies: v.companies.map((c, i) => (i === index ? { ...c, [name]: value } : c)) }));

  const members = values.teamMembers;
  const companies = values.companies;
  const addMember = () => {
    onChange((v) => ({ ...v, teamMembers: [...v.teamMembers, emptyMember()] }));
    const next = members.length;
    requestAnimationFrame(() => document.getElementById(`member-${next}-nameZh`)?.focus());
  };
  const removeMember = (index: number) => {
    onChange((v) => ({ ...v, teamMembers: v.teamMembers.filter((_, i) => i !== index) }));
    requestAnimationFrame(() => addMemberButton.current?.focus());
  };
  const addCompany = () => {
    onChange((v) => ({ ...v, companies: [...v.companies, emptyCompany()] }));
    const next = companies.length;
    requestAnimationFrame(() => document.getElementById(`company-${next}-nameZh`)?.focus());
  };
  const removeCompany = (index: number) => {
    onChange((v) => ({ ...v, companies: v.companies.filter((_, i) => i !== index) }));
    requestAnimationFrame(() => addCompanyButton.current?.focus());
  };

  /** A field of a list item: one line up to 256 characters, a textarea beyond. */
  const itemField = (
    prefix: 'member' | 'company',
    index: number,
    name: string,
    value: string,
    max: number,
    onValue: (v: string) => void,
    error: string | undefined,
    isRequired: boolean,
  ) => {
    const common = {
      id: `${prefix}-${index}-${name}`,
      label: t(`pitching.form.${prefix}.${name}`),
      value,
      onChange: onValue,
      max,
      required: isRequired,
      requiredLabel: required,
      error,
    };
    return max > L.text ? <TextAreaField {...common} rows={4} /> : <TextField {...common} />;
  };

  return (
    <>
      <fieldset className="card grid gap-4 md:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">{t('pitching.form.story')}</legend>
        {story('settingZh')}
        {story('settingEn')}
        {story('storySummaryZh')}
        {story('storySummaryEn')}
        <SelectField
          id="story-storyGenreId"
          label={t('pitching.form.storyGenreId')}
          requiredLabel={required}
          value={values.storyGenreId}
          onChange={(v) => set('storyGenreId', v)}
          placeholder={t('pitching.form.choose')}
          options={STORY_GENRE_IDS.map((id) => ({ value: String(id), label: t(`enum.storyGenre.${id}`) }))}
          error={errors.storyGenreId}
        />
        {values.storyGenreId === String(STORY_GENRE_OTHER_ID) ? story('storyGenreOther') : <div aria-hidden="true" />}
        {story('screenRightsHolderZh')}
        {story('screenRightsHolderEn')}
        {story('characterDescriptionZh')}
        {story('characterDescriptionEn')}
        {story('suitableForFilmZh')}
        {story('suitableForFilmEn')}
        <ClientSuspense fallback={<p className="text-sm">{t('pitching.form.storyOutline')}</p>}>
          <div>
            <Uploader
              id="story_outline"
              purpose="story_outline"
              label={t('pitching.form.storyOutline')}
              value={values.storyOutline}
              onChange={(file) => set('storyOutline', file)}
              t={t}
              error={errors.storyOutlineFileId}
            />
          </div>
          <div>
            <Uploader
              id="relation_image"
              purpose="relation_image"
              label={t('pitching.form.relationImage')}
              value={values.relationImage}
              onChange={(file) => set('relationImage', file)}
              t={t}
              error={errors.relationImageFileId}
              required={false}
            />
          </div>
        </ClientSuspense>
      </fieldset>

      <fieldset className="card space-y-4">
        <legend className="px-1 text-lg font-semibold">{t('pitching.form.teamMembers')}</legend>
        {members.map((m, i) => {
          const n = i + 1;
          const field = (name: Exclude<keyof MemberRow, 'key'>) =>
            itemField(
              'member',
              i,
              name,
              m[name],
              MEMBER_LIMITS[name],
              (v) => setMember(i, name, v),
              errors[`teamMembers.${i}.${name}`],
              true,
            );
          return (
            <fieldset key={m.key} className="grid gap-4 rounded-md border border-neutral-300 p-4 md:grid-cols-2">
              <legend className="px-1 font-semibold">{t('pitching.form.memberN', { n })}</legend>
              {field('nameZh')}
              {field('nameEn')}
              {field('titleZh')}
              {field('titleEn')}
              {field('profileZh')}
              {field('profileEn')}
              {members.length > 1 && (
                <div className="md:col-span-2">
                  <button type="button" className="btn-secondary" onClick={() => removeMember(i)}>
                    {t('pitching.form.removeMember', { n })}
                  </button>
                </div>
              )}
            </fieldset>
          );
        })}
        {errors.teamMembers && <p className="text-sm text-red-700">{errors.teamMembers}</p>}
        {members.length < L.teamMembers && (
          <button ref={addMemberButton} type="button" className="btn-secondary" onClick={addMember}>
            {t('pitching.form.addMember')}
          </button>
        )}
      </fieldset>

      <fieldset className="card space-y-4">
        <legend className="px-1 text-lg font-semibold">{t('pitching.form.companies')}</legend>
        <p className="text-sm text-neutral-700">{t('pitching.form.companiesNote')}</p>
        {companies.map((c, i) => {
          const n = i + 1;
          const field = (name: Exclude<keyof CompanyRow, 'key'>) =>
            itemField(
              'company',
              i,
              name,
              c[name],
              COMPANY_LIMITS[name],
              (v) => setCompany(i, name, v),
              errors[`companies.${i}.${name}`],
              !name.startsWith('recommendedIp'),
            );
          return (
            <fieldset key={c.key} className="grid gap-4 rounded-md border border-neutral-300 p-4 md:grid-cols-2">
              <legend className="px-1 font-semibold">{t('pitching.form.companyN', { n })}</legend>
              {field('nameZh')}
              {field('nameEn')}
              {field('profileZh')}
              {field('profileEn')}
              {field('recommendedIpZh')}
              {field('recommendedIpEn')}
              <div className="md:col-span-2">
                <button type="button" className="btn-secondary" onClick={() => removeCompany(i)}>
                  {t('pitching.form.removeCompany', { n })}
                </button>
              </div>
            </fieldset>
          );
        })}
        {errors.companies && <p className="text-sm text-red-700">{errors.companies}</p>}
        {companies.length < L.companies && (
          <button ref={addCompanyButton} type="button" className="btn-secondary" onClick={addCompany}>
            {t('pitching.form.addCompany')}
          </button>
        )}
      </fieldset>
    </>
  );
}
