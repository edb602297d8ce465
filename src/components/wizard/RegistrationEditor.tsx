import { useState, type ReactNode } from 'react';
import type { Struct } from 'superstruct';
import { FormEditor } from '@components/forms/FormEditor';
import { createT, type Messages, type T } from '@i18n/t';
import { errorMessages } from '@lib/form-values';

/** What the contact page gives the editor of a registration's form. */
export type RegistrationEditorPage = {
  locale: string;
  base: string;
  messages: Messages;
  registrationId: string;
  /** The stored form (camelCase), its files as the uploader shows them. */
  initial: Record<string, unknown>;
  /** Where Save and Cancel go: the order's summary. */
  summaryHref: string;
};

/**
 * The contact page's editor of a registration's form (exhibitor form, story form; spec §4 Form
 * editing): the stored form read as the form holds it, checked with the struct the API uses,
 * saved before formModifyExpiresAt. `fields` draws the form's fields.
 */
export function RegistrationEditor<V, S, U>(props: {
  page: RegistrationEditorPage;
  /** The message key of the editor's heading. */
  heading: string;
  parse: (raw: Record<string, unknown>) => V;
  toBody: (values: V) => Record<string, unknown>;
  struct: Struct<S, U>;
  fields: (
    t: T,
    state: { values: V; onChange: (change: (v: V) => V) => void; errors: Record<string, string> },
  ) => ReactNode;
}) {
  const { page } = props;
  const t = createT(page.messages);
  const [initial] = useState(() => props.parse(page.initial));
  return (
    <FormEditor
      t={t}
      locale={page.locale}
      base={page.base}
      registrationId={page.registrationId}
      summaryHref={page.summaryHref}
      heading={t(props.heading)}
      initial={initial}
      toBody={props.toBody}
      errorsOf={(v) => errorMessages(t, props.toBody(v), props.struct)}
    >
      {(state) => props.fields(t, state)}
    </FormEditor>
  );
}
