import { useState } from 'react';
import { FormEditor } from '@components/forms/FormEditor';
import { StoryForm } from '@domain/kinds/pitching';
import { createT, type Messages } from '@i18n/t';
import { errorMessages } from '@lib/form-values';
import { StoryFields } from './StoryFields';
import { parseStory, toStoryForm } from './story-form';

export type StoryEditorProps = {
  locale: string;
  base: string;
  messages: Messages;
  registrationId: string;
  /** The stored story form (camelCase), its files as the uploader shows them. */
  initial: Record<string, unknown>;
  /** Where Save and Cancel go: the order's summary. */
  summaryHref: string;
};

/**
 * The contact page's editor of a Story to Screen entry (issue 10): the story form, prefilled,
 * saved before formModifyExpiresAt. The works are never edited (an entry cannot be changed after
 * submission).
 */
export default function StoryEditor(props: StoryEditorProps) {
  const t = createT(props.messages);
  const [initial] = useState(() => parseStory(props.initial));
  return (
    <FormEditor
      t={t}
      locale={props.locale}
      base={props.base}
      registrationId={props.registrationId}
      summaryHref={props.summaryHref}
      heading={t('contactPage.storyHeading')}
      initial={initial}
      toBody={toStoryForm}
      errorsOf={(v) => errorMessages(t, toStoryForm(v), StoryForm)}
    >
      {({ values, onChange, errors }) => <StoryFields t={t} values={values} onChange={onChange} errors={errors} />}
    </FormEditor>
  );
}
