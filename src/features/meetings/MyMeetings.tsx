import { useState, type FormEvent } from 'react';
import type { Meeting, MeetingExhibitor, MeetingSlot, MyMeetings as MyMeetingsData } from '@domain/contract';
import { formatDateRange, formatDateTime } from '@domain/format';
import type { MeetingAction } from '@domain/meetings';
import { createT, type Messages, type T } from '@i18n/t';
import { ApiError, apiHref, apiMessage } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { CameraScanner } from '@components/scanner/CameraScanner';
import { Section } from '@components/ui/Section';
import { LabelledControl } from '@components/ui/FieldParts';

export type MyMeetingsProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  data: MyMeetingsData;
  /** The meeting and action an e-mail's link named (`?meeting=…&action=…`). */
  focus: { meetingId: string; action: string } | null;
};

const STATUS_STYLE: Record<Meeting['status'], string> = {
  requested: 'border-amber-500 bg-amber-50 text-amber-900',
  accepted: 'border-green-700 bg-green-50 text-green-900',
  declined: 'border-neutral-400 bg-neutral-100 text-neutral-800',
  cancelled: 'border-neutral-400 bg-neutral-100 text-neutral-800',
  expired: 'border-neutral-400 bg-neutral-100 text-neutral-800',
};

/**
 * My meetings (issue 23), for both sides: the meetings by day (the day view), each with its
 * actions (accept, decline, cancel), its calendar file and, for the buyer of an accepted meeting,
 * the check-in QR code; for an exhibitor, its preferences and the table check-in.
 */
export default function MyMeetings(props: MyMeetingsProps) {
  const t = createT(props.messages);
  const api = () => browserApi(props.locale, `${props.base}/`);
  const [meetings, setMeetings] = useState(props.data.meetings);
  const [notice, setNotice] = useState<{ id: string; text: string; failed: boolean } | null>(null);

  async function act(meeting: Meeting, action: MeetingAction) {
    try {
      const { data } = await api().meetings.act(meeting.id, action);
      setMeetings((all) => all.map((m) => (m.id === data.id ? data : m)));
      setNotice({ id: meeting.id, text: t(`meetings.done.${data.status}`), failed: false });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setNotice({ id: meeting.id, text: apiMessage(props.messages, error), failed: true });
    }
  }

  const days = [...new Set(meetings.map((m) => m.day))].sort();

  return (
    <div className="space-y-8">
      {meetings.length === 0 && <p className="card">{t('meetings.empty')}</p>}
      {days.length > 0 && (
        <Section id="day-view" heading={t('meetings.dayView')} className="space-y-6" large>
          {days.map((day) => (
            <section key={day} aria-labelledby={`day-${day}`} className="space-y-3">
              <h3 id={`day-${day}`} className="text-lg font-semibold">
                {day}
              </h3>
              <ul className="space-y-3">
                {meetings
                  .filter((m) => m.day === day)
                  .map((m) => (
                    <MeetingCard
                      key={m.id}
                      t={t}
                      meeting={m}
                      focused={props.focus?.meetingId === m.id}
                      notice={notice?.id === m.id ? notice : null}
                      onAct={(action) => void act(m, action)}
                    />
                  ))}
              </ul>
            </section>
          ))}
        </Section>
      )}
      {props.data.exhibitors.map((e) => (
        <ExhibitorPanel key={e.id} {...props} t={t} exhibitor={e} slots={props.data.slots} />
      ))}
    </div>
  );
}

function MeetingCard(props: {
  t: T;
  meeting: Meeting;
  focused: boolean;
  notice: { text: string; failed: boolean } | null;
  onAct: (action: MeetingAction) => void;
}) {
  const { t, meeting: m } = props;
  const who =
    m.side === 'buyer'
      ? t('meetings.withExhibitor', { company: m.exhibitor.companyName })
      : t('meetings.withBuyer', { buyer: m.buyer.name || m.buyer.email, company: m.exhibitor.companyName });
  return (
    <li
      id={`meeting-${m.id}`}
      className={`card grid gap-4 md:grid-cols-[1fr_auto] ${props.focused ? 'ring-2 ring-orange-600' : ''}`}
    >
      <div className="space-y-2">
        <p className="flex flex-wrap items-center gap-2">
          <span className={`rounded-full border px-2 py-0.5 text-sm font-semibold ${STATUS_STYLE[m.status]}`}>
            {t(`meetings.status.${m.status}`)}
          </span>
          <strong>{who}</strong>
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-neutral-600">{t('meetings.time')}</dt>
          <dd>{formatDateRange(m.startsAt, m.endsAt)}</dd>
          <dt className="text-neutral-600">{t('meetings.table')}</dt>
          <dd>{m.table ?? t('meetings.tableNone')}</dd>
          {m.message && (
            <>
              <dt className="text-neutral-600">{t('meetings.message')}</dt>
              <dd className="whitespace-pre-line">{m.message}</dd>
            </>
          )}
          {m.attendance && (
            <>
              <dt className="text-neutral-600">{t('admin.meetings.attendance')}</dt>
              <dd>{t(`meetings.attendance.${m.attendance}`)}</dd>
            </>
          )}
        </dl>
        {m.status === 'requested' && (
          <p className="text-sm text-neutral-700">{t('meetings.heldUntil', { when: formatDateTime(m.expiresAt) })}</p>
        )}
        {props.focused && m.status === 'requested' && m.side === 'exhibitor' && (
          <p role="status" className="text-sm font-semibold">
            {t('meetings.fromMail')}
          </p>
        )}
        {props.notice && (
          <p
            role={props.notice.failed ? 'alert' : 'status'}
            className={props.notice.failed ? 'text-red-800' : 'text-green-900'}
          >
            {props.notice.text}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {m.side === 'exhibitor' && m.status === 'requested' && (
            <>
              <button type="button" className="btn-primary" onClick={() => props.onAct('accept')}>
                {t('meetings.accept')}
              </button>
              <button type="button" className="btn-secondary" onClick={() => props.onAct('decline')}>
                {t('meetings.decline')}
              </button>
            </>
          )}
          {m.cancellable && (m.status === 'accepted' || m.side === 'buyer') && (
            <button type="button" className="btn-secondary" onClick={() => props.onAct('cancel')}>
              {t('meetings.cancel')}
            </button>
          )}
          {m.calendarUrl && (
            <a className="link self-center" href={apiHref.meetingCalendar(m.id)}>
              {t('meetings.calendar')}
            </a>
          )}
        </div>
      </div>
      {m.qrPng && (
        <figure className="flex flex-col items-center gap-2">
          <img
            src={`data:image/png;base64,${m.qrPng}`}
            alt={t('meetings.qrAlt', { company: m.exhibitor.companyName })}
            width="160"
            height="160"
            className="h-[160px] w-[160px]"
          />
          <figcaption className="text-center text-sm font-semibold">
            {t('meetings.qr')}
            <span className="block font-mono text-xs font-normal break-all" data-testid="meeting-code">
              {m.checkInCode}
            </span>
          </figcaption>
        </figure>
      )}
    </li>
  );
}

function ExhibitorPanel(props: MyMeetingsProps & { t: T; exhibitor: MeetingExhibitor; slots: MeetingSlot[] }) {
  const { t, exhibitor: e } = props;
  const api = () => browserApi(props.locale, `${props.base}/`);
  const [autoAccept, setAutoAccept] = useState(e.autoAccept);
  const [tables, setTables] = useState(e.tablesNeeded);
  const [unavailable, setUnavailable] = useState(new Set(e.unavailableSlotIds));
  const [saved, setSaved] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [scan, setScan] = useState<{ text: string; failed: boolean } | null>(null);
  const days = [...new Set(props.slots.map((s) => s.startsAt.slice(0, 10)))];

  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      await api().meetings.savePrefs(e.id, {
        autoAccept,
        tablesNeeded: tables,
        unavailableSlotIds: [...unavailable],
      });
      setSaved(t('meetings.exhibitor.saved'));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setSaved(apiMessage(props.messages, error));
    }
  }

  async function checkIn(attendance: 'present' | 'no_show', scanned?: string) {
    try {
      const { data } = await api().meetings.checkIn((scanned ?? code).trim(), attendance);
      setScan({
        text: t('meetings.scan.done', { buyer: data.buyer, attendance: t(`meetings.attendance.${data.attendance}`) }),
        failed: false,
      });
      setCode('');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setScan({ text: apiMessage(props.messages, error), failed: true });
    }
  }

  const headingId = `exhibitor-${e.id}`;
  return (
    <Section
      id={headingId}
      heading={t('meetings.exhibitor.heading', { company: e.companyName })}
      className="card space-y-6"
      large
    >
      <form className="space-y-4" onSubmit={(ev) => void save(ev)}>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={autoAccept} onChange={(ev) => setAutoAccept(ev.target.checked)} />
          {t('meetings.exhibitor.autoAccept')}
        </label>
        <LabelledControl id={`tables-${e.id}`} label={t('meetings.exhibitor.tables')}>
          <input
            id={`tables-${e.id}`}
            type="number"
            min={1}
            max={10}
            className="w-24 rounded-md border border-neutral-400 px-3 py-2"
            value={tables}
            aria-describedby={`tables-${e.id}-hint`}
            onChange={(ev) => setTables(Math.max(1, Math.min(10, Number(ev.target.value) || 1)))}
          />
          <p id={`tables-${e.id}-hint`} className="text-sm text-neutral-700">
            {t('meetings.exhibitor.tablesHint')}
          </p>
        </LabelledControl>
        {props.slots.length > 0 && (
          <fieldset className="space-y-2">
            <legend className="font-semibold">{t('meetings.exhibitor.available')}</legend>
            <p className="text-sm text-neutral-700">{t('meetings.exhibitor.availableHint')}</p>
            {days.map((day) => (
              <div key={day} className="flex flex-wrap gap-x-4 gap-y-1">
                {props.slots
                  .filter((s) => s.startsAt.slice(0, 10) === day)
                  .map((s) => (
                    <label key={s.id} className="flex items-center gap-1 text-sm">
                      <input
                        type="checkbox"
                        checked={!unavailable.has(s.id)}
                        onChange={(ev) =>
                          setUnavailable((set) => {
                            const next = new Set(set);
                            if (ev.target.checked) next.delete(s.id);
                            else next.add(s.id);
                            return next;
                          })
                        }
                      />
                      {formatDateRange(s.startsAt, s.endsAt)}
                    </label>
                  ))}
              </div>
            ))}
          </fieldset>
        )}
        <button type="submit" className="btn-primary">
          {t('meetings.exhibitor.save')}
        </button>
        {saved && <p role="status">{saved}</p>}
      </form>
      <div className="space-y-2">
        <h3 className="text-lg font-semibold">{t('meetings.scan.heading')}</h3>
        <label htmlFor={`scan-${e.id}`} className="block">
          {t('meetings.scan.label')}
        </label>
        <input
          id={`scan-${e.id}`}
          className="w-full max-w-md rounded-md border border-neutral-400 px-3 py-2 font-mono"
          value={code}
          autoComplete="off"
          onChange={(ev) => setCode(ev.target.value)}
        />
        <div className="flex gap-2">
          <button type="button" className="btn-primary" disabled={!code.trim()} onClick={() => void checkIn('present')}>
            {t('meetings.scan.present')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!code.trim()}
            onClick={() => void checkIn('no_show')}
          >
            {t('meetings.scan.noShow')}
          </button>
        </div>
        {/* The badge desk's scanner: a code read by the camera or from a photo checks the buyer in. */}
        <CameraScanner
          t={t}
          onCode={(scanned) => {
            setCode(scanned);
            void checkIn('present', scanned);
          }}
        />
        {scan && (
          <p role={scan.failed ? 'alert' : 'status'} className={scan.failed ? 'text-red-800' : 'text-green-900'}>
            {scan.text}
          </p>
        )}
      </div>
    </Section>
  );
}
