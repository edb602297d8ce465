import { useId, type Ref, type SyntheticEvent } from 'react';
import type { DeskBadge } from '@domain/desk';
import { CameraScanner } from '@components/scanner/CameraScanner';
import type { DeskT } from './desk-words';

/**
 * Where badges are read: the field a USB scanner types into (or a search by name, e-mail or
 * order), the camera, a photo of the code; with the search's matches below.
 */
export function DeskScan({
  inputRef,
  ...props
}: {
  t: DeskT;
  text: string;
  online: boolean;
  pending: number;
  /** The field's text is a search: its matches are listed. */
  searching: boolean;
  matches: DeskBadge[];
  inputRef: Ref<HTMLInputElement>;
  onText: (text: string) => void;
  onSubmit: () => void;
  /** A code read by the camera or from a photo. */
  onCode: (code: string) => void;
  onOpen: (badgeId: string) => void;
}) {
  const { t } = props;
  const ids = { input: useId() };
  function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    props.onSubmit();
  }

  const state = props.online ? t('admin.desk.status.online') : t('admin.desk.status.offline');
  return (
    <section aria-labelledby="desk-scan-heading" className="card space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="desk-scan-heading" className="text-lg font-semibold">
          {t('admin.desk.scan.heading')}
        </h2>
        {/* At a glance (the status panel below says it to screen readers). */}
        <span
          aria-hidden="true"
          className={`rounded-full px-3 py-0.5 text-sm font-semibold ${props.online ? 'bg-green-100 text-green-900' : 'bg-red-100 text-red-900'}`}
        >
          {t('admin.desk.pill', { state, count: props.pending })}
        </span>
      </div>
      <form onSubmit={onSubmit} className="flex flex-col gap-1">
        <label htmlFor={ids.input} className="font-semibold">
          {t('admin.desk.scan.label')}
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id={ids.input}
            ref={inputRef}
            value={props.text}
            onChange={(e) => props.onText(e.target.value)}
            // A USB scanner types into the focused field: the desk keeps the focus here.
            autoFocus
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${ids.input}-hint`}
            className="min-w-0 flex-1 rounded-md border border-neutral-500 bg-white px-3 py-2 font-mono"
          />
          <button type="submit" className="btn-primary">
            {t('admin.desk.scan.button')}
          </button>
        </div>
        <span id={`${ids.input}-hint`} className="text-xs text-neutral-600">
          {t('admin.desk.scan.hint')}
        </span>
      </form>
      <CameraScanner t={t} onCode={props.onCode} />
      {props.searching && <SearchMatches t={t} matches={props.matches} onOpen={props.onOpen} />}
    </section>
  );
}

function SearchMatches(props: { t: DeskT; matches: DeskBadge[]; onOpen: (badgeId: string) => void }) {
  const { t } = props;
  return (
    <div>
      <h3 className="mb-2 font-semibold">{t('admin.desk.search.heading')}</h3>
      {props.matches.length === 0 ? (
        <p>{t('admin.desk.search.none')}</p>
      ) : (
        <ul className="divide-y divide-neutral-200 rounded-md border border-neutral-300 bg-white">
          {props.matches.map((b) => (
            <li key={b.id} className="flex items-center justify-between gap-3 px-3 py-2">
              <span>
                <span className="block font-semibold">
                  {b.nameZh ? `${b.nameZh} · ` : ''}
                  {b.nameEn}
                </span>
                <span className="block text-sm text-neutral-600">
                  {b.email} · {b.orderNo}
                </span>
              </span>
              <button type="button" className="btn-secondary" onClick={() => props.onOpen(b.id)}>
                {t('admin.desk.search.open', { name: b.nameEn })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
