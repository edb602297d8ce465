import { useId } from 'react';
import { DESK_NAME_MAX } from '@domain/desk';
import { formatDateTime } from '@domain/format';
import type { DeskState } from './desk-store';
import type { DeskT } from './desk-words';
import { FieldLabel } from '@components/ui/FieldParts';
import { Section } from '@components/ui/Section';

/** The desk's connection, last sync, pick-ups waiting, conflicts and list; "Sync now" and the desk's name. */
export function DeskStatus(props: {
  t: DeskT;
  state: DeskState;
  onSync: () => void;
  onDeskName: (name: string) => void;
}) {
  const { t, state: s } = props;
  const id = useId();
  return (
    <Section id="desk-status-heading" heading={t('admin.desk.status.heading')} className="card space-y-3">
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[minmax(10rem,auto)_1fr]">
        <dt className="text-neutral-600">{t('admin.desk.status.connection')}</dt>
        <dd>
          <span role="status" className={`font-semibold ${s.online ? 'text-green-800' : 'text-red-700'}`}>
            {s.online ? t('admin.desk.status.online') : t('admin.desk.status.offline')}
          </span>
          {/* Kept in the layout (hidden) so that the panel does not move when a sync starts. */}
          <span className={`ms-2 text-neutral-700 ${s.syncing ? '' : 'invisible'}`} aria-hidden={!s.syncing}>
            {t('admin.desk.status.syncing')}
          </span>
        </dd>
        <dt className="text-neutral-600">{t('admin.desk.status.offlineCopy')}</dt>
        <dd>{t(`admin.desk.status.copy.${s.offlineCopy}`)}</dd>
        <dt className="text-neutral-600">{t('admin.desk.status.lastSync')}</dt>
        <dd>{s.lastSync ? formatDateTime(s.lastSync) : t('admin.desk.status.never')}</dd>
        <dt className="text-neutral-600">{t('admin.desk.status.pending')}</dt>
        <dd data-testid="pending-count">{s.queue.length}</dd>
        <dt className="text-neutral-600">{t('admin.desk.status.conflicts')}</dt>
        <dd>{s.conflicts.length}</dd>
        <dt className="text-neutral-600">{t('admin.desk.status.cached')}</dt>
        <dd>
          {s.ready ? s.badges.size : '…'}
          <span className="block text-neutral-600">
            {s.fetchedAt ? t('admin.desk.status.listFrom', { time: formatDateTime(s.fetchedAt) }) : '\u00a0'}
          </span>
        </dd>
      </dl>
      {!s.online && <p className="text-sm">{t('admin.desk.status.offlineHint')}</p>}
      {s.problem && (
        <p role="alert" className="font-semibold text-red-700">
          {t(`admin.desk.status.${s.problem === 'auth' ? 'authLost' : s.problem}`)}
        </p>
      )}
      <div className="flex flex-wrap items-end gap-4">
        <button type="button" className="btn-secondary" onClick={props.onSync} disabled={s.syncing}>
          {t('admin.desk.syncNow')}
        </button>
        <div className="flex flex-col gap-1">
          <FieldLabel id={id} label={t('admin.desk.desk.label')} />
          <input
            id={id}
            value={s.desk}
            maxLength={DESK_NAME_MAX}
            onChange={(e) => props.onDeskName(e.target.value)}
            aria-describedby={`${id}-hint`}
            className="rounded-md border border-neutral-500 bg-white px-3 py-1.5"
          />
          <span id={`${id}-hint`} className="text-xs text-neutral-600">
            {t('admin.desk.desk.hint')}
          </span>
        </div>
      </div>
    </Section>
  );
}
