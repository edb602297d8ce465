import { useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { makeToast, Toast, type ToastMessage } from '@components/ui/Toast';
import { useAlert } from '@components/ui/useAlert';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { stillFailing } from '@lib/form-errors';
import { useLeaveGuard } from '@lib/wizard';
import { ExhibitorForm } from '@domain/market';
import { ExhibitorFields, type CountryOption } from './ExhibitorFields';
import { camelPath, errorMessages } from '@lib/form-values';
import { parseExhibitor, toExhibitorForm, type ExhibitorValues } from './exhibitor-form';

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

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' ? (v as Record<string, unknown>) : {};

/**
 * The contact page's editor (spec §2 …/contact?reg=, §4 Form editing): the exhibitor form and
 * contact info, prefilled, saved with PUT /registrations/{id} before formModifyExpiresAt; then
 * back to the summary.
 */
export default function ContactEditor(props: ContactEditorProps) {
  const t = createT(props.messages);
  const [initial] = useState(() => parseExhibitor(props.initial));
  const [values, setValues] = useState<ExhibitorValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const closeToast = useCallback(() => setToast(null), [setToast]);
  const { showAlert, alertElement } = useAlert(t('dialog.ok'));
  const saveButton = useRef<HTMLButtonElement>(null);
  const changed = JSON.stringify(values) !== JSON.stringify(initial);
  const allowLeave = useLeaveGuard(changed && !busy);
  const errorsOf = (v: ExhibitorValues) => errorMessages(t, toExhibitorForm(v), ExhibitorForm);

  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const kept = stillFailing(errors, errorsOf(values));
    if (kept) setErrors(kept); // eslint-disable-line react-hooks/set-state-in-effect
  }, [values]); // eslint-disable-line react-hooks/exhaustive-deps

  const focusFirstError = () =>
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('form [aria-invalid="true"]:not([type="file"])')?.focus(),
    );

  async function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const found = errorsOf(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError();
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    try {
      await api.put(`/api/v1/registrations/${encodeURIComponent(props.registrationId)}`, toExhibitorForm(values));
      allowLeave();
      // The summary may show spec §8's "Updated successfully" for `updated=1`.
      location.assign(`${props.summaryHref}?updated=1`);
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      const returnFocus = saveButton.current;
      if (error.code === 'form_modify_expired') {
        allowLeave();
        showAlert(t('contactPage.closed'), { onClose: () => location.assign(props.summaryHref), returnFocus });
        return;
      }
      if (error.code === 'validation_failed') {
        const issues = Array.isArray(error.data.issues) ? error.data.issues.map(record) : [];
        const fields = new Set(Object.keys(toExhibitorForm(values)));
        const paths = issues
          .map((i) => (typeof i.path === 'string' ? camelPath(i.path) : ''))
          .filter((p) => fields.has(p.split('.')[0]!));
        if (paths.length > 0) {
          const known = errorsOf(values);
          setErrors(Object.fromEntries(paths.map((p) => [p, known[p] ?? t('form.invalid')])));
          focusFirstError();
          return;
        }
      }
      // Spec §8: the update's error toast, 5 s.
      setToast(makeToast('error', `[${error.status}] ${error.error}`, 5000));
    }
  }

  return (
    <div>
      <form noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby="edit-heading" className="space-y-6">
        <h2 id="edit-heading" className="text-xl font-semibold">
          {t('contactPage.formHeading')}
        </h2>
        <ExhibitorFields t={t} values={values} onChange={setValues} errors={errors} countries={props.countries} />
        <div className="flex flex-wrap justify-between gap-3">
          <a className="btn-secondary" href={props.summaryHref}>
            {t('contactPage.cancel')}
          </a>
          <button ref={saveButton} type="submit" className="btn-primary" disabled={busy}>
            {t('contactPage.save')}
          </button>
        </div>
      </form>
      {alertElement}
      <Toast toast={toast} onClose={closeToast} closeLabel={t('dialog.close')} />
    </div>
  );
}
