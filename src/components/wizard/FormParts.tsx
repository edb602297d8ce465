import { useRef, type ComponentProps, type ReactNode } from 'react';
import { TextAreaField } from '@components/forms/TextAreaField';
import { TextField } from '@components/ui/TextField';

/*
 * The parts the registration forms (exhibitor form, story form) are built of: a text field that
 * becomes a text area past one line's limit, and a list of rows (copyright contacts, team members,
 * companies) the user adds to and removes from, the focus following. Words come as props.
 */

/** Past this many characters a text is a text area (spec §3: one-line texts hold 256). */
export const ONE_LINE = 256;

export type LimitedTextProps = ComponentProps<typeof TextAreaField> &
  Pick<ComponentProps<typeof TextField>, 'type' | 'inputMode' | 'autoComplete'> & {
    /** A text area even within one line's limit (a short text beside a long one). */
    long?: boolean;
  };

/** A text with its limit and live counter: one line up to 256 characters, a text area beyond. */
export function LimitedText(props: LimitedTextProps) {
  const { long, rows, type, inputMode, autoComplete, ...common } = props;
  return long || props.max > ONE_LINE ? (
    <TextAreaField {...common} rows={rows} />
  ) : (
    <TextField {...common} type={type} inputMode={inputMode} autoComplete={autoComplete} />
  );
}

/** Sets one field of one row of a list (immutably). */
export const setRow = <R,>(rows: R[], index: number, name: keyof R, value: R[keyof R]): R[] =>
  rows.map((r, i) => (i === index ? { ...r, [name]: value } : r));

/**
 * A list of rows in a card: each row a group headed "… N" with its fields and a Remove button
 * (while more than `min` are left), the list's error, and Add (below `max`). Adding focuses the new
 * row's first field (`firstFieldId`); removing focuses Add.
 */
export function RowList<R extends { key: string }>(props: {
  legend: string;
  note?: string;
  rows: R[];
  min: number;
  max: number;
  onChange: (change: (rows: R[]) => R[]) => void;
  empty: () => R;
  rowLegend: (n: number) => string;
  removeLabel: (n: number) => string;
  addLabel: string;
  error?: string | undefined;
  firstFieldId: (index: number) => string;
  children: (row: R, index: number) => ReactNode;
}) {
  const addButton = useRef<HTMLButtonElement>(null);
  const { rows } = props;
  const add = () => {
    props.onChange((list) => [...list, props.empty()]);
    const next = rows.length;
    requestAnimationFrame(() => document.getElementById(props.firstFieldId(next))?.focus());
  };
  const remove = (index: number) => {
    props.onChange((list) => list.filter((_, i) => i !== index));
    requestAnimationFrame(() => addButton.current?.focus());
  };
  return (
    <fieldset className="card space-y-4">
      <legend className="px-1 text-lg font-semibold">{props.legend}</legend>
      {props.note && <p className="text-sm text-neutral-700">{props.note}</p>}
      {rows.map((row, i) => (
        <fieldset key={row.key} className="grid gap-4 rounded-md border border-neutral-300 p-4 md:grid-cols-2">
          <legend className="px-1 font-semibold">{props.rowLegend(i + 1)}</legend>
          {props.children(row, i)}
          {rows.length > props.min && (
            <div className="md:col-span-2">
              <button type="button" className="btn-secondary" onClick={() => remove(i)}>
                {props.removeLabel(i + 1)}
              </button>
            </div>
          )}
        </fieldset>
      ))}
      {props.error && <p className="text-sm text-red-700">{props.error}</p>}
      {rows.length < props.max && (
        <button ref={addButton} type="button" className="btn-secondary" onClick={add}>
          {props.addLabel}
        </button>
      )}
    </fieldset>
  );
}
