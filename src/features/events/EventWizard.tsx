import { useState, type SyntheticEvent } from 'react';
import { SignInPrompt } from '@components/ui/SignInPrompt';
import { Steps } from '@components/ui/Steps';
import { useAlert } from '@components/ui/use-alert';
import { createT, type Messages } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import { postOrder } from '@lib/wizard';

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
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const { showAlert, alertElement } = useAlert(t('dialog.ok'));

  async function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!agreed) return;
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const returnFocus = submitter instanceof HTMLElement ? submitter : null;
    setBusy(true);
    try {
      const { order, summary } = await postOrder(
        { locale: props.locale, base: props.base, eventSlug: props.event.slug },
        { agreeTerms: true },
        { registrationType: props.event.registrationType },
      );
      location.assign(order.paymentStatus === 'pending' ? `${summary}/pay` : summary);
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      // Spec §8 alerts, in an in-page alert dialog; focus comes back to the Register button.
      if (error.code === 'event_capacity_full') {
        showAlert(t('eventReg.capacityFull'), { onClose: () => location.assign(location.pathname), returnFocus });
      } else if (error.code === 'demonstration_invalid') {
        showAlert(t('eventReg.demonstrationInvalid'), { returnFocus });
      } else if (error.code === 'registration_closed') {
        showAlert(t('eventReg.closed'), { returnFocus });
      } else if (error.code === 'registration_not_open') {
        showAlert(t('eventReg.notOpen'), { returnFocus });
      } else {
        showAlert(alertText(error, t), { returnFocus });
      }
    }
  }

  return (
    <div>
      <Steps steps={props.steps} current={0} label={t('wizard.steps')} />
      {!props.signedIn ? (
        <SignInPrompt
          className="card"
          href={props.signInHref}
          prompt={t('wizard.signInPrompt')}
          button={t('signin.button')}
        />
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
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={agreed}
              onChange={(e) => setAgreed(e.target.checked)}
              required
            />
            <span>{t('eventReg.terms')}</span>
          </label>
          <button type="submit" className="btn-primary" disabled={!agreed || busy}>
            {t('eventReg.submit')}
          </button>
        </form>
      )}
      {alertElement}
    </div>
  );
}
