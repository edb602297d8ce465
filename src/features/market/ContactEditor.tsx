import { RegistrationEditor, type RegistrationEditorPage } from '@components/wizard/RegistrationEditor';
import { Choice } from '@components/wizard/WizardParts';
import { ExhibitorForm } from '@domain/kinds/market';
import { ExhibitorFields, type CountryOption } from './ExhibitorFields';
import { parseExhibitor, toExhibitorForm, type ExhibitorValues } from './exhibitor-form';

export type ContactEditorProps = RegistrationEditorPage & { countries: CountryOption[] };

/** The contact page's values: the exhibitor form, and whether the exhibitor directory lists it (issue 23). */
type ContactValues = ExhibitorValues & { directoryListed: boolean };

/**
 * The contact page's editor of a Market registration (spec §2 …/contact?reg=, §4 Form editing):
 * the exhibitor form and contact info, prefilled (the stored form and contact info, merged), and
 * the exhibitor directory choice (listed unless unticked), saved before formModifyExpiresAt.
 */
export default function ContactEditor(props: ContactEditorProps) {
  return (
    <RegistrationEditor
      page={props}
      heading="contactPage.formHeading"
      parse={(raw): ContactValues => ({ ...parseExhibitor(raw), directoryListed: raw.directoryListed !== false })}
      toBody={(v: ContactValues) => ({ ...toExhibitorForm(v), directoryListed: v.directoryListed })}
      struct={ExhibitorForm}
      fields={(t, state) => (
        <>
          <ExhibitorFields
            t={t}
            values={state.values}
            onChange={(change) => state.onChange((v) => ({ ...v, ...change(v) }))}
            errors={state.errors}
            countries={props.countries}
          />
          <fieldset className="space-y-2 rounded-md border border-neutral-300 p-4">
            <legend className="px-1 font-semibold">{t('contactPage.directoryHeading')}</legend>
            <Choice
              checked={state.values.directoryListed}
              onChange={(on) => state.onChange((v) => ({ ...v, directoryListed: on }))}
              describedBy="directory-note"
            >
              {t('contactPage.directoryListed')}
            </Choice>
            <p id="directory-note" className="text-sm text-neutral-700">
              {t('contactPage.directoryNote')}
            </p>
          </fieldset>
        </>
      )}
    />
  );
}
