import { lazy, useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { SignInPrompt } from '@components/ui/SignInPrompt';
import { Steps } from '@components/ui/Steps';
import { TextField } from '@components/ui/TextField';
import { makeToast, Toast, type ToastMessage } from '@components/ui/Toast';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { createT, type Messages } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { clearDraft, draftKey } from '@lib/draft.store';
import { fieldErrors, stillFailing } from '@lib/form-errors';
import { useHistoryStep, useKeptDraft, useLeaveGuard, usePageRestore, useStepHeading } from '@lib/wizard';
import type { UploadedFile } from '@components/uploads/Uploader';
import { BadgeApplication, LIMITS } from '@domain/badges';

/*
 * The uploader (react-dropzone) and the confirm dialog (Radix) load when the form step opens, not
 * with the page: the identity step stays light on a phone (DESIGN §4 wizard budget).
 */
const loadUploader = () => import('@components/uploads/Uploader');
const Uploader = lazy(() => loadUploader().then((m) => ({ default: m.Uploader })));
const ConfirmDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConfirmDialog })));

const PRINTED = ['nameZh', 'nameEn', 'companyNameZh', 'companyNameEn'] as const;
type PrintedName = (typeof PRINTED)[number];
type Applicant = Record<PrintedName | 'contactPhone', string>;
type Printed = Record<PrintedName, string>;

/** What the user has entered: kept as a draft per user and form (sessionStorage), across pages. */
type Draft = { agreed: boolean; applicant: Applicant; printed: Printed; same: boolean; photo: UploadedFile | null };

const EMPTY: Draft = {
  agreed: false,
  applicant: { nameZh: '', nameEn: '', companyNameZh: '', companyNameEn: '', contactPhone: '' },
  printed: { nameZh: '', nameEn: '', companyNameZh: '', companyNameEn: '' },
  same: false,
  photo: null,
};

/** URL names of the steps this page shows (`?step=form`); pay and completed are other pages. */
export const BADGE_STEPS = ['identity', 'form'] as const;

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' ? (v as Record<string, unknown>) : {};

/** A stored draft, checked field by field (it comes from storage: anything may be there). */
function parseDraft(raw: unknown): Draft | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = record(raw);
  const a = record(d.applicant);
  const p = record(d.printed);
  const photo = record(d.photo);
  return {
    agreed: d.agreed === true,
    applicant: {
      nameZh: text(a.nameZh),
      nameEn: text(a.nameEn),
      companyNameZh: text(a.companyNameZh),
      companyNameEn: text(a.companyNameEn),
      contactPhone: text(a.contactPhone),
    },
    printed: {
      nameZh: text(p.nameZh),
      nameEn: text(p.nameEn),
      companyNameZh: text(p.companyNameZh),
      companyNameEn: text(p.companyNameEn),
    },
    same: d.same === true,
    photo:
      typeof photo.uid === 'string' && typeof photo.name === 'string' && typeof photo.url === 'string'
        ? { uid: photo.uid, name: photo.name, url: photo.url }
        : null,
  };
}

/** Whether the user has typed or uploaded anything (a ticked box alone is not work to lose). */
const hasInput = (d: Draft) =>
  !!d.photo || Object.values(d.applicant).some((v) => v !== '') || Object.values(d.printed).some((v) => v !== '');

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
  /** The step named in the page's URL (`?step=form`), 0 otherwise. */
  initialStep?: number;
  /** Free-badge link code and type (free mode). */
  code?: string;
  linkType?: string;
  identityLabel?: string;
};

/** The badge application wizard (spec §2 Badges, §4 Badge flow, §5 limits). */
export default function BadgeWizard(props: BadgeWizardProps) {
  const t = createT(props.messages);
  const { step, go, back } = useHistoryStep(BADGE_STEPS, props.initialStep ?? 0);
  const [submitted, setSubmitted] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const closeToast = useCallback(() => setToast(null), [setToast]);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));
  // Each step change moves the focus to the step's heading; the form step preloads the dialogs.
  const heading = useStepHeading(step, (s) => s === 1 && void loadDialogs());
  const submitButton = useRef<HTMLButtonElement>(null);
  const key =
    props.signedIn && props.email
      ? draftKey(
          props.email,
          props.mode === 'professional' ? 'badge-professional' : `badge-${props.linkType}-${props.code}`,
        )
      : null;
  // The draft of this user and form (a reload, a language switch or Back never loses it).
  const { draft, setDraft, restored, reload } = useKeptDraft({
    key,
    empty: () => EMPTY,
    parse: parseDraft,
    keep: (d) => hasInput(d) || d.agreed,
    done: submitted,
  });

  const { agreed, applicant, printed, same, photo } = draft;
  const steps =
    props.mode === 'professional'
      ? [t('wizard.checkIdentity'), t('wizard.fillForm'), t('wizard.pay'), t('wizard.completed')]
      : [t('wizard.checkIdentity'), t('wizard.fillForm'), t('wizard.completed')];
  const home = `${props.base}${props.mode === 'free' ? '/account/orders' : '/account/badge'}`;

  // The form step needs a signed-in user who ticked the notice; a URL or history entry that
  // opens it otherwise lands on the first step.
  useEffect(() => {
    if (restored && step > 0 && (!props.signedIn || !agreed)) go(0, { replace: true });
  }, [restored, step, agreed, props.signedIn, go]);

  const allowLeave = useLeaveGuard(restored && !submitted && hasInput(draft));
  /** Leaves for a page where the application is over (the user holds a badge): nothing to keep. */
  const leaveTo = (to: string) => {
    allowLeave();
    if (key) clearDraft(key);
    location.assign(to);
  };

  // A user with a badge has nothing to apply for (spec §4): tell them, then show where it is.
  useEffect(() => {
    if (!props.hasBadge) return;
    showAlert(t('badge.alreadyHas'), { onClose: () => leaveTo(home) });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // Back from a later page through the back-forward cache: show the draft as it is now (gone
  // after a successful submit), not the page as it was left.
  usePageRestore(() => {
    setBusy(false);
    setConfirming(false);
    setSubmitted(false);
    reload();
  });

  const update = (change: (d: Draft) => Draft) => setDraft((d) => change(d));

  /** An applicant field; while "same as applicant" is ticked, its printed copy follows until edited. */
  const setApplicantField = (name: keyof Applicant, value: string) =>
    update((d) => {
      const next = { ...d, applicant: { ...d.applicant, [name]: value } };
      if (d.same && name !== 'contactPhone' && d.printed[name] === d.applicant[name])
        next.printed = { ...d.printed, [name]: value };
      return next;
    });
  const setPrintedField = (name: PrintedName, value: string) =>
    update((d) => ({ ...d, printed: { ...d.printed, [name]: value } }));
  /** Ticking copies the applicant's values into the printed fields, which stay editable; unticking keeps them. */
  const setSame = (checked: boolean) =>
    update(
      (d) =>
        ({
          ...d,
          same: checked,
          printed: checked ? Object.fromEntries(PRINTED.map((n) => [n, d.applicant[n]])) : d.printed,
        }) as Draft,
    );

  const application = {
    applicant: { ...applicant, contactEmail: props.email },
    badge: printed,
    sameAsApplicant: same,
    personalPhotoFileId: photo?.uid ?? '',
  };

  function errorsOf(value: typeof application): Record<string, string> {
    const found = fieldErrors(value, BadgeApplication);
    const messages: Record<string, string> = {};
    for (const [path, e] of Object.entries(found))
      messages[path] = path === 'personalPhotoFileId' ? t('badge.noPhoto') : t(e.key, e.values);
    return messages;
  }

  // An error goes as soon as its field is valid; no new error appears before the next submit.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const kept = stillFailing(errors, errorsOf(application));
    if (kept) setErrors(kept); // eslint-disable-line react-hooks/set-state-in-effect
  }, [draft]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Printed fields whose copied value is longer than the badge allows (shown while "same" is ticked). */
  const tooLong = same ? PRINTED.filter((n) => printed[n].length > LIMITS.badge[n]) : [];
  const shownErrors: Record<string, string> = { ...errors };
  for (const n of tooLong) shownErrors[`badge.${n}`] ??= t('form.tooLong', { max: LIMITS.badge[n] });

  function validateForm(): boolean {
    const messages = errorsOf(application);
    setErrors(messages);
    if (Object.keys(messages).length === 0) return true;
    if (messages.personalPhotoFileId) setToast(makeToast('error', t('badge.noPhoto'), 9000));
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('form [aria-invalid="true"]:not([type="file"])')?.focus(),
    );
    return false;
  }

  function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (validateForm()) {
      void preloadAlert();
      setConfirming(true);
    }
  }

  async function submit() {
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    const done = (to: string) => {
      setSubmitted(true);
      allowLeave();
      if (key) clearDraft(key);
      location.assign(to);
    };
    try {
      if (props.mode === 'professional') {
        const order = await api.post<{ orderId: string }>('/api/v1/demonstration_order', application);
        done(`${props.base}/badges/${order.orderId}/pay`);
      } else {
        await api.put('/api/v1/demonstration', application, { code: props.code, type: props.linkType });
        done(`${props.base}/account/badge`);
      }
    } catch (error) {
      setBusy(false);
      setConfirming(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      const returnFocus = submitButton.current;
      if (error.code === 'demonstration_exists') {
        showAlert(t('badge.alreadyHas'), { onClose: () => leaveTo(home), returnFocus });
      } else if (props.mode === 'free' && error.code === 'link_not_for_user') {
        showAlert(t('getBadge.notForUser'), { returnFocus });
      } else if (props.mode === 'free' && error.code === 'link_revoked') {
        showAlert(t('getBadge.revoked'), { returnFocus });
      } else if (props.mode === 'free' && error.status === 404) {
        showAlert(t('getBadge.expired'), { returnFocus });
      } else if (props.mode === 'free' && error.status === 409) {
        showAlert(t('getBadge.used'), { returnFocus });
      } else if (error.code === 'invalid_photo') {
        setErrors((e) => ({ ...e, personalPhotoFileId: t('badge.noPhoto') }));
        setToast(makeToast('error', t('badge.noPhoto'), 9000));
      } else {
        showAlert(alertText(error, t), { returnFocus });
      }
    }
  }

  const field = (
    group: 'applicant' | 'badge',
    name: PrintedName | 'contactPhone',
    opts: { required?: boolean; hint?: string; inputMode?: 'tel'; autoComplete?: string } = {},
  ) => {
    const isApplicant = group === 'applicant';
    const limits: Record<string, number> = isApplicant ? LIMITS.applicant : LIMITS.badge;
    const path = `${group}.${name}`;
    return (
      <TextField
        id={`${group}-${name}`}
        label={t(`badge.field.${name}`)}
        value={isApplicant ? applicant[name] : printed[name as PrintedName]}
        onChange={(v) => (isApplicant ? setApplicantField(name, v) : setPrintedField(name as PrintedName, v))}
        max={name === 'contactPhone' ? undefined : limits[name]}
        required={opts.required}
        requiredLabel={t('form.requiredMark')}
        hint={opts.hint}
        inputMode={opts.inputMode}
        autoComplete={opts.autoComplete}
        error={shownErrors[path]}
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
              <div className="rounded-md border border-neutral-300 bg-neutral-50 p-4 text-sm">
                <h3 className="mb-2 font-semibold">
                  {props.mode === 'professional' ? t('badge.noticeTitle') : t('badge.freeNoticeTitle')}
                </h3>
                <ul className="list-disc space-y-1 pl-5">
                  {props.mode === 'professional' && <li>{t('badge.notice.price')}</li>}
                  <li>{t('badge.notice.disclosure')}</li>
                  {props.mode === 'professional' && <li>{t('badge.notice.noRefund')}</li>}
                  <li>{t('badge.notice.pickup')}</li>
                </ul>
              </div>
              {props.mode === 'professional' && <p className="text-sm text-neutral-700">{t('badge.exhibitorNote')}</p>}
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-1 h-4 w-4"
                  checked={agreed}
                  onChange={(e) => {
                    const checked = e.target.checked;
                    update((d) => ({ ...d, agreed: checked }));
                  }}
                />
                <span>{props.mode === 'professional' ? t('badge.agree') : t('badge.agreeFree')}</span>
              </label>
              <button type="button" className="btn-primary" disabled={!agreed} onClick={() => go(1)}>
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
            <div className="md:col-span-2">
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="h-4 w-4"
                  checked={same}
                  onChange={(e) => setSame(e.target.checked)}
                  aria-describedby="same-hint"
                />
                <span>{t('badge.sameAsApplicant')}</span>
              </label>
              <p id="same-hint" className="mt-1 text-xs text-neutral-600">
                {t('badge.sameHint')}
              </p>
              <div aria-live="polite">
                {tooLong.length > 0 && (
                  <p className="mt-2 rounded-md border border-red-600 bg-red-50 px-3 py-2 text-sm text-red-800">
                    {t('badge.copiedTooLong', {
                      fields: tooLong
                        .map((n) => t('badge.fieldLimit', { field: t(`badge.field.${n}`), max: LIMITS.badge[n] }))
                        .join(t('badge.listSeparator')),
                    })}
                  </p>
                )}
              </div>
            </div>
            {field('badge', 'nameZh')}
            {field('badge', 'nameEn', { required: true })}
            {field('badge', 'companyNameZh')}
            {field('badge', 'companyNameEn')}
          </fieldset>
          <div className="card">
            <ClientSuspense fallback={<p className="text-sm">{t('badge.photo')}</p>}>
              <Uploader
                id="personal_photo"
                purpose="personal_photo"
                label={t('badge.photo')}
                hint={t('badge.photoHint')}
                value={photo}
                onChange={(file) => update((d) => ({ ...d, photo: file }))}
                t={t}
                error={errors.personalPhotoFileId}
                imageGuide={{ minWidth: 1000, minHeight: 1000, square: true }}
              />
            </ClientSuspense>
          </div>
          <div className="flex flex-wrap justify-between gap-3">
            <button type="button" className="btn-secondary" onClick={back}>
              {t('wizard.back')}
            </button>
            <button ref={submitButton} type="submit" className="btn-primary" disabled={busy}>
              {props.mode === 'professional' ? t('badge.submitAndPay') : t('badge.submit')}
            </button>
          </div>
        </form>
      )}
      {confirming && (
        <ClientSuspense fallback={null}>
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
        </ClientSuspense>
      )}
      {alertElement}
      <Toast toast={toast} onClose={closeToast} closeLabel={t('dialog.close')} />
    </div>
  );
}
