import { useState, type FormEvent } from 'react';
import type { MeetingSettings } from '@domain/contract';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { LabelledControl } from '@components/ui/FieldParts';

export type MeetingSettingsFormProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  settings: MeetingSettings | null;
};

const NUMBERS = ['slotMinutes', 'pendingCap', 'dailyCap', 'cancelCutoffHours', 'requestExpiryHours'] as const;
const DEFAULTS = { slotMinutes: 30, pendingCap: 5, dailyCap: 8, cancelCutoffHours: 24, requestExpiryHours: 48 };
/** The day's opening hours: each setting and its input's id. */
const HOURS = [
  ['opensAt', 'meeting-opens'],
  ['closesAt', 'meeting-closes'],
] as const;

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The business meeting centre's set-up (issue 23, right `edition`): days, hours, slot length,
 * tables, the caps, the cancel cut-off and the request expiry. Saving makes the slots again.
 */
export default function MeetingSettingsForm(props: MeetingSettingsFormProps) {
  const t = createT(props.messages);
  const s = props.settings;
  const [days, setDays] = useState((s?.days ?? []).join('\n'));
  const [hours, setHours] = useState({ opensAt: s?.opensAt ?? '10:00', closesAt: s?.closesAt ?? '17:00' });
  const [numbers, setNumbers] = useState<Record<(typeof NUMBERS)[number], number>>(s ?? DEFAULTS);
  const [tables, setTables] = useState((s?.tables ?? []).join('\n'));
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      await browserApi(props.locale, `${props.base}/`).admin.meetings.saveSettings({
        days: lines(days),
        ...hours,
        ...numbers,
        tables: lines(tables),
      });
      setStatus({ text: t('admin.meetings.saved'), failed: false });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setStatus({ text: apiMessage(props.messages, error), failed: true });
    }
  }

  const input = 'w-full rounded-md border border-neutral-400 px-3 py-2';
  return (
    <form className="card grid max-w-3xl gap-4 md:grid-cols-2" onSubmit={(e) => void save(e)}>
      <LabelledControl id="meeting-days" label={t('admin.meetings.days')}>
        <textarea id="meeting-days" className={input} rows={4} value={days} onChange={(e) => setDays(e.target.value)} />
      </LabelledControl>
      <LabelledControl id="meeting-tables" label={t('admin.meetings.tables')}>
        <textarea
          id="meeting-tables"
          className={input}
          rows={4}
          value={tables}
          onChange={(e) => setTables(e.target.value)}
        />
      </LabelledControl>
      {HOURS.map(([key, id]) => (
        <LabelledControl key={key} id={id} label={t(`admin.meetings.${key}`)}>
          <input
            id={id}
            type="time"
            className={input}
            value={hours[key]}
            onChange={(e) => setHours((h) => ({ ...h, [key]: e.target.value }))}
          />
        </LabelledControl>
      ))}
      {NUMBERS.map((key) => (
        <LabelledControl key={key} id={`meeting-${key}`} label={t(`admin.meetings.${key}`)}>
          <input
            id={`meeting-${key}`}
            type="number"
            min={0}
            className={input}
            value={numbers[key]}
            onChange={(e) => setNumbers((n) => ({ ...n, [key]: Number(e.target.value) }))}
          />
        </LabelledControl>
      ))}
      <div className="space-y-2 md:col-span-2">
        <button type="submit" className="btn-primary">
          {t('admin.meetings.save')}
        </button>
        {status && (
          <p role={status.failed ? 'alert' : 'status'} className={status.failed ? 'text-red-800' : 'text-green-900'}>
            {status.text}
          </p>
        )}
      </div>
    </form>
  );
}
