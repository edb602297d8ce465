import { RegistrationEditor, type RegistrationEditorPage } from '@components/wizard/RegistrationEditor';
import { StoryForm } from '@domain/kinds/pitching';
import { StoryFields } from './StoryFields';
import { parseStory, toStoryForm } from './story-form';

export type StoryEditorProps = RegistrationEditorPage;

/**
 * The contact page's editor of a Story to Screen entry (issue 10): the story form, prefilled,
 * saved before formModifyExpiresAt. The works are never edited (an entry cannot be changed after
 * submission).
 */
export default function StoryEditor(props: StoryEditorProps) {
  return (
    <RegistrationEditor
      page={props}
      heading="contactPage.storyHeading"
      parse={(raw) => parseStory(raw)}
      toBody={toStoryForm}
      struct={StoryForm}
      fields={(t, state) => <StoryFields t={t} {...state} />}
    />
  );
}
