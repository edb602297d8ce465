import { describe, expect, it } from 'vitest';
import { check } from '@domain/validation';
import { kindOf } from './index';
import { ProjectRegistration, selectionProblem, StoryForm, workIdInError, workUsedMessage } from './pitching';

const rules = (type: 'pitching_project' | 'pitching_story') => kindOf(type).pitching!;

describe('pitching rules', () => {
  it('projects and pieces cannot be ticked together; Story to Screen takes one work', () => {
    expect(selectionProblem(rules('pitching_project'), ['project', 'project'])).toBeNull();
    expect(selectionProblem(rules('pitching_project'), ['project', 'piece'])).toBe('mixed_work_genres');
    expect(selectionProblem(rules('pitching_story'), ['piece'])).toBeNull();
    expect(selectionProblem(rules('pitching_story'), ['piece', 'piece'])).toBe('one_work_per_story');
  });
  it('code 1: the client finds the work by the number in the error text', () => {
    expect(workIdInError(workUsedMessage(42))).toBe(42);
    expect(workIdInError('no number here')).toBeNull();
  });
  it('a project entry takes 1 to 5 works and both agreements', () => {
    const base = { agreePolicy: true, agreeTerms: true, selectedContents: [1] };
    expect(check(base, ProjectRegistration).ok).toBe(true);
    expect(check({ ...base, selectedContents: [1, 2, 3, 4, 5, 6] }, ProjectRegistration).ok).toBe(false);
    expect(check({ ...base, agreeTerms: false }, ProjectRegistration).ok).toBe(false);
  });
  it('the story form asks for the genre when it is "other", and a team member', () => {
    const member = {
      nameZh: '甲',
      nameEn: 'A',
      titleZh: '導演',
      titleEn: 'Director',
      profileZh: '簡介',
      profileEn: 'Bio',
    };
    const form = {
      settingZh: '港',
      settingEn: 'Harbour',
      storySummaryZh: '摘要',
      storySummaryEn: 'Summary',
      storyGenreId: '3',
      storyOutlineFileId: '0b6c1c1e-4a39-4f5e-9f43-6f0d7e0c9a11',
      screenRightsHolderZh: '甲',
      screenRightsHolderEn: 'A',
      characterDescriptionZh: '角色',
      characterDescriptionEn: 'Role',
      suitableForFilmZh: '適合',
      suitableForFilmEn: 'Fits',
      teamMembers: [member],
    };
    const ok = check(form, StoryForm);
    expect(ok.ok && ok.value.storyGenreId).toBe(3);
    const other = check({ ...form, storyGenreId: 27 }, StoryForm);
    expect(other.ok ? [] : other.issues.map((i) => i.path)).toEqual(['storyGenreOther']);
    expect(check({ ...form, storyGenreId: 27, storyGenreOther: 'Maritime' }, StoryForm).ok).toBe(true);
    expect(check({ ...form, teamMembers: [] }, StoryForm).ok).toBe(false);
  });
});
