import { WORKS_SECTION } from './form-schema';
import { defineKind } from './kind';
import { StoryForm, StoryRegistration } from './pitching';
import { PITCHING_KIND, PITCHING_SECTION, PITCHING_STEP_LABELS, STORY_SECTION } from './pitching-kinds';

/** Story to Screen (spec §2): pick one work, the story form and the invoice block, pay. */
export const pitchingStory = defineKind({
  ...PITCHING_KIND,
  eventType: 'pitching_story',
  registrationTypes: ['PITCHING_STORY'],
  body: StoryRegistration,
  form: { type: 'story', struct: StoryForm },
  schema: [STORY_SECTION, WORKS_SECTION, PITCHING_SECTION],
  wizard: { island: 'story', stepLabels: PITCHING_STEP_LABELS },
  pitching: { worksPerEntry: 1 },
});
