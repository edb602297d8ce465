import { useId, useState, type SyntheticEvent } from 'react';
import type { AdminEvent } from '@domain/contract/admin';
import { TextField } from '@components/ui/TextField';
import {
  applySettingsPatch,
  eventSettingsIssues,
  patchFromForm,
  type EventSettingField,
  type EventSettings,
  type EventSettingsForm as FormValues,
  type EventSettingsIssue,
} from '@domain/event-settings';
import type { RegistrationKind } from '@domain/kinds/kind';
import { ReadOnlyFields } from '../ReadOnlyFields';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { saveEvent, SETTING_FIELDS } from './event-save';
import { FormFailure, SubmitRow } from '../form-parts';

export type EventSettingsFormProps = {
  locale: string;
  base: string;
  messages: Messages;
  slug: string;
  /** The event kind's facts the rules need (the island does not load the registry). */
  holdsSeat: boolean;
  price: RegistrationKind['price'];
  seatsTaken: number;
  /** The settings as the page loaded them, as the form shows them (amounts in dollars, Taipei times). */
  initial: FormValues;
  /** The settings as the page loaded them (ISO dates, cents): the rules compare against them. */
  current: Pick<AdminEvent, keyof EventSettings>;
  /** The event's `updatedAt` when loaded: a change someone saved since is not overwritten. */
  updatedAt: string;
  /** A role without the `edition` right (viewer, reviewer, finance): the settings shown, not changed. */
  readOnly?: boolean;
};

type Issue = Pick<EventSettingsIssue, 'path' | 'code' | 'values'>;

/**
 * An event's settings (issue 11): capacity (not below the seats taken; not on events whose
 * registrations take no seats), registration window and form deadline in Taipei time, prices
 * for new orders. The domain's rules run as the organiser saves, and again in the API against
 * the seats taken at that moment; the API's field issues come back to their fields.
 */
export default function EventSettingsForm(props: EventSettingsFormProps) {
  const t = createT(props.messages);
  const id = useId();
  const [values, setValues] = useState<FormValues>(props.initial);
  const [errors, setErrors] = useState<Partial<Record<EventSettingField, string>>>({});
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const fields = SETTING_FIELDS.filter((f) => f.field !== 'capacity' || props.holdsSeat);
  const current: EventSettings = {
    ...props.current,
    registerStartAt: new Date(props.current.registerStartAt),
    registerEndAt: new Date(props.current.registerEndAt),
    formModifyExpiresAt: props.current.formModifyExpiresAt ? new Date(props.current.formModifyExpiresAt) : null,
  };

  const show = (issues: Issue[]) => {
    const out: Partial<Record<EventSettingField, string>> = {};
    for (const i of issues) out[i.path] ??= t(`admin.events.issue.${i.code}`, i.values);
    setErrors(out);
    setStatus(t('admin.events.invalid'));
    const first = SETTING_FIELDS.find((f) => out[f.field]);
    if (first) document.getElementById(`${id}-${first.field}`)?.focus();
  };

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure('');
    setStatus('');
    const read = patchFromForm(props.holdsSeat ? values : { ...values, capacity: '' });
    if (!read.ok) return show(read.issues);
    const issues = eventSettingsIssues(applySettingsPatch(current, read.patch), {
      seatsTaken: props.seatsTaken,
      holdsSeat: props.holdsSeat,
      price: props.price,
    });
    if (issues.length) return show(issues);
    setErrors({});
    setBusy(true);
    const form = { t, messages: props.messages, failedKey: 'admin.events.failed' as const };
    await saveEvent({ ...form, setBusy, setStatus, setFailure, show: (i) => show(i as Issue[]) }, async () => {
      const answer = await browserApi(props.locale, `${props.base}/`).admin.events.update(props.slug, {
        ...read.patch,
        expectedUpdatedAt: props.updatedAt,
      });
      // The route answers the event with what this change `changed` (the contract names it `changes`).
      return (answer as unknown as { data: { changed: Record<string, unknown> } }).data.changed;
    });
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <ReadOnlyFields readOnly={props.readOnly} className="space-y-4">
        <p className="text-sm text-neutral-700">{t('admin.events.timesNote')}</p>
        {!props.holdsSeat && <p className="text-sm text-neutral-700">{t('admin.events.seatsNotCounted')}</p>}
        <div className="grid gap-4 md:grid-cols-2">
          {fields.map((f) => (
            <TextField
              key={f.field}
              id={`${id}-${f.field}`}
              label={t(`admin.events.field.${f.field}`)}
              type={f.type}
              inputMode={f.inputMode}
              value={values[f.field]}
              onChange={(v) => setValues((all) => ({ ...all, [f.field]: v }))}
              hint={f.hint ? t(`admin.events.hint.${f.field}`, { taken: props.seatsTaken }) : undefined}
              error={errors[f.field]}
            />
          ))}
        </div>
        <p className="rounded-md border-l-4 border-amber-500 bg-amber-50 px-3 py-2 text-sm">
          {t('admin.events.priceNote')}
        </p>
      </ReadOnlyFields>
      <FormFailure text={failure} />
      {!props.readOnly && (
        <SubmitRow label={busy ? t('admin.events.saving') : t('admin.events.save')} busy={busy} status={status} />
      )}
    </form>
  );
}
