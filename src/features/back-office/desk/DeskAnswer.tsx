import { useEffect, useRef } from 'react';
import type { DeskBadge } from '@domain/desk';
import { formatDateTime } from '@domain/format';
import { refusalText, timeOf, type DeskT } from './desk-words';
import { badgeState, type BadgeState } from './desk-state';
import type { DeskResult } from './desk-store';

/**
 * The answer to the last scan or search: the badge with its photo and whether it can be handed
 * out, or why the code was not taken. Its `data-answer-ms` is the time from the scan to this
 * answer on screen (the browser test reads it; issue 11 asks < 300 ms).
 */
export function DeskAnswer(props: {
  t: DeskT;
  result: DeskResult | null;
  /** Meeting scans refused at a sync (their reasons). */
  meetingRefusals: string[];
  badge: DeskBadge | undefined;
  pending: ReadonlySet<string>;
  /** The badge was handed out at this desk (its name as typed). */
  desk: string;
  organiser: string;
  fetchedAt: string | null;
  /** The milliseconds since the scan, once per answer. */
  answered: () => number | null;
  onHandOut: (badge: DeskBadge) => void;
}) {
  const { t, result, badge } = props;
  const ref = useRef<HTMLElement>(null);
  const { answered } = props;
  useEffect(() => {
    const ms = answered();
    if (ms !== null && ref.current) ref.current.dataset.answerMs = String(ms);
  }, [result, answered]);

  return (
    <section
      ref={ref}
      aria-labelledby="desk-result-heading"
      aria-live="polite"
      className="card space-y-3"
      data-testid="desk-result"
    >
      <h2 id="desk-result-heading" className="text-lg font-semibold">
        {t('admin.desk.result.heading')}
      </h2>
      {!result && <p className="text-neutral-700">{t('admin.desk.result.empty')}</p>}
      {result?.kind === 'invalid' && <p className="font-semibold text-red-700">{t('admin.desk.result.invalid')}</p>}
      {result?.kind === 'forged' && <p className="font-semibold text-red-700">{t('admin.desk.result.forged')}</p>}
      {result?.kind === 'unknown' && (
        <p className="font-semibold text-red-700">
          {result.offline
            ? t('admin.desk.result.unknownOffline', {
                time: props.fetchedAt ? formatDateTime(props.fetchedAt) : t('admin.desk.status.never'),
              })
            : t('admin.desk.result.unknown')}
        </p>
      )}
      {result?.kind === 'meeting' && <MeetingAnswer t={t} result={result} />}
      {props.meetingRefusals.length > 0 && (
        <p role="alert" className="text-red-700">
          {t('admin.desk.meeting.refusedAtSync', { count: props.meetingRefusals.length })}{' '}
          {props.meetingRefusals.map((r) => meetingReason(t, r)).join(' · ')}
        </p>
      )}
      {result?.kind === 'badge' && badge && (
        <BadgeCard
          badge={badge}
          state={badgeState(badge, props.pending)}
          mine={!!result.handedOut && badge.pickedUpBy === props.organiser && badge.pickedUpDesk === props.desk.trim()}
          viaSearch={result.via === 'search'}
          t={t}
          onHandOut={() => props.onHandOut(badge)}
        />
      )}
    </section>
  );
}

function BadgeCard(props: {
  badge: DeskBadge;
  state: BadgeState;
  /** This desk just handed it out, and the server (or the queue) holds this desk's pick-up. */
  mine: boolean;
  viaSearch: boolean;
  t: DeskT;
  onHandOut: () => void;
}) {
  const { badge: b, state, t } = props;
  const company = [b.companyNameZh, b.companyNameEn].filter(Boolean).join(' · ');
  const pickedUp = {
    time: b.pickedUpAt ? timeOf(b.pickedUpAt) : '',
    by: b.pickedUpBy ?? '',
    desk: b.pickedUpDesk ?? '',
  };
  return (
    <div className="flex flex-col gap-4 sm:flex-row">
      {b.photoUrl ? (
        <img
          src={b.photoUrl}
          alt={t('admin.desk.photoAlt', { name: b.nameEn })}
          width={120}
          height={120}
          className="h-[120px] w-[120px] rounded-md border border-neutral-300 object-cover"
        />
      ) : (
        <p className="flex h-[120px] w-[120px] items-center justify-center rounded-md border border-neutral-300 text-sm text-neutral-700">
          {t('admin.desk.noPhoto')}
        </p>
      )}
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-2xl font-bold">
          {b.nameZh && (
            <span className="block" lang="zh-TW">
              {b.nameZh}
            </span>
          )}
          <span className="block" lang="en">
            {b.nameEn}
          </span>
        </p>
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {company && (
            <>
              <dt className="text-neutral-600">{t('admin.desk.field.company')}</dt>
              <dd>{company}</dd>
            </>
          )}
          <dt className="text-neutral-600">{t('admin.desk.field.identity')}</dt>
          <dd>{t(`identity.${b.identity}`)}</dd>
          <dt className="text-neutral-600">{t('admin.desk.field.order')}</dt>
          <dd className="font-mono">{b.orderNo}</dd>
          <dt className="text-neutral-600">{t('admin.desk.field.email')}</dt>
          <dd>{b.email}</dd>
        </dl>
        {props.viaSearch && <p className="text-sm">{t('admin.desk.viaSearch')}</p>}
        {state === 'ready' && (
          <>
            <p className="font-semibold text-green-800">{t('admin.desk.state.ready')}</p>
            <button type="button" className="btn-primary" onClick={props.onHandOut}>
              {t('admin.desk.handOut')}
            </button>
          </>
        )}
        {state === 'pending' && (
          <p className="font-semibold text-green-800">{t('admin.desk.state.pending', { time: pickedUp.time })}</p>
        )}
        {state === 'picked_up' &&
          (props.mine ? (
            <p className="font-semibold text-green-800">{t('admin.desk.state.handedOut', pickedUp)}</p>
          ) : (
            <p role="alert" className="font-semibold text-amber-800">
              {t('admin.desk.state.pickedUp', pickedUp)}
            </p>
          ))}
        {state === 'refused' && (
          <p role="alert" className="font-semibold text-red-700">
            {t('admin.desk.state.refused', { reason: refusalText(t, b.refusal) })}
          </p>
        )}
      </div>
    </div>
  );
}

/** Why a meeting scan was refused, in words. */
const meetingReason = (t: DeskT, code: string) =>
  t(
    ['invalid_meeting_code', 'meeting_state', 'not_found'].includes(code)
      ? `admin.desk.meeting.reason.${code}`
      : 'admin.desk.meeting.reason.other',
  );

/** The answer to a meeting's code at the table (issue 23). */
function MeetingAnswer({ t, result }: { t: DeskT; result: Extract<DeskResult, { kind: 'meeting' }> }) {
  if (result.state === 'queued') return <p className="font-semibold">{t('admin.desk.meeting.queued')}</p>;
  if (result.state === 'refused')
    return (
      <p className="font-semibold text-red-700">
        {t('admin.desk.meeting.refused')} {meetingReason(t, result.reason)}
      </p>
    );
  const m = result.meeting;
  return (
    <p className="font-semibold text-green-800" data-testid="desk-meeting-present">
      {t('admin.desk.meeting.present', {
        company: m.companyName,
        buyer: m.buyer,
        table: m.table ?? '—',
        time: timeOf(m.startsAt),
      })}
    </p>
  );
}
