import { useState, type FormEvent } from 'react';
import type { AdminMeeting, MeetingSlot } from '@domain/contract';
import { formatDateTime } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';

export type MeetingMovesProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  /** The accepted meetings that have not started. */
  meetings: AdminMeeting[];
  slots: MeetingSlot[];
  tables: string[];
};

/**
 * The organiser moves an accepted meeting (decision 064, right `edition`): another slot and/or
 * another table. The server decides (409 with the reason); both parties get the "changed" mail
 * with the updated calendar file.
 */
export default function MeetingMoves(props: MeetingMovesProps) {
  const t = createT(props.messages);
  const [rows, setRows] = useState(props.meetings);
  if (rows.length === 0) return <p>{t('admin.meetings.move.none')}</p>;
  return (
    <ul className="space-y-3">
      {rows.map((m) => (
        <MoveRow
          key={m.id}
          {...props}
          meeting={m}
          t={t}
          onMoved={(next) => setRows((all) => all.map((r) => (r.id === next.id ? next : r)))}
        />
      ))}
    </ul>
  );
}

function MoveRow(
  props: MeetingMovesProps & {
    meeting: AdminMeeting;
    t: ReturnType<typeof createT>;
    onMoved: (m: AdminMeeting) => void;
  },
) {
  const { meeting: m, t } = props;
  const [slotId, setSlotId] = useState(m.slotId);
  const [table, setTable] = useState('');
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `move-${m.id.slice(0, 8)}`;

  async function move(event: FormEvent) {
    event.preventDefault();
    if (slotId === m.slotId && !table) {
      setStatus({ text: t('admin.meetings.move.nothing'), failed: true });
      return;
    }
    setBusy(true);
    try {
      const res = await browserApi(props.locale, `${props.base}/`).admin.meetings.move(m.id, {
        ...(slotId !== m.slotId ? { slotId } : {}),
        ...(table ? { table } : {}),
      });
      props.onMoved(res.data);
      setTable('');
      setSlotId(res.data.slotId);
      setStatus({ text: t('admin.meetings.move.done'), failed: false });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setStatus({ text: apiMessage(props.messages, error), failed: true });
    } finally {
      setBusy(false);
    }
  }

  const select = 'w-full rounded-md border border-neutral-400 px-2 py-1';
  return (
    <li className="card space-y-2" data-meeting={m.id}>
      <p>
        <strong>{m.companyName}</strong> · {m.buyer}
        <br />
        <span className="text-sm text-neutral-700">
          {formatDateTime(m.startsAt)} · {t('admin.meetings.move.tables', { tables: m.tables.join(', ') || '—' })}
        </span>
      </p>
      <form className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={(e) => void move(e)}>
        <div>
          <label htmlFor={`${id}-slot`} className="block text-sm font-semibold">
            {t('admin.meetings.move.slot')}
          </label>
          <select id={`${id}-slot`} className={select} value={slotId} onChange={(e) => setSlotId(e.target.value)}>
            {props.slots.map((s) => (
              <option key={s.id} value={s.id}>
                {formatDateTime(s.startsAt)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-table`} className="block text-sm font-semibold">
            {t('admin.meetings.move.table')}
          </label>
          <select id={`${id}-table`} className={select} value={table} onChange={(e) => setTable(e.target.value)}>
            <option value="">{t('admin.meetings.move.keepTable')}</option>
            {props.tables.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('admin.meetings.move.button')}
        </button>
      </form>
      {status && (
        <p role={status.failed ? 'alert' : 'status'} className={status.failed ? 'text-red-700' : 'text-green-800'}>
          {status.text}
        </p>
      )}
    </li>
  );
}
