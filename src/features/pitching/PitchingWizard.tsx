import {
  lazy,
  type ComponentProps,
  type ComponentType,
  useCallback,
  useEffect,
  useRef,
  useState,
  type SyntheticEvent,
} from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { SignInPrompt } from '@components/ui/SignInPrompt';
import { Steps } from '@components/ui/Steps';
import { useAlert } from '@components/ui/use-alert';
import { formatMoney, formatPriceTimes } from '@domain/format';
import {
  PITCHING_LIMITS,
  ProjectRegistration,
  selectionProblem,
  StoryForm,
  StoryRegistration,
  workIdInError,
} from '@domain/kinds/pitching';
import { toLocale } from '@i18n/locales';
import { createT, type Messages } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { clearDraft, draftKey } from '@lib/draft.store';
import { stillFailing } from '@lib/form-errors';
import { errorMessages, issuePaths, record } from '@lib/form-values';
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
import { InvoiceFields, toReceipt, type InvoiceValues } from '@components/forms/InvoiceFields';
import { PITCHING_STEPS } from './pitching-steps';
import { emptyStory, hasStoryInput, parseStory, toStoryForm, type StoryValues } from './story-form';

/* The works picker and the story form load when their step opens (decision 006: the first steps stay light). */
const WorksPicker = lazy(() => import('@components/works/WorksPicker').then((m) => ({ default: m.WorksPicker })));

const WORKS = 0;
const FORM = 1;

/** What the user has entered: kept as a draft per user and event (sessionStorage). */
type Draft = {
  agreePolicy: boolean;
  agreeTerms: boolean;
  selected: number[];
  story: StoryValues;
  invoice: InvoiceValues;
};

const emptyDraft = (): Draft => ({
  agreePolicy: false,
  agreeTerms: false,
  selected: [],
  story: emptyStory(),
  invoice: { kind: 'personal', title: '', ubn: '' },
});

/** A stored draft, checked field by field (it comes from storage: anything may be there). */
function parseDraft(raw: unknown): Draft | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = record(raw);
  const inv = record(d.invoice);
  return {
    agreePolicy: d.agreePolicy === true,
    agreeTerms: d.agreeTerms === true,
    selected: Array.isArray(d.selected) ? d.selected.filter((n): n is number => Number.isSafeInteger(n)) : [],
    story: parseStory(d.story),
    invoice: {
      kind: inv.kind === 'company' ? 'company' : 'personal',
      title: typeof inv.title === 'string' ? inv.title : '',
      ubn: typeof inv.ubn === 'string' ? inv.ubn : '',
    },
  };
}

const hasInput = (d: Draft) =>
  d.selected.length > 0 || hasStoryInput(d.story) || d.invoice.title !== '' || d.invoice.ubn !== '';

/** GET /api/v1/pitching/usage: the applicant's works in live pitching registrations. */
type Usage = { worksUsed: number; worksLimit: number; usedContentIds: string[] };

/**
 * The story form of a Story to Screen entry, loaded when its step opens: only the story wizard's
 * island (StoryWizard) refers to it, so a Project to Screen page never loads it (decision 006).
 */
export type StoryPart = {
  Fields: ComponentType<ComponentProps<typeof import('./StoryFields').StoryFields>>;
  preload: () => Promise<unknown>;
};

export type PitchingWizardProps = {
  locale: string;
  /** Locale prefix for links, e.g. `/zh-tw`. */
  base: string;
  messages: Messages;
  /**
   * The event, with its prices per work in cents (fixed on the order when it is placed), and what
   * its kind says: how many works one entry takes at most (null: up to the applicant's limit).
   */
  event: { slug: string; unitTwd: number; unitUsd: number; worksPerEntry: number | null };
  /** The labels of the kind's steps (registry), from the page. */
  steps: string[];
  signedIn: boolean;
  email: string;
  signInHref: string;
  /** The content site, where works are registered. */
  uploadHref: string;
  conferenceHome: string;
  /** The step named in the page's URL, 0 otherwise. */
  initialStep?: number;
};

/**
 * A pitching entry (spec §2 Wizard steps by flow: pick works → fill form → pay; §5 Pitching works
 * step and rules; §9 prices). Project to Screen: works, then the invoice block only. Story to
 * Screen: one work, then the story form and the invoice block. The server enforces every rule;
 * this shows them before the submit, and names the work of an error code 1 (spec §8).
 */
export function PitchingWizard(props: PitchingWizardProps & { story?: StoryPart }) {
  const StoryFields = props.story?.Fields;
  const t = createT(props.messages);
  const locale = toLocale(props.locale) ?? 'en';
  // The story island (StoryWizard) brings the story form; the project island has none.
  const story = StoryFields !== undefined;
  const { step, go, back } = useHistoryStep(PITCHING_STEPS, props.initialStep ?? 0);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [worksError, setWorksError] = useState<string | undefined>();
  const [usage, setUsage] = useState<Usage | null>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));
  const heading = useStepHeading(step);
  const submitButton = useRef<HTMLButtonElement>(null);
  const key = props.signedIn && props.email ? draftKey(props.email, `pitching-${props.event.slug}`) : null;
  const { draft, setDraft, restored, reload } = useKeptDraft({
    key,
    empty: emptyDraft,
    parse: parseDraft,
    keep: (d) => hasInput(d) || d.agreePolicy || d.agreeTerms,
    done: submitted,
  });
  const { works, setWorks, onWorks } = useWorksList(setDraft);

  const loadUsage = useCallback(async () => {
    if (!props.signedIn) return;
    try {
      const api = browserApi(props.locale, `${props.base}/`);
      setUsage((await api.get<{ data: Usage }>('/api/v1/pitching/usage')).data);
    } catch {
      setUsage(null); // the server still enforces the limit
    }
  }, [props.signedIn, props.locale, props.base]);

  useEffect(() => {
    void loadUsage(); // eslint-disable-line react-hooks/set-state-in-effect
  }, [loadUsage]);

  const used = new Set(usage?.usedContentIds ?? []);
  const left = usage ? Math.max(0, usage.worksLimit - usage.worksUsed) : PITCHING_LIMITS.worksPerApplicant;
  const unavailable = new Map(
    [...used].map((id) => [Number(id), t('pitching.wizard.alreadyEntered')] as [number, string]),
  );
  const chosen = works ? works.filter((w) => draft.selected.includes(w.id)) : [];

  /** The works step's problem (spec §5), or undefined when the user may go on. */
  function worksProblem(d: Draft): string | undefined {
    if (!d.agreePolicy || !d.agreeTerms) return t('pitching.wizard.agreeRequired');
    if (d.selected.length === 0) return t('pitching.wizard.worksRequired');
    const genres = (works ?? []).filter((w) => d.selected.includes(w.id)).map((w) => w.genreId);
    const problem = selectionProblem({ worksPerEntry: props.event.worksPerEntry }, genres);
    if (problem) return t(`apiError.${problem}`);
    if (d.selected.length > left)
      return t('pitching.wizard.tooMany', { left, limit: PITCHING_LIMITS.worksPerApplicant });
    const taken = d.selected.find((id) => used.has(String(id)));
    if (taken !== undefined) return workUsedText(taken);
    return undefined;
  }

  const workTitle = (id: number) => works?.find((w) => w.id === id)?.name ?? String(id);
  const workUsedText = (id: number) => t('pitching.wizard.workUsed', { title: workTitle(id) });

  const formErrorsOf = (d: Draft) => ({
    ...(story ? errorMessages(t, toStoryForm(d.story), StoryForm) : {}),
    ...errorMessages(t, { receipt: toReceipt(d.invoice) }, ProjectRegistration),
  });
  /** Only the fields of the form step (the works step's own fields are checked there). */
  const formStepErrors = (d: Draft) =>
    Object.fromEntries(Object.entries(formErrorsOf(d)).filter(([p]) => !/^(agree|selectedContents)/.test(p))) as Record<
      string,
      string
    >;

  // A step opened by URL or history before the works step is done lands on it.
  useEffect(() => {
    if (!restored) return;
    const worksDone = props.signedIn && draft.agreePolicy && draft.agreeTerms && draft.selected.length > 0;
    if (step > WORKS && !worksDone) go(WORKS, { replace: true });
  }, [restored, step]); // eslint-disable-line react-hooks/exhaustive-deps

  const allowLeave = useLeaveGuard(restored && !submitted && hasInput(draft));

  usePageRestore(() => {
    setBusy(false);
    setSubmitted(false);
    reload();
    void loadUsage();
  });

  const update = (change: (d: Draft) => Draft) => setDraft((d) => change(d));
  const updateStory = useCallback(
    (change: (v: StoryValues) => StoryValues) => setDraft((d) => ({ ...d, story: change(d.story) })),
    [setDraft],
  );

  // An error goes as soon as its field is valid; no new one appears before the next submit.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const kept = stillFailing(errors, formStepErrors(draft));
    if (kept) setErrors(kept); // eslint-disable-line react-hooks/set-state-in-effect
  }, [draft.story, draft.invoice]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (worksError && !worksProblem(draft)) setWorksError(undefined); // eslint-disable-line react-hooks/set-state-in-effect
  }, [draft.selected, draft.agreePolicy, draft.agreeTerms]); // eslint-disable-line react-hooks/exhaustive-deps

  function nextFromWorks() {
    void props.story?.preload(); // the form step's fields, while the user reads on
    const problem = worksProblem(draft);
    setWorksError(problem);
    if (problem) {
      requestAnimationFrame(() => document.getElementById('pitching-works-error')?.focus());
      return;
    }
    go(FORM);
  }

  function onFormSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const found = formStepErrors(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError();
    void submit();
  }

  async function submit() {
    const entry = {
      agreePolicy: draft.agreePolicy,
      agreeTerms: draft.agreeTerms,
      selectedContents: draft.selected,
      receipt: toReceipt(draft.invoice),
      ...(story ? toStoryForm(draft.story) : {}),
    };
    const problem = worksProblem(draft);
    const invalid = story ? errorMessages(t, entry, StoryRegistration) : errorMessages(t, entry, ProjectRegistration);
    if (problem || Object.keys(invalid).some((p) => /^(agree|selectedContents)/.test(p))) {
      // A draft changed in another tab: back to the works step.
      setWorksError(problem ?? t('pitching.wizard.worksRequired'));
      return go(WORKS);
    }
    if (Object.keys(invalid).length > 0) {
      setErrors(invalid);
      return focusFirstError();
    }
    void preloadAlert();
    setBusy(true);
    try {
      const { order, summary } = await postOrder(
        { locale: props.locale, base: props.base, eventSlug: props.event.slug },
        entry,
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

  /** Back to the works step with a fresh usage (after a refusal about the works). */
  const chooseAgain = (drop?: number) => () => {
    if (drop !== undefined) update((d) => ({ ...d, selected: d.selected.filter((id) => id !== drop) }));
    void loadUsage();
    go(WORKS);
  };

  function onSubmitError(error: ApiError) {
    const returnFocus = submitButton.current;
    if (error.code === '1') {
      // Spec §8: the work is the number in the error's text; the alert names it by its title.
      const id = workIdInError(error.error) ?? (typeof error.data.workId === 'number' ? error.data.workId : null);
      showAlert(id === null ? t('apiError.1') : workUsedText(id), {
        onClose: chooseAgain(id ?? undefined),
        returnFocus,
      });
    } else if (
      error.code === 'pitching_work_limit' ||
      error.code === 'mixed_work_genres' ||
      error.code === 'one_work_per_story'
    ) {
      showAlert(t(`apiError.${error.code}`), { onClose: chooseAgain(), returnFocus });
    } else if (error.code === 'work_not_found') {
      showAlert(t('apiError.work_not_found'), {
        onClose: () => {
          setWorks(null);
          go(WORKS);
        },
        returnFocus,
      });
    } else if (
      error.code === 'registration_closed' ||
      error.code === 'registration_not_open' ||
      error.code === 'content_site_unavailable' ||
      error.code === 'invalid_upload'
    ) {
      showAlert(t(`apiError.${error.code}`), { returnFocus });
    } else if (error.code === 'validation_failed' && fieldIssues(error)) {
      return;
    } else {
      showAlert(alertText(error, t), { returnFocus });
    }
  }

  /** Shows the API's field issues on the form; false when none names a field of the form step. */
  function fieldIssues(error: ApiError): boolean {
    const paths = issuePaths(error.data);
    if (paths.some((p) => /^(agree|selectedContents)/.test(p))) {
      setWorksError(t('pitching.wizard.worksRequired'));
      go(WORKS);
      return true;
    }
    const known = formErrorsOf(draft);
    const fields = new Set([...Object.keys(story ? toStoryForm(draft.story) : {}), 'receipt']);
    const ours = paths.filter((p) => fields.has(p.split('.')[0]!));
    if (ours.length === 0) return false;
    setErrors(Object.fromEntries(ours.map((p) => [p, known[p] ?? t('form.invalid')])));
    focusFirstError();
    return true;
  }

  const headingEl = (label: string) => (
    <h2 id="wizard-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold">
      {label}
    </h2>
  );
  const backButton = (
    <button type="button" className="btn-secondary" onClick={back}>
      {t('wizard.back')}
    </button>
  );
  const count = draft.selected.length;
  const money = (cents: number, currency: 'TWD' | 'USD') => formatMoney(cents, currency, locale);
  const checkbox = (name: 'agreePolicy' | 'agreeTerms') => (
    <label className="flex items-start gap-2">
      <input
        type="checkbox"
        className="mt-1 h-4 w-4"
        checked={draft[name]}
        onChange={(e) => {
          const checked = e.target.checked;
          update((d) => ({ ...d, [name]: checked }));
        }}
      />
      <span>{t(`pitching.wizard.${name}`)}</span>
    </label>
  );

  return (
    <div>
      <Steps steps={props.steps} current={step} label={t('wizard.steps')} />
      {step === WORKS && (
        <section aria-labelledby="wizard-heading" className="card space-y-4">
          {headingEl(t('pitching.step.pick_works'))}
          {!props.signedIn && (
            <SignInPrompt
              className="rounded-md border border-orange-300 bg-orange-50 p-4"
              href={props.signInHref}
              prompt={t('wizard.signInPrompt')}
              button={t('signin.button')}
            />
          )}
          <div className="rounded-md border border-neutral-300 bg-neutral-50 p-4 text-sm">
            <h3 className="mb-2 font-semibold">{t('pitching.rules.title')}</h3>
            <ul className="list-disc space-y-1 pl-5">
              <li>{t('pitching.rules.separate')}</li>
              <li>{t('pitching.rules.genres')}</li>
              {story && <li>{t('pitching.rules.story')}</li>}
              <li>{t('pitching.rules.limit', { limit: PITCHING_LIMITS.worksPerApplicant })}</li>
              <li>{t('pitching.rules.invoice')}</li>
              <li>{t('pitching.rules.noChange')}</li>
              <li>
                {t('pitching.rules.price', {
                  twd: money(props.event.unitTwd, 'TWD'),
                  usd: money(props.event.unitUsd, 'USD'),
                })}
              </li>
            </ul>
          </div>
          {usage && (
            <p role="status" className={left === 0 ? 'font-semibold text-red-700' : 'text-sm text-neutral-700'}>
              {left === 0
                ? t('pitching.wizard.limitReached', { limit: usage.worksLimit })
                : t('pitching.wizard.usage', { used: usage.worksUsed, limit: usage.worksLimit, left })}
            </p>
          )}
          <ClientSuspense fallback={<p className="text-sm">{t('pitching.wizard.loadingWorks')}</p>}>
            <WorksPicker
              t={t}
              locale={props.locale}
              signedIn={props.signedIn}
              signInHref={props.signInHref}
              works={works}
              selected={draft.selected}
              onChange={(ids) => update((d) => ({ ...d, selected: ids }))}
              onWorks={onWorks}
              uploadHref={props.uploadHref}
              single={props.event.worksPerEntry === 1}
              unavailable={unavailable}
            />
          </ClientSuspense>
          {checkbox('agreePolicy')}
          {checkbox('agreeTerms')}
          {worksError && (
            <p id="pitching-works-error" tabIndex={-1} role="alert" className="text-sm font-semibold text-red-700">
              {worksError}
            </p>
          )}
          <div className="flex flex-wrap justify-between gap-3">
            <a className="btn-secondary" href={props.conferenceHome}>
              {t('pitching.wizard.cancel')}
            </a>
            <button type="button" className="btn-primary" disabled={!props.signedIn} onClick={nextFromWorks}>
              {t('wizard.next')}
            </button>
          </div>
        </section>
      )}
      {step === FORM && (
        <form noValidate onSubmit={onFormSubmit} aria-labelledby="wizard-heading" className="space-y-6">
          {headingEl(t('pitching.step.fill_form'))}
          <p className="text-sm text-neutral-700">
            {story ? t('pitching.wizard.storyIntro') : t('pitching.wizard.projectIntro')}
          </p>
          <section className="card space-y-2" aria-labelledby="pitching-entry-heading">
            <h3 id="pitching-entry-heading" className="text-lg font-semibold">
              {t('pitching.wizard.entry')}
            </h3>
            <ul className="list-disc pl-5">
              {chosen.length > 0
                ? chosen.map((w) => <li key={w.id}>{w.name}</li>)
                : draft.selected.map((id) => <li key={id}>{workTitle(id)}</li>)}
            </ul>
            <p>{t('pitching.wizard.fee', { amount: formatPriceTimes(props.event.unitTwd, count, 'TWD', locale) })}</p>
            {props.event.unitUsd > 0 && (
              <p className="text-sm text-neutral-700">
                {t('pitching.wizard.feeOverseas', {
                  amount: formatPriceTimes(props.event.unitUsd, count, 'USD', locale),
                })}
              </p>
            )}
          </section>
          {story && (
            <ClientSuspense fallback={<p className="text-sm">{t('pitching.wizard.loadingForm')}</p>}>
              {StoryFields && <StoryFields t={t} values={draft.story} onChange={updateStory} errors={errors} />}
            </ClientSuspense>
          )}
          <InvoiceFields
            t={t}
            values={draft.invoice}
            onChange={(invoice) => update((d) => ({ ...d, invoice }))}
            errors={errors}
          />
          <p role="note" className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {t('pitching.rules.noChange')}
          </p>
          <div className="flex flex-wrap justify-between gap-3">
            {backButton}
            <button ref={submitButton} type="submit" className="btn-primary" disabled={busy}>
              {t('pitching.wizard.submit')}
            </button>
          </div>
        </form>
      )}
      {alertElement}
    </div>
  );
}
