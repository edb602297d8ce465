import { apiHref } from '@lib/api';
import { itemKey, newItemKey, parseUploaded, record, text, type UploadedFile } from '@lib/form-values';
import { STORY_GENRE_IDS } from '@domain/kinds/pitching';

/*
 * The story form as the browser holds it (spec §3 Pitching story form): strings as the controls
 * give them, the genre as the select's value, the outline and relation image as the uploader's
 * files, team members and companies with their 21-character keys. The wizard keeps it in its
 * draft; the contact page starts from the stored registration. `toStoryForm` makes the camelCase
 * value the domain's `StoryForm` struct validates and the API takes (the client snakeizes it).
 */

export type MemberRow = {
  key: string;
  nameZh: string;
  nameEn: string;
  titleZh: string;
  titleEn: string;
  profileZh: string;
  profileEn: string;
};

export type CompanyRow = {
  key: string;
  nameZh: string;
  nameEn: string;
  profileZh: string;
  profileEn: string;
  recommendedIpZh: string;
  recommendedIpEn: string;
};

export type StoryValues = {
  settingZh: string;
  settingEn: string;
  storySummaryZh: string;
  storySummaryEn: string;
  /** '' until chosen, else '1'…'27' (27: other, which asks for `storyGenreOther`). */
  storyGenreId: string;
  storyGenreOther: string;
  storyOutline: UploadedFile | null;
  screenRightsHolderZh: string;
  screenRightsHolderEn: string;
  characterDescriptionZh: string;
  characterDescriptionEn: string;
  relationImage: UploadedFile | null;
  suitableForFilmZh: string;
  suitableForFilmEn: string;
  teamMembers: MemberRow[];
  companies: CompanyRow[];
};

export const emptyMember = (): MemberRow => ({
  key: newItemKey(),
  nameZh: '',
  nameEn: '',
  titleZh: '',
  titleEn: '',
  profileZh: '',
  profileEn: '',
});

export const emptyCompany = (): CompanyRow => ({
  key: newItemKey(),
  nameZh: '',
  nameEn: '',
  profileZh: '',
  profileEn: '',
  recommendedIpZh: '',
  recommendedIpEn: '',
});

/** An empty story form with one team member (at least one is required) and no company. */
export const emptyStory = (): StoryValues => ({
  settingZh: '',
  settingEn: '',
  storySummaryZh: '',
  storySummaryEn: '',
  storyGenreId: '',
  storyGenreOther: '',
  storyOutline: null,
  screenRightsHolderZh: '',
  screenRightsHolderEn: '',
  characterDescriptionZh: '',
  characterDescriptionEn: '',
  relationImage: null,
  suitableForFilmZh: '',
  suitableForFilmEn: '',
  teamMembers: [emptyMember()],
  companies: [],
});

const TEXTS = [
  'settingZh',
  'settingEn',
  'storySummaryZh',
  'storySummaryEn',
  'storyGenreOther',
  'screenRightsHolderZh',
  'screenRightsHolderEn',
  'characterDescriptionZh',
  'characterDescriptionEn',
  'suitableForFilmZh',
  'suitableForFilmEn',
] as const;

const MEMBER_TEXTS = ['nameZh', 'nameEn', 'titleZh', 'titleEn', 'profileZh', 'profileEn'] as const;
const COMPANY_TEXTS = ['nameZh', 'nameEn', 'profileZh', 'profileEn', 'recommendedIpZh', 'recommendedIpEn'] as const;

/** A stored file, or the stored registration's file id (shown with `currentName`). */
function fileOf(raw: unknown, id: unknown, currentName: string): UploadedFile | null {
  return (
    parseUploaded(raw) ?? (typeof id === 'string' && id ? { uid: id, name: currentName, url: apiHref.file(id) } : null)
  );
}

/**
 * Story values from anything (a stored draft, or the registration's stored form): field by field,
 * a fresh key for an item without a valid one, at least one team member. A stored form names its
 * files by id only (`storyOutlineFileId`): they show as `currentName`.
 */
export function parseStory(raw: unknown, currentName = ''): StoryValues {
  const d = record(raw);
  const genre = Number(d.storyGenreId);
  const members = Array.isArray(d.teamMembers) ? d.teamMembers.map(record) : [];
  const companies = Array.isArray(d.companies) ? d.companies.map(record) : [];
  const out = emptyStory();
  for (const name of TEXTS) out[name] = text(d[name]);
  out.storyGenreId = STORY_GENRE_IDS.includes(genre) ? String(genre) : '';
  out.storyOutline = fileOf(d.storyOutline ?? d.storyOutlineFile, d.storyOutlineFileId, currentName);
  out.relationImage = fileOf(d.relationImage ?? d.relationImageFile, d.relationImageFileId, currentName);
  if (members.length > 0)
    out.teamMembers = members.map((m) => ({
      key: itemKey(m.key),
      ...(Object.fromEntries(MEMBER_TEXTS.map((n) => [n, text(m[n])])) as Omit<MemberRow, 'key'>),
    }));
  out.companies = companies.map((c) => ({
    key: itemKey(c.key),
    ...(Object.fromEntries(COMPANY_TEXTS.map((n) => [n, text(c[n])])) as Omit<CompanyRow, 'key'>),
  }));
  return out;
}

/** Whether the user has typed, chosen or uploaded anything in the story form. */
export const hasStoryInput = (v: StoryValues) =>
  !!v.storyOutline ||
  !!v.relationImage ||
  v.storyGenreId !== '' ||
  TEXTS.some((n) => v[n] !== '') ||
  v.companies.length > 0 ||
  v.teamMembers.some((m) => MEMBER_TEXTS.some((n) => m[n] !== ''));

/** The form as the API takes it (camelCase; `StoryForm` of the domain validates it). */
export function toStoryForm(v: StoryValues) {
  return {
    settingZh: v.settingZh,
    settingEn: v.settingEn,
    storySummaryZh: v.storySummaryZh,
    storySummaryEn: v.storySummaryEn,
    storyGenreId: v.storyGenreId === '' ? undefined : Number(v.storyGenreId),
    storyGenreOther: v.storyGenreOther,
    storyOutlineFileId: v.storyOutline?.uid,
    screenRightsHolderZh: v.screenRightsHolderZh,
    screenRightsHolderEn: v.screenRightsHolderEn,
    characterDescriptionZh: v.characterDescriptionZh,
    characterDescriptionEn: v.characterDescriptionEn,
    relationImageFileId: v.relationImage?.uid ?? null,
    suitableForFilmZh: v.suitableForFilmZh,
    suitableForFilmEn: v.suitableForFilmEn,
    teamMembers: v.teamMembers.map((m) => ({ ...m })),
    companies: v.companies.map((c) => ({ ...c })),
  };
}
