import { useCallback, useEffect, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { makeToast, Toast, type ToastMessage } from '@components/ui/Toast';
import { useAlert } from '@components/ui/use-alert';
import type { T } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { stillFailing } from '@lib/form-errors';
import { issuePaths } from '@lib/form-values';
import { focusFirstError, useLeaveGuard } from '@lib/wizard';

/**
 * The contact page's editor of a registration form (spec §2 …/contact?reg=, §4 Form editing, §8
 * update toasts), whatever the form: `initial` values, prefilled; errors from `errorsOf` (the
 * domain struct the server validates with too); saved with PUT /registrations/{id} as
 * `toBody(values)`; then back to the summary with `updated=1` ("Updated successfully"). After
 * formModifyExpiresAt the server refuses and the user is told and sent to the summary.
 * `children` renders the fields.
 */
export function FormEditor<V>(props: {
  t: T;
  locale: string;
  base: string;
  registrationId: string;
  summaryHref: string;
  /** The form's heading (which form this is). */
  heading: string;
  initial: V;
  toBody: (values: V) => Record<string, unknown>;
  errorsOf: (values: V) => Record<string, string>;
  children: (state: {
    values: V;
    onChange: (change: (v: V) => V) => void;
    errors: Record<string, string>;
  }) => ReactNode;
}) {
  const { t } = props;
  const [values, setValues] = useState<V>(props.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const closeToast = useCallback(() => setToast(null), [setToast]);
  const { showAlert, alertElement } = useAlert(t('dialog.ok'));
  const saveButton = useRef<HTMLButtonElement>(null);
  const changed = JSON.stringify(values) !== JSON.stringify(props.initial);
  const allowLeave = useLeaveGuard(changed && !busy);

  // An error goes as soon as its field is valid; no new one appears before the next save.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const kept = stillFailing(errors, props.errorsOf(values));
    if (kept) setErrors(kept);
  }, [values]); // eslint-disable-line react-hooks/exhaustive-deps

  async function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const found = props.errorsOf(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError();
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    const body = props.toBody(values);
    try {
      await api.registrations.update(props.registrationId, body);
      allowLeave();
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
      if (error.code === 'validation_failed' || error.code === 'invalid_upload') {
        const fields = new Set(Object.keys(body));
        const paths = issuePaths(error.data).filter((p) => fields.has(p.split('.')[0]!));
        if (paths.length > 0) {
          const known = props.errorsOf(values);
          setErrors(
            Object.fromEntries(
              paths.map((p) => [
                p,
                known[p] ?? (error.code === 'invalid_upload' ? t('apiError.invalid_upload') : t('form.invalid')),
              ]),
            ),
          );
          focusFirstError();
          return;
        }
      }
      // Spec §8: the update's error toast, 5 s.
      setToast(makeToast('error', alertText(error, t), 5000));
    }
  }

  return (
    <div>
      <form noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby="edit-heading" className="space-y-6">
        <h2 id="edit-heading" className="text-xl font-semibold">
          {props.heading}
        </h2>
        {props.children({ values, onChange: setValues, errors })}
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
