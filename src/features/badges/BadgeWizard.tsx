import { lazy, useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { Steps } from '@components/ui/Steps';
import { TextField } from '@components/ui/TextField';
import { makeToast, Toast, type ToastMessage } from '@components/ui/Toast';
import { loadDialogs } from '@components/ui/load-dialogs';
import { LazyUploader } from '@components/wizard/LazyUploader';
import * as Wizard from '@components/wizard/WizardParts';
import { useWizardAlert } from '@components/wizard/use-wizard-alert';
import { LIMITS } from '@domain/badges';
import { createT, type Messages } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { draftKey } from '@lib/draft.store';
import { focusFirstError, useStepHeading, useWizard } from '@lib/wizard';
import { createBadgeWizard, FORM, IDENTITY, tooLongPrinted, type PrintedName } from './badge-wizard.store';

export { BADGE_STEPS } from './badge-wizard.store';

/*
 * The uploader (react-dropzone, components/wizard/LazyUploader) and the confirm dialog (Radix) load
 * when the form step opens, not with the page: the identity step stays light on a phone (DESIGN §4
 * wizard budget).
 */
const ConfirmDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConfirmDialog })));

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

/**
 * The badge application wizard (spec §2 Badges, §4 Badge flow, §5 limits). The steps, draft and
 * rules live in the wizard's store (badge-wizard.store); this view shows it.
 */
export default function BadgeWizard(props: BadgeWizardProps) {
  const t = createT(props.messages);
  const professional = props.mode === 'professional';
  const [wizard] = useState(() =>
    createBadgeWizard({ t, email: props.email, signedIn: props.signedIn, initialStep: props.initialStep }),
  );
  const key =
    props.signedIn && props.email
      ? draftKey(props.email, professional ? 'badge-professional' : `badge-${props.linkType}-${props.code}`)
      : null;
  const [confirming, setConfirming] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const closeToast = useCallback(() => setToast(null), [setToast]);
  // Back from a later page through the back-forward cache: the draft as it is now, no dialog open.
  const { step, draft, errors, busy, go, back, finish } = useWizard(wizard, key, () => setConfirming(false));
  const { showAlert, alertElement, preloadAlert } = useWizardAlert(t);
  // Each step change moves the focus to the step's heading; the form step preloads the dialogs.
  const heading = useStepHeading(step, (s) => s === FORM && void loadDialogs());
  const submitButton = useRef<HTMLButtonElement>(null);

  const steps = professional
    ? [t('wizard.checkIdentity'), t('wizard.fillForm'), t('wizard.pay'), t('wizard.completed')]
    : [t('wizard.checkIdentity'), t('wizard.fillForm'), t('wizard.completed')];
  const home = `${props.base}${professional ? '/account/badge' : '/account/orders'}`;

  // A user with a badge has nothing to apply for (spec §4): tell them, then show where it is.
  const alreadyHas = t('badge.alreadyHas');
  useEffect(() => {
    if (props.hasBadge) showAlert(alreadyHas, { onClose: () => finish(home) });
  }, [props.hasBadge, alreadyHas, home, showAlert, finish]);

  const tooLong = tooLongPrinted(draft);
  const shownErrors = wizard.shownErrors({ draft, errors });

  function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (wizard.check(FORM)) {
      void preloadAlert();
      return setConfirming(true);
    }
    if (wizard.get().errors.personalPhotoFileId) setToast(makeToast('error', t('badge.noPhoto'), 9000));
    focusFirstError();
  }

  async function submit() {
    wizard.setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    try {
      if (professional) {
        const order = await api.badges.apply(wizard.body());
        finish(`${props.base}/badges/${order.orderId}/pay`);
      } else {
        await api.badges.claim(props.code ?? '', props.linkType, wizard.body());
        finish(`${props.base}/account/badge`);
      }
    } catch (error) {
      wizard.setBusy(false);
      setConfirming(false);
      if (error instanceof ApiError && error.status !== 401) onSubmitError(error);
    }
  }

  function onSubmitError(error: ApiError) {
    const returnFocus = submitButton.current;
    const free = !professional;
    if (error.code === 'demonstration_exists') {
      showAlert(t('badge.alreadyHas'), { onClose: () => finish(home), returnFocus });
    } else if (free && error.code === 'link_not_for_user') {
      showAlert(t('getBadge.notForUser'), { returnFocus });
    } else if (free && error.code === 'link_revoked') {
      showAlert(t('getBadge.revoked'), { returnFocus });
    } else if (free && error.code === 'link_past_edition') {
      showAlert(t('getBadge.pastEdition'), { returnFocus });
    } else if (free && error.status === 404) {
      showAlert(t('getBadge.expired'), { returnFocus });
    } else if (free && error.status === 409) {
      showAlert(t('getBadge.used'), { returnFocus });
    } else if (error.code === 'invalid_photo') {
      wizard.photoRefused();
      setToast(makeToast('error', t('badge.noPhoto'), 9000));
    } else {
      showAlert(alertText(error, t), { returnFocus });
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
        value={isApplicant ? draft.applicant[name] : draft.printed[name as PrintedName]}
        onChange={(v) => (isApplicant ? wizard.setApplicant(name, v) : wizard.setPrinted(name as PrintedName, v))}
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
      {step === IDENTITY && (
        <Wizard.WizardStep heading={heading} title={t('wizard.checkIdentity')}>
          {props.identityLabel && <p>{t('getBadge.identity', { identity: props.identityLabel })}</p>}
          {!props.signedIn ? (
            <Wizard.SignInBox t={t} href={props.signInHref} className="" />
          ) : (
            <>
              <Wizard.NoticeBox
                title={professional ? t('badge.noticeTitle') : t('badge.freeNoticeTitle')}
                items={[
                  professional && t('badge.notice.price'),
                  t('badge.notice.disclosure'),
                  professional && t('badge.notice.noRefund'),
                  t('badge.notice.pickup'),
                ]}
              />
              {professional && <p className="text-sm text-neutral-700">{t('badge.exhibitorNote')}</p>}
              <Wizard.Choice checked={draft.agreed} onChange={wizard.agree}>
                {professional ? t('badge.agree') : t('badge.agreeFree')}
              </Wizard.Choice>
              <button type="button" className="btn-primary" disabled={!draft.agreed} onClick={() => go(FORM)}>
                {t('wizard.next')}
              </button>
            </>
          )}
        </Wizard.WizardStep>
      )}
      {step === FORM && (
        <form noValidate onSubmit={onSubmit} aria-labelledby="wizard-heading" className="space-y-6">
          <Wizard.StepHeading ref={heading}>{t('wizard.fillForm')}</Wizard.StepHeading>
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
            <Wizard.StepNote className="md:col-span-2">{t('badge.cannotChange')}</Wizard.StepNote>
            <div className="md:col-span-2">
              <Wizard.Choice checked={draft.same} onChange={wizard.setSame} describedBy="same-hint">
                {t('badge.sameAsApplicant')}
              </Wizard.Choice>
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
            <LazyUploader
              id="personal_photo"
              purpose="personal_photo"
              label={t('badge.photo')}
              hint={t('badge.photoHint')}
              value={draft.photo}
              onChange={wizard.setPhoto}
              t={t}
              error={errors.personalPhotoFileId}
              imageGuide={{ minWidth: 1000, minHeight: 1000, square: true }}
            />
          </div>
          <Wizard.ErrorSummary errors={errors} text={(count) => t('wizard.errorSummary', { count })} />
          <Wizard.StepActions back={{ label: t('wizard.back'), onClick: back }}>
            <button ref={submitButton} type="submit" className="btn-primary" disabled={busy}>
              {professional ? t('badge.submitAndPay') : t('badge.submit')}
            </button>
          </Wizard.StepActions>
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
