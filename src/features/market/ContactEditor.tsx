import { useState } from 'react';
import { FormEditor } from '@components/forms/FormEditor';
import { createT, type Messages } from '@i18n/t';
import { ExhibitorForm } from '@domain/kinds/market';
import { errorMessages } from '@lib/form-values';
import { ExhibitorFields, type CountryOption } from './ExhibitorFields';
import { parseExhibitor, toExhibitorForm } from './exhibitor-form';

export type ContactEditorProps = {
  locale: string;
  base: string;
  messages: Messages;
  registrationId: string;
  /** The stored form and contact info, merged (camelCase, as GET /registrations/{id} answers). */
  initial: Record<string, unknown>;
  countries: CountryOption[];
  /** Where Save and Cancel go: the order's summary. */
  summaryHref: string;
};

/**
 * The contact page's editor of a Market registration (spec §2 …/contact?reg=, §4 Form editing):
 * the exhibitor form and contact info, prefilled, saved before formModifyExpiresAt.
 */
export default function ContactEditor(props: ContactEditorProps) {
  const t = createT(props.messages);
  const [initial] = useState(() => parseExhibitor(props.initial));
  return (
    <FormEditor
      t={t}
      locale={props.locale}
      base={props.base}
      registrationId={props.registrationId}
      summaryHref={props.summaryHref}
      heading={t('contactPage.formHeading')}
      initial={initial}
      toBody={toExhibitorForm}
      errorsOf={(v) => errorMessages(t, toExhibitorForm(v), ExhibitorForm)}
    >
      {({ values, onChange, errors }) => (
        <ExhibitorFields t={t} values={values} onChange={onChange} errors={errors} countries={props.countries} />
      )}
    </FormEditor>
  );
}
