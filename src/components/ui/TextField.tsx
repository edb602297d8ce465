import type { InputHTMLAttributes } from 'react';
import { controlBorder, describedByOf, FieldLabel, FieldNotes, type TextFieldBase } from './FieldParts';

/**
 * A labelled text input, or a textarea of `rows` rows, with an optional live counter
 * (length/limit), hint and error, tied together with aria-describedby / aria-invalid (spec §5: a
 * live counter on limited fields).
 */
export function TextField(
  props: TextFieldBase & {
    max?: number;
    rows?: number;
    readOnly?: boolean;
    type?: string;
    inputMode?: InputHTMLAttributes<HTMLInputElement>['inputMode'];
    autoComplete?: string;
  },
) {
  const control = {
    id: props.id,
    name: props.id,
    value: props.value,
    required: props.required,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedByOf(props.id, { hint: props.hint, counted: !!props.max, error: props.error }),
  };
  return (
    <div className="flex flex-col gap-1">
      <FieldLabel id={props.id} label={props.label} required={props.required} requiredLabel={props.requiredLabel} />
      {props.rows ? (
        <textarea
          {...control}
          rows={props.rows}
          onChange={(e) => props.onChange(e.target.value)}
          className={`rounded-md border bg-white px-3 py-2 ${controlBorder(props.error)}`}
        />
      ) : (
        <input
          {...control}
          type={props.type ?? 'text'}
          onChange={(e) => props.onChange(e.target.value)}
          readOnly={props.readOnly}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete}
          className={`rounded-md border px-3 py-2 ${props.readOnly ? 'bg-neutral-100 text-neutral-700' : 'bg-white'} ${controlBorder(props.error)}`}
        />
      )}
      <FieldNotes id={props.id} hint={props.hint} error={props.error} length={props.value.length} max={props.max} />
    </div>
  );
}
