import { SelectField } from '@components/forms/SelectField';
import { LimitedText, RowList, setRow } from '@components/wizard/FormParts';
import { LazyUploader } from '@components/wizard/LazyUploader';
import { PITCHING_LIMITS, STORY_GENRE_IDS, STORY_GENRE_OTHER_ID } from '@domain/kinds/pitching';
import type { T } from '@i18n/t';
import { emptyCompany, emptyMember, type CompanyRow, type MemberRow, type StoryValues } from './story-form';

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
/** The story's files: the outline (required) and the relation image (optional), with their error paths. */
const UPLOADS = [
  ['storyOutline', 'storyOutlineFileId', true],
  ['relationImage', 'relationImageFileId', false],
] as const;
const COMPANY_LIMITS: Record<Exclude<keyof CompanyRow, 'key'>, number> = {
  nameZh: L.text,
  nameEn: L.text,
  profileZh: L.profileZh,
  profileEn: L.profileEn,
  recommendedIpZh: L.recommendedIp,
  recommendedIpEn: L.recommendedIp,
};

type StoryList = 'teamMembers' | 'companies';
/** The story form's lists: team members (at least one) and companies (optional), their fields in order. */
const LISTS: {
  name: StoryList;
  item: 'member' | 'company';
  Item: 'Member' | 'Company';
  min: number;
  max: number;
  empty: () => MemberRow | CompanyRow;
  limits: Record<string, number>;
}[] = [
  {
    name: 'teamMembers',
    item: 'member',
    Item: 'Member',
    min: 1,
    max: L.teamMembers,
    empty: emptyMember,
    limits: MEMBER_LIMITS,
  },
  {
    name: 'companies',
    item: 'company',
    Item: 'Company',
    min: 0,
    max: L.companies,
    empty: emptyCompany,
    limits: COMPANY_LIMITS,
  },
];

/**
 * The Story to Screen form (spec §3 Pitching story form, §5): the story in both languages with
 * live counters, the genre (with "other" described), the outline (required) and relation image
 * (optional) uploads, the team members (at least one) and companies (optional) as lists the user
 * adds to and removes from. Shared by the pitching wizard's form step and the contact page.
 */
export function StoryFields({ t, values, onChange, errors }: Props) {
  const required = t('form.requiredMark');
  const set = <K extends keyof StoryValues>(name: K, value: StoryValues[K]) =>
    onChange((v) => ({ ...v, [name]: value }));

  /** A text of the story (the Chinese setting, 200, sits beside the English one, 800: both text areas). */
  const story = (name: StoryText) => (
    <LimitedText
      id={`story-${name}`}
      label={t(`pitching.form.${name}`)}
      value={values[name]}
      onChange={(v) => set(name, v)}
      max={STORY_LIMITS[name]}
      required
      requiredLabel={required}
      error={errors[name]}
      long={name === 'settingZh'}
      rows={STORY_LIMITS[name] >= 1000 ? 5 : 3}
    />
  );

  /** A field of a team member or company: one line up to 256 characters, a text area beyond. */
  const itemField = (list: StoryList, row: MemberRow | CompanyRow, index: number, name: string, max: number) => {
    const prefix = list === 'teamMembers' ? 'member' : 'company';
    return (
      <LimitedText
        key={name}
        id={`${prefix}-${index}-${name}`}
        label={t(`pitching.form.${prefix}.${name}`)}
        value={(row as Record<string, string>)[name] ?? ''}
        onChange={(v) =>
          onChange((s) => ({ ...s, [list]: setRow(s[list] as Record<string, string>[], index, name, v) }))
        }
        max={max}
        required={!name.startsWith('recommendedIp')}
        requiredLabel={required}
        error={errors[`${list}.${index}.${name}`]}
        rows={4}
      />
    );
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
        {UPLOADS.map(([name, path, required]) => (
          <div key={name}>
            <LazyUploader
              id={name === 'storyOutline' ? 'story_outline' : 'relation_image'}
              purpose={name === 'storyOutline' ? 'story_outline' : 'relation_image'}
              label={t(`pitching.form.${name}`)}
              value={values[name]}
              onChange={(file) => set(name, file)}
              t={t}
              error={errors[path]}
              required={required}
            />
          </div>
        ))}
      </fieldset>

      {LISTS.map((list) => (
        <RowList<MemberRow | CompanyRow>
          key={list.name}
          legend={t(`pitching.form.${list.name}`)}
          note={list.name === 'companies' ? t('pitching.form.companiesNote') : undefined}
          rows={values[list.name]}
          min={list.min}
          max={list.max}
          onChange={(change) => onChange((v) => ({ ...v, [list.name]: change(v[list.name]) }))}
          empty={list.empty}
          rowLegend={(n) => t(`pitching.form.${list.item}N`, { n })}
          removeLabel={(n) => t(`pitching.form.remove${list.Item}`, { n })}
          addLabel={t(`pitching.form.add${list.Item}`)}
          error={errors[list.name]}
          firstFieldId={(i) => `${list.item}-${i}-nameZh`}
        >
          {(row, i) => Object.entries(list.limits).map(([name, max]) => itemField(list.name, row, i, name, max))}
        </RowList>
      ))}
    </>
  );
}
