import { lazy, Suspense, useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { SignInPrompt } from '@components/ui/SignInPrompt';
import { Steps } from '@components/ui/Steps';
import { TextField } from '@components/ui/TextField';
import { makeToast, Toast, type ToastMessage } from '@components/ui/Toast';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { fieldErrors } from '@lib/form-errors';
import type { UploadedFile } from '../uploads/Uploader';
import { BadgeApplication, LIMITS } from '@domain/badges';

/*
 * The uploader (react-dropzone) and the confirm dialog (Radix) load when the form step opens, not
 * with the page: the identity step stays light on a phone (DESIGN §4 wizard budget).
 */
const loadUploader = () => import('../uploads/Uploader');
const loadDialog = () => import('@components/ui/ConfirmDialog');
const Uploader = lazy(() => loadUploader().then((m) => ({ default: m.Uploader })));
const ConfirmDialog = lazy(() => loadDialog().then((m) => ({ default: m.ConfirmDialog })));

type Applicant = { nameZh: string; nameEn: string; companyNameZh: string; companyNameEn: string; contactPhone: string };
type Printed = { nameZh: string; nameEn: string; companyNameZh: string; companyNameEn: string };

export type BadgeWizardProps = {
  /** professional: check identity → fill form → pay → completed; free: check identity → fill form → completed. */
  mode: 'professional' | 'free';
  locale: string;
  /** Locale prefix for links, e.g. `/zh-tw`. */
  base: string;
  messages: Messages;
  signedIn: boolean;
  email: string;
  signInHref: string;
  /** The user already holds a badge (or a live badge order). */
  hasBadge: boolean;
  /** Free-badge link code and type (free mode). */
  code?: string;
  linkType?: string;
  identityLabel?: string;
};

const emptyApplicant: Applicant = { nameZh: '', nameEn: '', companyNameZh: '', companyNameEn: '', contactPhone: '' };
const emptyPrinted: Printed = { nameZh: '', nameEn: '', companyNameZh: '', companyNameEn: '' };

/** The badge application wizard (spec §2 Badges, §4 Badge flow, §5 limits). */
export default function BadgeWizard(props: BadgeWizardProps) {
  const t = createT(props.messages);
  const [step, setStep] = useState(0);
  const [agreed, setAgreed] = useState(false);
  const [applicant, setApplicant] = useState<Applicant>(emptyApplicant);
  const [printed, setPrinted] = useState<Printed>(emptyPrinted);
  const [same, setSame] = useState(false);
  const [photo, setPhoto] = useState<UploadedFile | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const closeToast = useCallback(() => setToast(null), [setToast]);
  const heading = useRef<HTMLHeadingElement>(null);
  const steps =
    props.mode === 'professional'
      ? [t('wizard.checkIdentity'), t('wizard.fillForm'), t('wizard.pay'), t('wizard.completed')]
      : [t('wizard.checkIdentity'), t('wizard.fillForm'), t('wizard.completed')];

  // A user with a badge has nothing to apply for (spec §4): tell them, then show where it is.
  useEffect(() => {
    if (!props.hasBadge) return;
    window.alert(t('badge.alreadyHas'));
    location.assign(`${props.base}${props.mode === 'free' ? '/account/orders' : '/account/badge'}`);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const go = (next: number) => {
    if (next === 1) void loadDialog();
    setStep(next);
    requestAnimationFrame(() => heading.current?.focus());
  };

  const printedValue = same
    ? {
        nameZh: applicant.nameZh,
        nameEn: applicant.nameEn,
        companyNameZh: applicant.companyNameZh,
        companyNameEn: applicant.companyNameEn,
      }
    : printed;
  const application = {
    applicant: { ...applicant, contactEmail: props.email },
    badge: printedValue,
    sameAsApplicant: same,
    personalPhotoFileId: photo?.uid ?? '',
  };

  function validateForm(): boolean {
    const found = fieldErrors(application, BadgeApplication);
    const messages: Record<string, string> = {};
    for (const [path, e] of Object.entries(found))
      if (path !== 'personalPhotoFileId') messages[path] = t(e.key, e.values);
    setErrors(messages);
    if (Object.keys(messages).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return false;
    }
    if (!photo) {
      setToast(makeToast('error', t('badge.noPhoto'), 9000));
      return false;
    }
    return true;
  }

  function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (validateForm()) setConfirming(true);
  }

  async function submit() {
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    try {
      if (props.mode === 'professional') {
        const order = await api.post<{ orderId: string }>('/api/v1/demonstration_order', application);
        location.assign(`${props.base}/badges/${order.orderId}/pay`);
      } else {
        await api.put('/api/v1/demonstration', application, { code: props.code, type: props.linkType });
        location.assign(`${props.base}/account/badge`);
      }
    } catch (error) {
      setBusy(false);
      setConfirming(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      if (error.code === 'demonstration_exists') {
        window.alert(t('badge.alreadyHas'));
        location.assign(`${props.base}${props.mode === 'free' ? '/account/orders' : '/account/badge'}`);
      } else if (props.mode === 'free' && error.status === 404) {
        window.alert(t('getBadge.expired'));
      } else if (props.mode === 'free' && error.status === 409) {
        window.alert(t('getBadge.used'));
      } else if (error.code === 'invalid_photo') {
        setToast(makeToast('error', t('badge.noPhoto'), 9000));
      } else {
        window.alert(`[${error.status}] ${error.error}`);
      }
    }
  }

  const field = (
    group: 'applicant' | 'badge',
    name: keyof Printed | 'contactPhone',
    opts: { required?: boolean; hint?: string; inputMode?: 'tel'; autoComplete?: string } = {},
  ) => {
    const isApplicant = group === 'applicant';
    const values = isApplicant ? applicant : printedValue;
    const limits: Record<string, number> = isApplicant ? LIMITS.applicant : LIMITS.badge;
    const path = `${group}.${name}`;
    return (
      <TextField
        id={`${group}-${name}`}
        label={t(`badge.field.${name}`)}
        value={(values as Record<string, string>)[name] ?? ''}
        onChange={(v) =>
          isApplicant ? setApplicant({ ...applicant, [name]: v }) : setPrinted({ ...printed, [name]: v })
        }
        max={name === 'contactPhone' ? undefined : limits[name]}
        required={opts.required}
        requiredLabel={t('form.requiredMark')}
        readOnly={!isApplicant && same}
        hint={opts.hint}
        inputMode={opts.inputMode}
        autoComplete={opts.autoComplete}
        error={errors[path]}
      />
    );
  };

  return (
    <div>
      <Steps steps={steps} current={step} label={t('wizard.steps')} />
      {step === 0 && (
        <section aria-labelledby="wizard-heading" className="card space-y-4">
          <h2 id="wizard-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold">
            {t('wizard.checkIdentity')}
          </h2>
          {props.identityLabel && <p>{t('getBadge.identity', { identity: props.identityLabel })}</p>}
          {!props.signedIn ? (
            <SignInPrompt href={props.signInHref} prompt={t('wizard.signInPrompt')} button={t('signin.button')} />
          ) : (
            <>
              {props.mode === 'professional' && (
                <div className="rounded-md border border-neutral-300 bg-neutral-50 p-4 text-sm">
                  <h3 className="mb-2 font-semibold">{t('badge.noticeTitle')}</h3>
                  <ul className="list-disc space-y-1 pl-5">
                    <li>{t('badge.notice.price')}</li>
                    <li>{t('badge.notice.disclosure')}</li>
                    <li>{t('badge.notice.noRefund')}</li>
                    <li>{t('badge.notice.pickup')}</li>
                  </ul>
                </div>
              )}
              <p className="text-sm text-neutral-700">{t('badge.exhibitorNote')}</p>
              {props.mode === 'professional' && (
                <label className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1 h-4 w-4"
                    checked={agreed}
                    onChange={(e) => setAgreed(e.target.checked)}
                  />
                  <span>{t('badge.agree')}</span>
                </label>
              )}
              <button
                type="button"
                className="btn-primary"
                disabled={props.mode === 'professional' && !agreed}
                onClick={() => go(1)}
              >
                {t('wizard.next')}
              </button>
            </>
          )}
        </section>
      )}
      {step === 1 && (
        <form noValidate onSubmit={onSubmit} aria-labelledby="wizard-heading" className="space-y-6">
          <h2 id="wizard-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold">
            {t('wizard.fillForm')}
          </h2>
          <fieldset className="card grid gap-4 md:grid-cols-2">
            <legend className="px-1 text-lg font-semibold">{t('badge.applicantInfo')}</legend>
            {field('applicant', 'nameZh', { autoComplete: 'name' })}
            {field('applicant', 'nameEn', { required: true })}
            {field('applicant', 'companyNameZh', { autoComplete: 'organization' })}
            {field('applicant', 'companyNameEn')}
            {field('applicant', 'contactPhone', {
              required: true,
              hint: t('badge.phoneHint'),
              inputMode: 'tel',
              autoComplete: 'tel',
            })}
            <TextField
              id="applicant-contactEmail"
              label={t('badge.field.contactEmail')}
              value={props.email}
              onChange={() => {}}
              readOnly
              hint={t('badge.emailHint')}
            />
          </fieldset>
          <fieldset className="card grid gap-4 md:grid-cols-2">
            <legend className="px-1 text-lg font-semibold">{t('badge.printedInfo')}</legend>
            <p
              role="note"
              className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900 md:col-span-2"
            >
              {t('badge.cannotChange')}
            </p>
            <label className="flex items-center gap-2 md:col-span-2">
              <input type="checkbox" className="h-4 w-4" checked={same} onChange={(e) => setSame(e.target.checked)} />
              <span>{t('badge.sameAsApplicant')}</span>
            </label>
            {field('badge', 'nameZh')}
            {field('badge', 'nameEn', { required: true })}
            {field('badge', 'companyNameZh')}
            {field('badge', 'companyNameEn')}
          </fieldset>
          <div className="card">
            <Suspense fallback={<p className="text-sm">{t('badge.photo')}</p>}>
              <Uploader
                id="personal_photo"
                purpose="personal_photo"
                label={t('badge.photo')}
                hint={t('badge.photoHint')}
                value={photo}
                onChange={setPhoto}
                t={t}
              />
            </Suspense>
          </div>
          <div className="flex flex-wrap justify-between gap-3">
            <button type="button" className="btn-secondary" onClick={() => go(0)}>
              {t('wizard.back')}
            </button>
            <button type="submit" className="btn-primary" disabled={busy}>
              {props.mode === 'professional' ? t('badge.submitAndPay') : t('badge.submit')}
            </button>
          </div>
        </form>
      )}
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirming}
            onOpenChange={(open) => !busy && setConfirming(open)}
            title={t('badge.confirmTitle')}
            description={t('badge.confirmText')}
            confirmLabel={t('badge.confirm')}
            cancelLabel={t('dialog.cancel')}
            onConfirm={() => void submit()}
            busy={busy}
          />
        </Suspense>
      )}
      <Toast toast={toast} onClose={closeToast} closeLabel={t('dialog.close')} />
    </div>
  );
}
