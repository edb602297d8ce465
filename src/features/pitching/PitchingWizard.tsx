import {
  type ComponentProps,
  type ComponentType,
  useCallback,
  useEffect,
  useRef,
  useState,
  type SyntheticEvent,
} from 'react';
import { useStore } from '@nanostores/react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { Steps } from '@components/ui/Steps';
import * as Wizard from '@components/wizard/WizardParts';
import { useWizardAlert, type Refusal } from '@components/wizard/use-wizard-alert';
import { WizardWorks } from '@components/wizard/WizardWorks';
import { InvoiceFields } from '@components/forms/InvoiceFields';
import { formatMoney, formatPriceTimes } from '@domain/format';
import { PITCHING_LIMITS, workIdInError } from '@domain/kinds/pitching';
import { toLocale } from '@i18n/locales';
import { createT, type Messages } from '@i18n/t';
import type { ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { draftKey } from '@lib/draft.store';
import { focusFirstError, useStepHeading, useWizard } from '@lib/wizard';
import { createPitchingWizard, FORM, WORKS } from './pitching-wizard.store';

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
 * the wizard's store (pitching-wizard.store) holds them before the submit, refuses a tick that
 * breaks one, and names the work of an error code 1 (spec §8). This view only shows the store.
 */
export function PitchingWizard(props: PitchingWizardProps & { story?: StoryPart }) {
  const StoryFields = props.story?.Fields;
  const t = createT(props.messages);
  const locale = toLocale(props.locale) ?? 'en';
  // The story island (StoryWizard) brings the story form; the project island has none.
  const story = StoryFields !== undefined;
  const [wizard] = useState(() =>
    createPitchingWizard({
      t,
      story,
      signedIn: props.signedIn,
      worksPerEntry: props.event.worksPerEntry,
      initialStep: props.initialStep,
    }),
  );
  const key = props.signedIn && props.email ? draftKey(props.email, `pitching-${props.event.slug}`) : null;
  const { signedIn, locale: lang, base } = props;
  const loadUsage = useCallback(async () => {
    if (!signedIn) return;
    try {
      wizard.$usage.set((await browserApi(lang, `${base}/`).pitching.usage()).data);
    } catch {
      wizard.$usage.set(null); // the server still enforces the limit
    }
  }, [wizard, signedIn, lang, base]);
  const { step, draft, errors, problem, busy, go, back, placeOrder } = useWizard(wizard, key, () => void loadUsage());
  const usage = useStore(wizard.$usage);
  const works = useStore(wizard.works.$works);
  const { alertElement, preloadAlert, refused } = useWizardAlert(t, go);
  const heading = useStepHeading(step);
  const submitButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void loadUsage();
  }, [loadUsage]);

  const left = wizard.left();
  const unavailable = new Map(
    [...wizard.used()].map((id) => [Number(id), t('pitching.wizard.alreadyEntered')] as [number, string]),
  );
  const chosen = works ? works.filter((w) => draft.selected.includes(w.id)) : [];

  function nextFromWorks() {
    void props.story?.preload(); // the form step's fields, while the user reads on
    if (wizard.check(WORKS)) return go(FORM);
    requestAnimationFrame(() => document.getElementById('pitching-works-error')?.focus());
  }

  function onFormSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (wizard.check(FORM)) void submit();
    else focusFirstError();
  }

  async function submit() {
    const checked = wizard.submission();
    if ('to' in checked) return checked.to === 'works' ? go(WORKS) : focusFirstError();
    void preloadAlert();
    const error = await placeOrder(
      { locale: props.locale, base: props.base, eventSlug: props.event.slug },
      checked.body,
    );
    if (error) onSubmitError(error);
  }

  /** Back to the works step with a fresh usage (after a refusal about the works). */
  const chooseAgain = (drop?: number) => () => {
    if (drop !== undefined) wizard.drop(drop);
    void loadUsage();
    go(WORKS);
  };

  function onSubmitError(error: ApiError) {
    const again = { then: chooseAgain() };
    const refusals: Record<string, Refusal> = {
      pitching_work_limit: { text: t('apiError.pitching_work_limit'), ...again },
      mixed_work_genres: { text: t('apiError.mixed_work_genres'), ...again },
      one_work_per_story: { text: t('apiError.one_work_per_story'), ...again },
      work_not_found: { text: t('apiError.work_not_found'), then: () => (wizard.works.reset(), go(WORKS)) },
      registration_closed: { text: t('apiError.registration_closed') },
      registration_not_open: { text: t('apiError.registration_not_open') },
      content_site_unavailable: { text: t('apiError.content_site_unavailable') },
      invalid_upload: { text: t('apiError.invalid_upload') },
    };
    refused(error, {
      known: (code) => (code === '1' ? workUsed(error) : refusals[code]),
      returnFocus: submitButton.current,
      issues: wizard.fieldIssues,
    });
  }

  /** Error code 1 (spec §8): the work is the number in the error's text; the alert names it by its title. */
  function workUsed(error: ApiError): Refusal {
    const id = workIdInError(error.error) ?? (typeof error.data.workId === 'number' ? error.data.workId : null);
    return { text: id === null ? t('apiError.1') : wizard.workUsed(id), then: chooseAgain(id ?? undefined) };
  }

  const count = draft.selected.length;
  const money = (cents: number, currency: 'TWD' | 'USD') => formatMoney(cents, currency, locale);

  return (
    <div>
      <Steps steps={props.steps} current={step} label={t('wizard.steps')} />
      {step === WORKS && (
        <Wizard.WizardStep heading={heading} title={t('pitching.step.pick_works')}>
          {!props.signedIn && <Wizard.SignInBox t={t} href={props.signInHref} />}
          <Wizard.NoticeBox
            title={t('pitching.rules.title')}
            items={[
              t('pitching.rules.separate'),
              t('pitching.rules.genres'),
              story && t('pitching.rules.story'),
              t('pitching.rules.limit', { limit: PITCHING_LIMITS.worksPerApplicant }),
              t('pitching.rules.invoice'),
              t('pitching.rules.noChange'),
            ]}
          />
          {usage && (
            <p role="status" className={left === 0 ? 'font-semibold text-red-700' : 'text-sm text-neutral-700'}>
              {left === 0
                ? t('pitching.wizard.limitReached', { limit: usage.worksLimit })
                : t('pitching.wizard.usage', { used: usage.worksUsed, limit: usage.worksLimit, left })}
            </p>
          )}
          {/* Issue 19 defect 9: the fee once, per work; the works below without their own prices. */}
          <p id="pitching-fee" className="font-semibold">
            {t('pitching.rules.price', {
              twd: money(props.event.unitTwd, 'TWD'),
              usd: money(props.event.unitUsd, 'USD'),
            })}
          </p>
          <WizardWorks
            t={t}
            page={props}
            loading={t('pitching.wizard.loadingWorks')}
            store={wizard}
            single={props.event.worksPerEntry === 1}
            unavailable={unavailable}
            prices={false}
          />
          <Wizard.StepProblem id="pitching-works-error" text={problem} />
          <Wizard.Agreements
            names={['agreePolicy', 'agreeTerms'] as const}
            checked={draft}
            onChange={wizard.agree}
            label={(name) => t(`pitching.wizard.${name}`)}
          />
          <Wizard.StepActions next={{ label: t('wizard.next'), disabled: !props.signedIn, onClick: nextFromWorks }}>
            <a className="btn-secondary" href={props.conferenceHome}>
              {t('pitching.wizard.cancel')}
            </a>
          </Wizard.StepActions>
        </Wizard.WizardStep>
      )}
      {step === FORM && (
        <form noValidate onSubmit={onFormSubmit} aria-labelledby="wizard-heading" className="space-y-6">
          <Wizard.StepHeading ref={heading}>{t('pitching.step.fill_form')}</Wizard.StepHeading>
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
                : draft.selected.map((id) => <li key={id}>{wizard.workTitle(id)}</li>)}
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
              {StoryFields && <StoryFields t={t} values={draft.story} onChange={wizard.editStory} errors={errors} />}
            </ClientSuspense>
          )}
          <InvoiceFields t={t} values={draft.invoice} onChange={wizard.editInvoice} errors={errors} />
          <Wizard.StepNote>{t('pitching.rules.noChange')}</Wizard.StepNote>
          <Wizard.ErrorSummary errors={errors} text={(count) => t('wizard.errorSummary', { count })} />
          <Wizard.StepActions back={{ label: t('wizard.back'), onClick: back }}>
            <button ref={submitButton} type="submit" className="btn-primary" disabled={busy}>
              {t('pitching.wizard.submit')}
            </button>
          </Wizard.StepActions>
        </form>
      )}
      {alertElement}
    </div>
  );
}
