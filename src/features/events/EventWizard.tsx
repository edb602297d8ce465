import { useState, type SyntheticEvent } from 'react';
import { Steps } from '@components/ui/Steps';
import * as Wizard from '@components/wizard/WizardParts';
import { useWizardAlert, type Refusal } from '@components/wizard/use-wizard-alert';
import { createT, type Messages } from '@i18n/t';
import { useWizard } from '@lib/wizard';
import { createEventWizard } from './event-wizard.store';

export type EventWizardProps = {
  locale: string;
  base: string;
  messages: Messages;
  event: { slug: string; registrationType: string };
  /** The labels of the kind's steps, and the note its confirm step shows (from the page: the registry stays off the client). */
  steps: string[];
  note?: string;
  signedIn: boolean;
  signInHref: string;
  conferenceHome: string;
};

/**
 * Event registration (spec §2 wizard steps, as the event's kind lists them): audit = confirm →
 * wait for approval; general and online = confirm → completed. Free orders go to their summary,
 * charged ones to pay (spec §4). A full event: the spec's alert, then the page again, which says
 * it is full and offers the way on (the portal's registrations, the conference home).
 */
export default function EventWizard(props: EventWizardProps) {
  const t = createT(props.messages);
  const [wizard] = useState(createEventWizard);
  const { draft, busy, placeOrder } = useWizard(wizard, null);
  const { alertElement, refused } = useWizardAlert(t);

  async function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!wizard.canSubmit()) return;
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const returnFocus = submitter instanceof HTMLElement ? submitter : null;
    const error = await placeOrder(
      { locale: props.locale, base: props.base, eventSlug: props.event.slug },
      { agreeTerms: true },
      { registrationType: props.event.registrationType },
      (order, summary) => (order.paymentStatus === 'pending' ? `${summary}/pay` : summary),
    );
    if (!error) return;
    // Spec §8 alerts, in an in-page alert dialog; focus comes back to the Register button.
    const refusals: Record<string, Refusal> = {
      event_capacity_full: { text: t('eventReg.capacityFull'), then: () => location.assign(location.pathname) },
      demonstration_invalid: { text: t('eventReg.demonstrationInvalid') },
      registration_closed: { text: t('eventReg.closed') },
      registration_not_open: { text: t('eventReg.notOpen') },
    };
    refused(error, { known: (code) => refusals[code], returnFocus });
  }

  return (
    <div>
      <Steps steps={props.steps} current={0} label={t('wizard.steps')} />
      {!props.signedIn ? (
        <Wizard.SignInBox t={t} href={props.signInHref} className="card" />
      ) : (
        <form
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          className="card space-y-4"
          aria-labelledby="confirm-heading"
        >
          <h2 id="confirm-heading" className="text-xl font-semibold">
            {t('eventReg.confirmStep')}
          </h2>
          {props.note && <p className="text-sm text-neutral-700">{props.note}</p>}
          <Wizard.Choice checked={draft.agreed} onChange={wizard.agree}>
            {t('eventReg.terms')}
          </Wizard.Choice>
          <button type="submit" className="btn-primary" disabled={!draft.agreed || busy}>
            {t('eventReg.submit')}
          </button>
        </form>
      )}
      {alertElement}
    </div>
  );
}
