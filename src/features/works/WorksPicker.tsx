/*
 * PLACEHOLDER of the works picker (built on its own branch, same path and props): the Market
 * wizard's branch needs something to render until the real one is merged. Take the other
 * branch's file at merge.
 */
import { useEffect } from 'react';
import type { T } from '@i18n/t';
import type { Work, WorkGenre } from '@domain/market';

export type WorksPickerProps = {
  t: T;
  locale: string;
  signedIn: boolean;
  signInHref: string;
  works: Work[] | null;
  selected: number[];
  onChange: (ids: number[]) => void;
  onWorks: (works: Work[]) => void;
  uploadHref: string;
  error?: string | undefined;
  genre?: WorkGenre;
};

export function WorksPicker(props: WorksPickerProps) {
  const { works, onWorks, signedIn } = props;
  useEffect(() => {
    if (!signedIn || works) return;
    void fetch('/api/v1/contents/remote', {
      headers: { authorization: `Bearer ${localStorage.getItem('idc-token') ?? ''}` },
    })
      .then((r) => (r.ok ? (r.json() as Promise<{ data: Work[] }>) : { data: [] }))
      .then((r) => onWorks(r.data))
      .catch(() => onWorks([]));
  }, [signedIn, works, onWorks]);
  return (
    <fieldset aria-invalid={props.error ? true : undefined}>
      <legend className="font-semibold">Works</legend>
      <table className="w-full text-sm">
        <tbody>
          {!signedIn ? (
            <tr>
              <td>Please sign in first</td>
            </tr>
          ) : (
            (works ?? []).map((w) => (
              <tr key={w.id}>
                <td>
                  <label className="flex gap-2">
                    <input
                      type="checkbox"
                      checked={props.selected.includes(w.id)}
                      onChange={(e) =>
                        props.onChange(
                          e.target.checked ? [...props.selected, w.id] : props.selected.filter((id) => id !== w.id),
                        )
                      }
                    />
                    {w.name}
                  </label>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {props.error && <p className="text-sm text-red-700">{props.error}</p>}
    </fieldset>
  );
}
