import type { Conflict } from './desk-db';
import { refusalText, timeOf, type DeskT } from './desk-words';
import { Section } from '@components/ui/Section';

/** This desk's pick-ups the server did not take (another desk came first, or refused), until dismissed. */
export function DeskConflicts(props: { t: DeskT; conflicts: Conflict[]; onDismiss: (id: string) => void }) {
  const { t } = props;
  return (
    <Section id="desk-conflicts-heading" heading={t('admin.desk.conflicts.heading')} className="card space-y-3">
      {props.conflicts.length === 0 ? (
        <p className="text-neutral-700">{t('admin.desk.conflicts.none')}</p>
      ) : (
        <ul className="space-y-2">
          {props.conflicts.map((c) => (
            <li key={c.id} className="flex flex-wrap items-start justify-between gap-3 rounded-md bg-amber-50 p-3">
              <span>
                <span className="block font-semibold">
                  {c.nameZh ? `${c.nameZh} · ` : ''}
                  {c.nameEn} ({c.orderNo})
                </span>
                <span className="block">{t('admin.desk.conflicts.yours', { time: timeOf(c.at), desk: c.desk })}</span>
                <span className="block">{conflictText(t, c)}</span>
              </span>
              <button type="button" className="btn-secondary" onClick={() => props.onDismiss(c.id)}>
                {t('admin.desk.conflicts.dismiss')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** What the server made of the pick-up. */
function conflictText(t: DeskT, c: Conflict) {
  const r = c.result;
  if (r.outcome === 'already_picked_up')
    return t('admin.desk.conflicts.already', {
      time: r.pickedUpAt ? timeOf(r.pickedUpAt) : '',
      by: r.pickedUpBy ?? '',
      desk: r.pickedUpDesk ?? '',
    });
  if (r.outcome === 'refused') return t('admin.desk.conflicts.refused', { reason: refusalText(t, r.refusal) });
  return t('admin.desk.conflicts.notFound');
}
