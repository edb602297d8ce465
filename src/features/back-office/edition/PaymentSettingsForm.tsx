import { useId, useState, type SyntheticEvent } from 'react';
import type { EditionPaymentSettings } from '@domain/contract';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { ReadOnlyFields } from '../ReadOnlyFields';
import { SubmitRow } from '../form-parts';
import { useEditionSave } from './edition-issues';

export type PaymentSettingsFormProps = {
  locale: string;
  base: string;
  messages: Messages;
  settings: EditionPaymentSettings;
  /** A role without the `edition` right: the setting shown, not changed. */
  readOnly?: boolean;
};

const CHOICES = ['default', 'on', 'off'] as const;
type Choice = (typeof CHOICES)[number];
const choiceOf = (atmEnabled: boolean | null): Choice => (atmEnabled === null ? 'default' : atmEnabled ? 'on' : 'off');
const valueOf = (choice: Choice): boolean | null => (choice === 'default' ? null : choice === 'on');

/**
 * The current edition's ATM setting (issue 22, decision 057): ATM transfers through NewebPay
 * virtual accounts (paid orders marked by the gateway's notification), or declared by the last
 * five digits of the payer's account; or what `ATM_VIRTUAL_ACCOUNTS` says. What applies now is
 * said beside it; the change is in the audit trail.
 */
export default function PaymentSettingsForm(props: PaymentSettingsFormProps) {
  const t = createT(props.messages);
  const id = useId();
  const [settings, setSettings] = useState(props.settings);
  const [choice, setChoice] = useState<Choice>(choiceOf(props.settings.atmEnabled));
  const { status, busy, save } = useEditionSave(t, props.messages, (f) => `${id}-${f}`);

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const api = browserApi(props.locale, `${props.base}/`).admin.editions;
    await save(async () => {
      setSettings((await api.updatePaymentSettings({ atmEnabled: valueOf(choice) })).data);
    }, t('admin.edition.atm.saved'));
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <ReadOnlyFields readOnly={props.readOnly}>
        <fieldset className="space-y-2">
          <legend className="mb-2 font-semibold">{t('admin.edition.atm.legend')}</legend>
          {CHOICES.map((c) => (
            <label key={c} className="flex items-start gap-2" htmlFor={`${id}-${c}`}>
              <input
                id={`${id}-${c}`}
                type="radio"
                name={`${id}-atm`}
                value={c}
                checked={choice === c}
                onChange={() => setChoice(c)}
                className="mt-1"
              />
              <span>{t(`admin.edition.atm.${c}`)}</span>
            </label>
          ))}
        </fieldset>
      </ReadOnlyFields>
      <p className="text-sm text-neutral-700" id={`${id}-applies`}>
        {t(settings.atmVirtualAccounts ? 'admin.edition.atm.appliesOn' : 'admin.edition.atm.appliesOff')}
      </p>
      {!props.readOnly && <SubmitRow label={t('admin.edition.atm.save')} busy={busy} status={status} />}
    </form>
  );
}
