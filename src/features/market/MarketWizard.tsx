import { lazy, useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { SignInPrompt } from '@components/ui/SignInPrompt';
import { Steps } from '@components/ui/Steps';
import { useAlert } from '@components/ui/use-alert';
import { createT, type Messages } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import { clearDraft, draftKey } from '@lib/draft.store';
import { stillFailing } from '@lib/form-errors';
import {
  afterSubmitPath,
  focusFirstError,
  useHistoryStep,
  useKeptDraft,
  useLeaveGuard,
  usePageRestore,
  postOrder,
  useStepHeading,
  useWorksList,
} from '@lib/wizard';
import { ExhibitorForm, MarketRegistration } from '@domain/kinds/market';
import { ExhibitorFields, type CountryOption } from './ExhibitorFields';
import { camelPath, errorMessages } from '@lib/form-values';
import {
  emptyExhibitor,
  hasExhibitorInput,
  parseExhibitor,
  toExhibitorForm,
  type ExhibitorValues,
} from './exhibitor-form';

/* The works picker loads when its step opens (decision 006: the first steps stay light). */
const WorksPicker = lazy(() => import('@components/works/WorksPicker').then((m) => ({ default: m.WorksPicker })));

/**
 * URL names of the steps (`?step=form`): a kind the organiser approves first (online) submits
 * from a review step, the others (early-bird) from the form.
 */
export const marketStepNames = (review: boolean): readonly string[] => (review ? REVIEW_STEPS : FORM_STEPS);
const FORM_STEPS = ['upload', 'identity', 'works', 'form'] as const;
const REVIEW_STEPS = ['upload', 'identity', 'works', 'form', 'review'] as const;
const UPLOAD = 0;
const IDENTITY = 1;
const WORKS = 2;
const FORM = 3;
const REVIEW = 4;

/** What the user has entered: kept as a draft per user and event (sessionStorage). */
type Draft = {
  agreeTerms: boolean;
  agreeDisclosure: boolean;
  identity: number | null;
  selected: number[];
  form: ExhibitorValues;
};

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' ? (v as Record<string, unknown>) : {};

function emptyDraft(offered: readonly number[]): Draft {
  return {
    agreeTerms: false,
    agreeDisclosure: false,
    identity: offered.length === 1 ? offered[0]! : null,
    selected: [],
    form: emptyExhibitor(),
  };
}

/** A stored draft, checked field by field (it comes from storage: anything may be there). */
function parseDraft(raw: unknown, offered: readonly number[]): Draft | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = record(raw);
  const identity = typeof d.identity === 'number' && offered.includes(d.identity) ? d.identity : null;
  return {
    agreeTerms: d.agreeTerms === true,
    agreeDisclosure: d.agreeDisclosure === true,
    identity: identity ?? emptyDraft(offered).identity,
    selected: Array.isArray(d.selected) ? d.selected.filter((n): n is number => Number.isSafeInteger(n)) : [],
    form: parseExhibitor(d.form),
  };
}

const hasInput = (d: Draft) => d.selected.length > 0 || hasExhibitorInput(d.form);

export type MarketWizardProps = {
  locale: string;
  /** Locale prefix for links, e.g. `/zh-tw`. */
  base: string;
  messages: Messages;
  /**
   * The event and what its kind says (from the page: the registry stays off the client): the
   * participation types offered, and whether the organiser reviews the registration before payment.
   */
  event: { slug: string; participationTypes: readonly number[]; review: boolean };
  /** The labels of the kind's steps, and its note about the participation types (translated). */
  steps: string[];
  identityNote?: string;
  signedIn: boolean;
  email: string;
  signInHref: string;
  /** The content site, where works are registered (spec §2 Market: upload content). */
  uploadHref: string;
  conferenceHome: string;
  /** Countries with names in the page's language. */
  countries: CountryOption[];
  /** The step named in the page's URL, 0 otherwise. */
  initialStep?: number;
};

/**
 * The Market exhibitor registration (spec §2 Wizard steps by flow): early-bird = upload content →
 * pick identity → pick works → fill form → completed; online = … fill form → wait approval → pay.
 * After the submit (spec §4): waiting for approval → the pending page; charged → pay; free → summary.
 */
export default function MarketWizard(props: MarketWizardProps) {
  const t = createT(props.messages);
  const offered = props.event.participationTypes;
  const review = props.event.review;
  const names = marketStepNames(review);
  const { step, go, back } = useHistoryStep(names, props.initialStep ?? 0);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [worksError, setWorksError] = useState<string | undefined>();
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));
  const heading = useStepHeading(step);
  const submitButton = useRef<HTMLButtonElement>(null);
  const key = props.signedIn && props.email ? draftKey(props.email, `market-${props.event.slug}`) : null;
  const { draft, setDraft, restored, reload } = useKeptDraft({
    key,
    empty: () => emptyDraft(offered),
    parse: (raw) => parseDraft(raw, offered),
    keep: (d) => hasInput(d) || d.agreeTerms || d.agreeDisclosure,
    done: submitted,
  });
  const { works, setWorks, onWorks } = useWorksList(setDraft);
  const identityDone = draft.agreeTerms && draft.agreeDisclosure && draft.identity !== null;

  const formErrorsOf = (form: ExhibitorValues) => errorMessages(t, toExhibitorForm(form), ExhibitorForm);

  // A step opened by URL or history before its earlier steps are done lands on the first open one.
  useEffect(() => {
    if (!restored) return;
    let allowed = REVIEW;
    if (!identityDone) allowed = IDENTITY;
    else if (!props.signedIn || draft.selected.length === 0) allowed = WORKS;
    else if (Object.keys(formErrorsOf(draft.form)).length > 0) allowed = FORM;
    if (step > allowed) go(allowed, { replace: true });
  }, [restored, step]); // eslint-disable-line react-hooks/exhaustive-deps

  const allowLeave = useLeaveGuard(restored && !submitted && hasInput(draft));

  usePageRestore(() => {
    setBusy(false);
    setSubmitted(false);
    reload();
  });

  const update = (change: (d: Draft) => Draft) => setDraft((d) => change(d));
  const updateForm = useCallback(
    (change: (v: ExhibitorValues) => ExhibitorValues) => setDraft((d) => ({ ...d, form: change(d.form) })),
    [setDraft],
  );

  // An error goes as soon as its field is valid; no new one appears before the next submit.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const kept = stillFailing(errors, formErrorsOf(draft.form));
    if (kept) setErrors(kept); // eslint-disable-line react-hooks/set-state-in-effect
  }, [draft.form]); // eslint-disable-line react-hooks/exhaustive-deps

  function nextFromWorks() {
    if (draft.selected.length === 0) {
      setWorksError(t('market.works.required'));
      return;
    }
    setWorksError(undefined);
    go(FORM);
  }

  function onFormSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const found = formErrorsOf(draft.form);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError();
    if (review) go(REVIEW);
    else void submit();
  }

  async function submit() {
    const registration = {
      ...toExhibitorForm(draft.form),
      agreeTerms: true,
      agreeDisclosure: true,
      marketIdentity: draft.identity,
      selectedContents: draft.selected,
    };
    const invalid = errorMessages(t, registration, MarketRegistration);
    if (Object.keys(invalid).length > 0) {
      // Anything still missing (a draft changed in another tab): back to the step that has it.
      if (Object.keys(invalid).some((p) => p.startsWith('agree') || p === 'marketIdentity')) return go(IDENTITY);
      if (invalid.selectedContents) return go(WORKS);
      setErrors(invalid);
      if (step !== FORM) go(FORM);
      return focusFirstError();
    }
    void preloadAlert();
    setBusy(true);
    try {
      const { order, summary } = await postOrder(
        { locale: props.locale, base: props.base, eventSlug: props.event.slug },
        registration,
      );
      setSubmitted(true);
      allowLeave();
      if (key) clearDraft(key);
      location.assign(afterSubmitPath(order, summary));
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      onSubmitError(error);
    }
  }

  function onSubmitError(error: ApiError) {
    const returnFocus = submitButton.current;
    if (error.code === 'event_capacity_full') {
      // The page again, which now says the event is full and offers the way on (the draft stays).
      showAlert(t('eventReg.capacityFull'), {
        onClose: () => {
          allowLeave();
          location.assign(location.pathname);
        },
        returnFocus,
      });
    } else if (error.code === 'registration_closed') {
      showAlert(t('eventReg.closed'), { returnFocus });
    } else if (error.code === 'registration_not_open') {
      showAlert(t('eventReg.notOpen'), { returnFocus });
    } else if (error.code === 'work_not_found') {
      // The content site no longer has a chosen work: choose again from a fresh list.
      showAlert(t('market.error.workNotFound'), {
        onClose: () => {
          setWorks(null);
          go(WORKS);
        },
        returnFocus,
      });
    } else if (error.code === 'content_site_unavailable') {
      showAlert(t('market.error.contentSite'), { returnFocus });
    } else if (error.code === 'validation_failed' && fieldIssues(error)) {
      return;
    } else {
      showAlert(alertText(error, t), { returnFocus });
    }
  }

  /** Shows the API's field issues on the form; false when none names a form field. */
  function fieldIssues(error: ApiError): boolean {
    const issues = Array.isArray(error.data.issues) ? error.data.issues.map(record) : [];
    const paths = issues.map((i) => (typeof i.path === 'string' ? camelPath(i.path) : '')).filter(Boolean);
    if (paths.some((p) => p.startsWith('selectedContents'))) {
      setWorksError(t('market.works.required'));
      go(WORKS);
      return true;
    }
    const fields = new Set(Object.keys(toExhibitorForm(draft.form)));
    const ours = paths.filter((p) => fields.has(p.split('.')[0]!));
    if (ours.length === 0) return false;
    const known = formErrorsOf(draft.form);
    setErrors(Object.fromEntries(ours.map((p) => [p, known[p] ?? t('form.invalid')])));
    if (step !== FORM) go(FORM);
    focusFirstError();
    return true;
  }

  const headingEl = (label: string) => (
    <h2 id="wizard-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold">
      {label}
    </h2>
  );
  const signInPrompt = (
    <SignInPrompt
      className="rounded-md border border-orange-300 bg-orange-50 p-4"
      href={props.signInHref}
      prompt={t('wizard.signInPrompt')}
      button={t('signin.button')}
    />
  );
  const backButton = (
    <button type="button" className="btn-secondary" onClick={back}>
      {t('wizard.back')}
    </button>
  );
  const identityLabel = t(`enum.participation.${draft.identity ?? ''}`);

  return (
    <div>
      <Steps steps={props.steps} current={step} label={t('wizard.steps')} />
      {step === UPLOAD && (
        <section aria-labelledby="wizard-heading" className="card space-y-4">
          {headingEl(t('market.step.upload_content'))}
          <p>{t('market.upload.intro')}</p>
          <p>{t('market.upload.then')}</p>
          <div className="flex flex-wrap gap-3">
            <a className="btn-secondary" href={props.uploadHref} target="_blank" rel="noopener">
              {t('market.upload.link')}
              <span className="sr-only"> {t('market.newWindow')}</span>
            </a>
            <button type="button" className="btn-primary" onClick={() => go(IDENTITY)}>
              {t('wizard.next')}
            </button>
          </div>
        </section>
      )}
      {step === IDENTITY && (
        <section aria-labelledby="wizard-heading" className="card space-y-4">
          {headingEl(t('market.step.pick_identity'))}
          {!props.signedIn && signInPrompt}
          <fieldset>
            <legend className="mb-2 font-semibold">{t('market.identity.legend')}</legend>
            <div className="space-y-2">
              {offered.map((id) => (
                <label key={id} className="flex items-start gap-2">
                  <input
                    type="radio"
                    name="market_identity"
                    className="mt-1 h-4 w-4"
                    value={id}
                    checked={draft.identity === id}
                    onChange={() => update((d) => ({ ...d, identity: id }))}
                  />
                  <span>{t(`enum.participation.${id}`)}</span>
                </label>
              ))}
            </div>
            {props.identityNote && <p className="mt-2 text-sm text-neutral-700">{props.identityNote}</p>}
          </fieldset>
          <div className="rounded-md border border-neutral-300 bg-neutral-50 p-4 text-sm">
            <h3 className="mb-2 font-semibold">{t('market.notice.title')}</h3>
            <ul className="list-disc space-y-1 pl-5">
              {review && <li>{t('market.notice.approval')}</li>}
              <li>{t('market.notice.noChange')}</li>
              <li>{t('market.notice.noRefund')}</li>
              <li>{t('market.notice.disclosure')}</li>
            </ul>
          </div>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={draft.agreeTerms}
              onChange={(e) => {
                const checked = e.target.checked;
                update((d) => ({ ...d, agreeTerms: checked }));
              }}
            />
            <span>{t('market.identity.agreeTerms')}</span>
          </label>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={draft.agreeDisclosure}
              onChange={(e) => {
                const checked = e.target.checked;
                update((d) => ({ ...d, agreeDisclosure: checked }));
              }}
            />
            <span>{t('market.identity.agreeDisclosure')}</span>
          </label>
          <div className="flex flex-wrap justify-between gap-3">
            {backButton}
            <button type="button" className="btn-primary" disabled={!identityDone} onClick={() => go(WORKS)}>
              {t('wizard.next')}
            </button>
          </div>
        </section>
      )}
      {step === WORKS && (
        <section aria-labelledby="wizard-heading" className="card space-y-4">
          {headingEl(t('market.step.pick_works'))}
          {!props.signedIn && signInPrompt}
          <p className="text-sm text-neutral-700">{t('market.works.intro')}</p>
          <ClientSuspense fallback={<p className="text-sm">{t('market.works.loading')}</p>}>
            <WorksPicker
              t={t}
              locale={props.locale}
              signedIn={props.signedIn}
              signInHref={props.signInHref}
              works={works}
              selected={draft.selected}
              onChange={(ids) => {
                setWorksError(undefined);
                update((d) => ({ ...d, selected: ids }));
              }}
              onWorks={onWorks}
              uploadHref={props.uploadHref}
              error={worksError}
            />
          </ClientSuspense>
          <div className="flex flex-wrap justify-between gap-3">
            {backButton}
            <button type="button" className="btn-primary" disabled={!props.signedIn} onClick={nextFromWorks}>
              {t('wizard.next')}
            </button>
          </div>
        </section>
      )}
      {step === FORM && (
        <form noValidate onSubmit={onFormSubmit} aria-labelledby="wizard-heading" className="space-y-6">
          {headingEl(t('market.step.fill_form'))}
          <p className="text-sm text-neutral-700">{t('market.form.intro')}</p>
          <ExhibitorFields
            t={t}
            values={draft.form}
            onChange={updateForm}
            errors={errors}
            countries={props.countries}
          />
          <div className="flex flex-wrap justify-between gap-3">
            {backButton}
            <button ref={submitButton} type="submit" className="btn-primary" disabled={busy}>
              {review ? t('wizard.next') : t('market.submit')}
            </button>
          </div>
        </form>
      )}
      {step === REVIEW && review && (
        <section aria-labelledby="wizard-heading" className="card space-y-4">
          {headingEl(t('market.step.wait_approval'))}
          <p role="note" className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {t('market.review.approvalNote')}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="text-neutral-600">{t('market.identity.legend')}</dt>
            <dd>{identityLabel}</dd>
            <dt className="text-neutral-600">{t('market.review.works')}</dt>
            <dd>
              {works
                ? works
                    .filter((w) => draft.selected.includes(w.id))
                    .map((w) => w.name)
                    .join(t('market.listSeparator'))
                : t('market.review.worksCount', { count: draft.selected.length })}
            </dd>
            <dt className="text-neutral-600">{t('market.form.companyNameEn')}</dt>
            <dd>{draft.form.companyNameEn}</dd>
            <dt className="text-neutral-600">{t('market.form.contactName')}</dt>
            <dd>{draft.form.contactName}</dd>
          </dl>
          <div className="flex flex-wrap justify-between gap-3">
            {backButton}
            <button
              ref={submitButton}
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => void submit()}
            >
              {t('market.submitForReview')}
            </button>
          </div>
        </section>
      )}
      {alertElement}
    </div>
  );
}
