import { useRef, useState, type SyntheticEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Steps } from '@components/ui/Steps';
import * as Wizard from '@components/wizard/WizardParts';
import { useWizardAlert, type Refusal } from '@components/wizard/use-wizard-alert';
import { WizardWorks } from '@components/wizard/WizardWorks';
import { createT, type Messages } from '@i18n/t';
import type { ApiError } from '@lib/api';
import { draftKey } from '@lib/draft.store';
import { focusFirstError, useStepHeading, useWizard } from '@lib/wizard';
import { ExhibitorFields, type CountryOption } from './ExhibitorFields';
import { createMarketWizard, FORM, IDENTITY, identityDone, REVIEW, UPLOAD, WORKS } from './market-wizard.store';

export { marketStepNames } from './market-wizard.store';

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
 * The steps, draft and rules live in the wizard's store (market-wizard.store); this view shows it.
 */
export default function MarketWizard(props: MarketWizardProps) {
  const t = createT(props.messages);
  const offered = props.event.participationTypes;
  const review = props.event.review;
  const [wizard] = useState(() =>
    createMarketWizard({ t, offered, review, signedIn: props.signedIn, initialStep: props.initialStep }),
  );
  const key = props.signedIn && props.email ? draftKey(props.email, `market-${props.event.slug}`) : null;
  const { step, draft, errors, problem, busy, go, back, allowLeave, placeOrder } = useWizard(wizard, key);
  const works = useStore(wizard.works.$works);
  const { alertElement, preloadAlert, refused } = useWizardAlert(t, go);
  const heading = useStepHeading(step);
  const submitButton = useRef<HTMLButtonElement>(null);

  function nextFromWorks() {
    if (wizard.check(WORKS)) go(FORM);
  }

  function onFormSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!wizard.check(FORM)) return focusFirstError();
    if (review) go(REVIEW);
    else void submit();
  }

  async function submit() {
    const checked = wizard.submission();
    if ('to' in checked) {
      // Anything still missing (a draft changed in another tab): back to the step that has it.
      if (checked.to !== step) go(checked.to);
      return checked.to === FORM ? focusFirstError() : undefined;
    }
    void preloadAlert();
    const error = await placeOrder(
      { locale: props.locale, base: props.base, eventSlug: props.event.slug },
      checked.body,
    );
    if (error) onSubmitError(error);
  }

  function onSubmitError(error: ApiError) {
    const refusals: Record<string, Refusal> = {
      // The page again, which now says the event is full and offers the way on (the draft stays).
      event_capacity_full: {
        text: t('eventReg.capacityFull'),
        then: () => {
          allowLeave();
          location.assign(location.pathname);
        },
      },
      // The content site no longer has a chosen work: choose again from a fresh list.
      work_not_found: { text: t('market.error.workNotFound'), then: () => (wizard.works.reset(), go(WORKS)) },
      registration_closed: { text: t('eventReg.closed') },
      registration_not_open: { text: t('eventReg.notOpen') },
      content_site_unavailable: { text: t('market.error.contentSite') },
    };
    refused(error, { known: (code) => refusals[code], returnFocus: submitButton.current, issues: wizard.fieldIssues });
  }

  const signInPrompt = <Wizard.SignInBox t={t} href={props.signInHref} />;
  const backTo = { label: t('wizard.back'), onClick: back };

  return (
    <div>
      <Steps steps={props.steps} current={step} label={t('wizard.steps')} />
      {step === UPLOAD && (
        <Wizard.WizardStep heading={heading} title={t('market.step.upload_content')}>
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
        </Wizard.WizardStep>
      )}
      {step === IDENTITY && (
        <Wizard.WizardStep heading={heading} title={t('market.step.pick_identity')}>
          {!props.signedIn && signInPrompt}
          <fieldset>
            <legend className="mb-2 font-semibold">{t('market.identity.legend')}</legend>
            <div className="space-y-2">
              {offered.map((id) => (
                <Wizard.Choice
                  key={id}
                  type="radio"
                  name="market_identity"
                  value={id}
                  checked={draft.identity === id}
                  onChange={() => wizard.chooseIdentity(id)}
                >
                  {t(`enum.participation.${id}`)}
                </Wizard.Choice>
              ))}
            </div>
            {props.identityNote && <p className="mt-2 text-sm text-neutral-700">{props.identityNote}</p>}
          </fieldset>
          <Wizard.NoticeBox
            title={t('market.notice.title')}
            items={[
              review && t('market.notice.approval'),
              t('market.notice.noChange'),
              t('market.notice.noRefund'),
              t('market.notice.disclosure'),
            ]}
          />
          <Wizard.Agreements
            names={['agreeTerms', 'agreeDisclosure'] as const}
            checked={draft}
            onChange={wizard.agree}
            label={(name) => t(`market.identity.${name}`)}
          />
          <Wizard.StepActions
            back={backTo}
            next={{ label: t('wizard.next'), disabled: !identityDone(draft), onClick: () => go(WORKS) }}
          />
        </Wizard.WizardStep>
      )}
      {step === WORKS && (
        <Wizard.WizardStep heading={heading} title={t('market.step.pick_works')}>
          {!props.signedIn && signInPrompt}
          <p className="text-sm text-neutral-700">{t('market.works.intro')}</p>
          <WizardWorks t={t} page={props} loading={t('market.works.loading')} store={wizard} error={problem} />
          <Wizard.StepActions
            back={backTo}
            next={{ label: t('wizard.next'), disabled: !props.signedIn, onClick: nextFromWorks }}
          />
        </Wizard.WizardStep>
      )}
      {step === FORM && (
        <form noValidate onSubmit={onFormSubmit} aria-labelledby="wizard-heading" className="space-y-6">
          <Wizard.StepHeading ref={heading}>{t('market.step.fill_form')}</Wizard.StepHeading>
          <p className="text-sm text-neutral-700">{t('market.form.intro')}</p>
          <ExhibitorFields
            t={t}
            values={draft.form}
            onChange={wizard.editForm}
            errors={errors}
            countries={props.countries}
          />
          <Wizard.ErrorSummary errors={errors} text={(count) => t('wizard.errorSummary', { count })} />
          <Wizard.StepActions back={backTo}>
            <button ref={submitButton} type="submit" className="btn-primary" disabled={busy}>
              {review ? t('wizard.next') : t('market.submit')}
            </button>
          </Wizard.StepActions>
        </form>
      )}
      {step === REVIEW && review && (
        <Wizard.WizardStep heading={heading} title={t('market.step.wait_approval')}>
          <Wizard.StepNote>{t('market.review.approvalNote')}</Wizard.StepNote>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="text-neutral-600">{t('market.identity.legend')}</dt>
            <dd>{t(`enum.participation.${draft.identity ?? ''}`)}</dd>
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
          <Wizard.StepActions back={backTo}>
            <button
              ref={submitButton}
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => void submit()}
            >
              {t('market.submitForReview')}
            </button>
          </Wizard.StepActions>
        </Wizard.WizardStep>
      )}
      {alertElement}
    </div>
  );
}
