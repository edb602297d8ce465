import { useEffect, useId, useState } from 'react';
import { formatMoney } from '@domain/format';
import type { Work, WorkGenre } from '@domain/works';
import { toLocale } from '@i18n/locales';
import { browserApi } from '@lib/api.client';
import { localized } from '@lib/routes';

export type WorksPickerProps = {
  t: (key: string, vars?: Record<string, string | number>) => string;
  locale: string;
  signedIn: boolean;
  /** Where "Sign in / Register" goes (the sign-in redirect with a return path). */
  signInHref: string;
  /** The user's works; null = not loaded yet (the picker loads them when signed in). */
  works: Work[] | null;
  selected: number[];
  onChange: (ids: number[]) => void;
  /** Called with the works after a (re)load from the content site (`api.contents.remote`). */
  onWorks?: (works: Work[]) => void;
  /** The content site, where works are added. */
  uploadHref: string;
  /** The step's error (e.g. "choose at least one work"), tied to the fieldset. */
  error?: string | undefined;
  /** Show only works of this genre (pitching: projects or pieces). */
  genre?: WorkGenre;
  /** One work only (Story to Screen): radio buttons instead of checkboxes. */
  single?: boolean;
  /** Works that cannot be chosen, with the reason shown beside them (pitching: already entered). */
  unavailable?: ReadonlyMap<number, string>;
  /** Show each work's own price (Market); false where a fee per work is charged instead (pitching). */
  prices?: boolean;
};

/** The signed-in user's works, or null when they could not be loaded. */
async function fetchWorks(locale: 'en' | 'zh-TW'): Promise<Work[] | null> {
  try {
    const api = browserApi(locale, localized(locale, '/'));
    return (await api.contents.remote()).data;
  } catch {
    return null;
  }
}

/**
 * The works list of the Market and pitching wizards (spec §5, §6): one checkbox per work of the
 * signed-in user on the content site, a "please sign in first" row for visitors, an empty state
 * linking to the content site, and a Refresh button that fetches the list again. Messages `works.…`
 * and `enum.workGenre.…` / `enum.workCategory.…`.
 */
export function WorksPicker(props: WorksPickerProps) {
  const { t, signedIn, works, selected, genre } = props;
  const id = useId();
  const locale = toLocale(props.locale) ?? 'en';
  // Not given by the page (e.g. the content site did not answer then): loaded on mount when signed in.
  const [loading, setLoading] = useState(signedIn && works === null);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState<Work[] | null>(null);
  const list = works ?? loaded;

  const done = (data: Work[] | null) => {
    if (data) {
      setLoaded(data);
      props.onWorks?.(data);
    } else setFailed(true);
    setLoading(false);
  };
  const refresh = () => {
    setLoading(true);
    setFailed(false);
    void fetchWorks(locale).then(done);
  };
  useEffect(() => {
    if (signedIn && works === null) void fetchWorks(locale).then(done);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  const shown = (list ?? []).filter((w) => !genre || w.genreId === genre);
  const toggle = (workId: number, on: boolean) =>
    props.onChange(
      props.single
        ? [workId]
        : on
          ? [...selected.filter((s) => s !== workId), workId]
          : selected.filter((s) => s !== workId),
    );
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  const other = locale === 'zh-TW' ? 'en' : 'zh-TW';

  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={props.error ? errorId : undefined}>
      <legend className="mb-2 font-semibold">{t('works.legend')}</legend>
      {!signedIn ? (
        <NoWorks text={t('works.signInFirst')} href={props.signInHref} link={t('works.signIn')} />
      ) : (
        <>
          {shown.length > 0 ? (
            <ul className="flex flex-col gap-2">
              {shown.map((w) => {
                const [main, second] =
                  locale === 'zh-TW'
                    ? [w.languageZhTw.title, w.languageEn.title]
                    : [w.languageEn.title, w.languageZhTw.title];
                const reason = props.unavailable?.get(w.id);
                return (
                  <li key={w.id}>
                    <label
                      className={`flex items-start gap-3 rounded-md border border-neutral-300 p-3 ${reason ? 'bg-neutral-100' : 'bg-white'}`}
                    >
                      <input
                        type={props.single ? 'radio' : 'checkbox'}
                        name={props.single ? `${id}-work` : undefined}
                        className="mt-1 size-4"
                        checked={selected.includes(w.id)}
                        disabled={!!reason && !selected.includes(w.id)}
                        onChange={(e) => toggle(w.id, e.target.checked)}
                      />
                      <span className="flex flex-col">
                        <span className="font-semibold">{main}</span>
                        <span className="text-sm text-neutral-600" lang={other}>
                          {second}
                        </span>
                        <span className="text-sm">
                          {t(`enum.workGenre.${w.genreId}`)} · {t(`enum.workCategory.${w.categoryId}`)}
                          {props.prices !== false &&
                            ` · ${formatMoney(w.priceTwd.cents, 'TWD', locale)} / ${formatMoney(w.priceUsd.cents, 'USD', locale)}`}
                        </span>
                        {reason && <span className="text-sm font-semibold text-neutral-800">{reason}</span>}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          ) : list ? (
            <NoWorks text={t('works.empty')} href={props.uploadHref} link={t('works.upload')} />
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className="rounded-md border border-neutral-500 bg-white px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
              onClick={refresh}
              disabled={loading}
              aria-describedby={statusId}
            >
              {loading ? t('works.refreshing') : t('works.refresh')}
            </button>
            {shown.length > 0 && (
              <a className="text-sm text-orange-800 underline" href={props.uploadHref}>
                {t('works.upload')}
              </a>
            )}
            <span id={statusId} role="status" className="text-sm">
              {failed ? t('works.loadFailed') : shown.length > 0 ? t('works.selected', { count: selected.length }) : ''}
            </span>
          </div>
        </>
      )}
      {props.error && (
        <p id={errorId} className="text-sm text-red-700">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** Why there are no works to pick, and the link to what to do (sign in, upload on the content site). */
function NoWorks(props: { text: string; href: string; link: string }) {
  return (
    <p className="rounded-md border border-neutral-300 bg-white p-3">
      {props.text}{' '}
      <a className="font-semibold text-orange-800 underline" href={props.href}>
        {props.link}
      </a>
    </p>
  );
}
