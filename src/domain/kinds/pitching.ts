/**
 * Pitching entries (spec §3 Pitching story form; §5 Pitching works step and rules; §9 prices):
 * the limits, the structs the wizard and the API both validate with, and the selection rules.
 * Wire keys are snake_case (`setting_zh`, `team_members`, `selected_contents`…); these structs see
 * them camelCased. What the two pitching kinds declare besides: `./pitching-kinds.ts`.
 */
import { array, defaulted, literal, nullable, object, optional, refine, size, type Infer } from 'superstruct';
import { FileChoice, ItemKey, NumberOf, OptionalText, RequiredText, UuidString } from '@domain/validation';
import { WorkId, type WorkGenre } from '@domain/works';
import { ReceiptDetails } from '@domain/payments';

/** Field limits of spec §3 / §9. */
export const PITCHING_LIMITS = {
  text: 256,
  settingZh: 200,
  settingEn: 800,
  storySummaryZh: 1000,
  storySummaryEn: 3000,
  characterDescription: 3000,
  suitableForFilmZh: 500,
  suitableForFilmEn: 2000,
  profileZh: 1000,
  profileEn: 3000,
  recommendedIp: 3000,
  teamMembers: 20,
  companies: 20,
  /** Works per applicant unit (the signed-in account) across its live pitching registrations. */
  worksPerApplicant: 5,
} as const;

/** Story genres 1–27 (spec §3); 27 is "other", which asks for `story_genre_other`. */
export const STORY_GENRE_IDS = Array.from({ length: 27 }, (_, i) => i + 1);
export const STORY_GENRE_OTHER_ID = 27;

const GenreId = NumberOf(STORY_GENRE_IDS, 2, 'Expected a story genre from 1 to 27');

/** A team member: every field required (spec §3). */
export const TeamMember = object({
  key: ItemKey,
  nameZh: RequiredText(PITCHING_LIMITS.text),
  nameEn: RequiredText(PITCHING_LIMITS.text),
  titleZh: RequiredText(PITCHING_LIMITS.text),
  titleEn: RequiredText(PITCHING_LIMITS.text),
  profileZh: RequiredText(PITCHING_LIMITS.profileZh),
  profileEn: RequiredText(PITCHING_LIMITS.profileEn),
});
export type TeamMember = Infer<typeof TeamMember>;

/** A company of the team: names and profiles required, recommended IP optional (spec §3). */
export const PitchingCompany = object({
  key: ItemKey,
  nameZh: RequiredText(PITCHING_LIMITS.text),
  nameEn: RequiredText(PITCHING_LIMITS.text),
  profileZh: RequiredText(PITCHING_LIMITS.profileZh),
  profileEn: RequiredText(PITCHING_LIMITS.profileEn),
  recommendedIpZh: OptionalText(PITCHING_LIMITS.recommendedIp),
  recommendedIpEn: OptionalText(PITCHING_LIMITS.recommendedIp),
});
export type PitchingCompany = Infer<typeof PitchingCompany>;

const storyFields = {
  settingZh: RequiredText(PITCHING_LIMITS.settingZh),
  settingEn: RequiredText(PITCHING_LIMITS.settingEn),
  storySummaryZh: RequiredText(PITCHING_LIMITS.storySummaryZh),
  storySummaryEn: RequiredText(PITCHING_LIMITS.storySummaryEn),
  storyGenreId: GenreId,
  storyGenreOther: OptionalText(PITCHING_LIMITS.text),
  storyOutlineFileId: UuidString,
  screenRightsHolderZh: RequiredText(PITCHING_LIMITS.text),
  screenRightsHolderEn: RequiredText(PITCHING_LIMITS.text),
  characterDescriptionZh: RequiredText(PITCHING_LIMITS.characterDescription),
  characterDescriptionEn: RequiredText(PITCHING_LIMITS.characterDescription),
  relationImageFileId: FileChoice,
  suitableForFilmZh: RequiredText(PITCHING_LIMITS.suitableForFilmZh),
  suitableForFilmEn: RequiredText(PITCHING_LIMITS.suitableForFilmEn),
  teamMembers: size(array(TeamMember), 1, PITCHING_LIMITS.teamMembers),
  companies: defaulted(size(array(PitchingCompany), 0, PITCHING_LIMITS.companies), []),
};

/** `story_genre_other` is required (≤ 256) when the genre is "other" (27). */
const otherGenre = <T extends { storyGenreId: number; storyGenreOther: string }>(value: T) =>
  value.storyGenreId !== STORY_GENRE_OTHER_ID || value.storyGenreOther.length > 0;

/** The story form (Story to Screen): what the contact page edits (PUT /registrations/{id}). */
export const StoryForm = refine(object(storyFields), 'story_genre_other', (v) =>
  otherGenre(v) ? true : { path: ['storyGenreOther'], message: 'Describe the genre when it is "other"' },
);
export type StoryForm = Infer<typeof StoryForm>;

const entryFields = {
  /** Both checkboxes of the works step: the pitching policy and the terms (spec §5). */
  agreePolicy: literal(true),
  agreeTerms: literal(true),
  /** The invoice of the registration (one per registration); the pay page may still change it. */
  receipt: optional(nullable(ReceiptDetails)),
};

/** A Project to Screen entry: works (≤ 5 per applicant) and the invoice block only. */
export const ProjectRegistration = object({
  ...entryFields,
  selectedContents: size(array(WorkId), 1, PITCHING_LIMITS.worksPerApplicant),
});
export type ProjectRegistration = Infer<typeof ProjectRegistration>;

/** A Story to Screen entry: one work and the story form. */
export const StoryRegistration = refine(
  object({ ...entryFields, ...storyFields, selectedContents: size(array(WorkId), 1, 1) }),
  'story_genre_other',
  (v) => (otherGenre(v) ? true : { path: ['storyGenreOther'], message: 'Describe the genre when it is "other"' }),
);
export type StoryRegistration = Infer<typeof StoryRegistration>;

/** A pitching kind's own rule: how many works one entry takes at most (null: up to the applicant's limit). */
export type PitchingRules = { worksPerEntry: number | null };

/**
 * The selection rules of one entry (spec §5), given the kind's rules and the genres of the chosen
 * works: projects and pieces cannot be ticked together; Story to Screen takes one work. Null: the
 * selection is fine.
 */
export function selectionProblem(
  rules: PitchingRules,
  genres: readonly WorkGenre[],
): 'mixed_work_genres' | 'one_work_per_story' | null {
  if (new Set(genres).size > 1) return 'mixed_work_genres';
  if (rules.worksPerEntry !== null && genres.length > rules.worksPerEntry) return 'one_work_per_story';
  return null;
}

/**
 * Error code 1 (spec §8): the server's text names the work by its number ("The work 12 is already
 * used in another pitching registration, please choose again"); the client finds the work with
 * that number in its list and shows the message with the work's title.
 */
export const workUsedMessage = (workId: number | string) =>
  `The work ${workId} is already used in another pitching registration, please choose again`;
export function workIdInError(message: string): number | null {
  const match = /\d+/.exec(message);
  return match ? Number(match[0]) : null;
}
