import { RegistrationEditor, type RegistrationEditorPage } from '@components/wizard/RegistrationEditor';
import { ExhibitorForm } from '@domain/kinds/market';
import { ExhibitorFields, type CountryOption } from './ExhibitorFields';
import { parseExhibitor, toExhibitorForm } from './exhibitor-form';

export type ContactEditorProps = RegistrationEditorPage & { countries: CountryOption[] };

/**
 * The contact page's editor of a Market registration (spec §2 …/contact?reg=, §4 Form editing):
 * the exhibitor form and contact info, prefilled (the stored form and contact info, merged),
 * saved before formModifyExpiresAt.
 */
export default function ContactEditor(props: ContactEditorProps) {
  return (
    <RegistrationEditor
      page={props}
      heading="contactPage.formHeading"
      parse={parseExhibitor}
      toBody={toExhibitorForm}
      struct={ExhibitorForm}
      fields={(t, state) => <ExhibitorFields t={t} {...state} countries={props.countries} />}
    />
  );
}
