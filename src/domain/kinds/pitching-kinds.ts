/**
 * What the two pitching kinds (Project to Screen, Story to Screen) share: what an entry stores,
 * the wizard's step labels, and their common properties. The entries' structs and rules:
 * `./pitching.ts`.
 */
import { AGREE_TERMS, field, type FormSection, type ValueField } from './form-schema';
import type { RegistrationKind } from './kind';

const formField = (key: string, kind: ValueField['kind'] = 'text', extra: Partial<ValueField> = {}) =>
  field('pitching.form.', key, kind, extra);

/** A Story to Screen entry's story form as stored (spec §3 Pitching story form). */
export const STORY_SECTION: FormSection = {
  id: 'story',
  fields: [
    formField('settingZh', 'long'),
    formField('settingEn', 'long'),
    formField('storySummaryZh', 'long'),
    formField('storySummaryEn', 'long'),
    formField('storyGenreId', 'enum', { names: 'enum.storyGenre.' }),
    formField('storyGenreOther'),
    field('admin.field.', 'storyOutlineFileId', 'file'),
    formField('screenRightsHolderZh'),
    formField('screenRightsHolderEn'),
    formField('characterDescriptionZh', 'long'),
    formField('characterDescriptionEn', 'long'),
    field('admin.field.', 'relationImageFileId', 'file'),
    formField('suitableForFilmZh', 'long'),
    formField('suitableForFilmEn', 'long'),
    {
      key: 'teamMembers',
      label: 'pitching.form.teamMembers',
      kind: 'list',
      item: 'pitching.form.memberN',
      fields: [
        field('pitching.form.member.', 'nameZh'),
        field('pitching.form.member.', 'nameEn'),
        field('pitching.form.member.', 'titleZh'),
        field('pitching.form.member.', 'titleEn'),
        field('pitching.form.member.', 'profileZh', 'long'),
        field('pitching.form.member.', 'profileEn', 'long'),
      ],
    },
    {
      key: 'companies',
      label: 'pitching.form.companies',
      kind: 'list',
      item: 'pitching.form.companyN',
      fields: [
        field('pitching.form.company.', 'nameZh'),
        field('pitching.form.company.', 'nameEn'),
        field('pitching.form.company.', 'profileZh', 'long'),
        field('pitching.form.company.', 'profileEn', 'long'),
        field('pitching.form.company.', 'recommendedIpZh'),
        field('pitching.form.company.', 'recommendedIpEn'),
      ],
    },
  ],
};

/** The two checkboxes of the works step (spec §5): the pitching policy and the terms. */
export const PITCHING_SECTION: FormSection = {
  id: 'pitching',
  fields: [field('admin.field.', 'agreePolicy', 'yesNo'), AGREE_TERMS],
};

/** The pitching wizard's step labels. */
export const PITCHING_STEP_LABELS = {
  pick_works: 'pitching.step.pick_works',
  fill_form: 'pitching.step.fill_form',
  pay: 'pitching.step.pay',
} as const;

/**
 * What both pitching kinds are (spec §2, §5, §9): several entries per applicant, each priced per
 * work, works counted against the applicant's 5; one exhibitor badge included per entry.
 */
export const PITCHING_KIND = {
  group: 'marketPitching',
  steps: ['pick_works', 'fill_form', 'pay'],
  publicAction: 'register',
  attendance: 'venue',
  summary: { liveLink: false, pickupSchedule: true },
  holdsSeat: false,
  approval: 'per_event',
  quantity: 'per_work',
  entries: 'several',
  price: 'event',
  issuesBadge: false,
  requiresBadge: false,
  confirmationKey: 'summary.confirmed.pitching',
  open: true,
  pages: 'event',
  pendingPage: false,
  works: true,
  includedBadges: 1,
  includedBadgeIdentity: 'EXHIBITOR_PITCHING',
} as const satisfies Partial<RegistrationKind>;
