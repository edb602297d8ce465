import type { InputHTMLAttributes } from 'react';
import { controlBorder, describedByOf, FieldLabel, FieldNotes } from './FieldParts';

/**
 * A labelled text input with an optional live counter (length/limit), hint and error, tied
 * together with aria-describedby / aria-invalid (spec §5: a live counter on limited fields).
 */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  max?: number;
  required?: boolean;
  requiredLabel?: string;
  hint?: string;
  error?: string | undefined;
  readOnly?: boolean;
  type?: string;
  inputMode?: InputHTMLAttributes<HTMLInputElement>['inputMode'];
  autoComplete?: string;
}) {
  const describedBy = describedByOf(props.id, { hint: props.hint, counted: !!props.max, error: props.error });
  return (
    <div className="flex flex-col gap-1">
      <FieldLabel id={props.id} label={props.label} required={props.required} requiredLabel={props.requiredLabel} />
      <input
        id={props.id}
        name={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        readOnly={props.readOnly}
        required={props.required}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        className={`rounded-md border px-3 py-2 ${props.readOnly ? 'bg-neutral-100 text-neutral-700' : 'bg-white'} ${controlBorder(props.error)}`}
      />
      <FieldNotes id={props.id} hint={props.hint} error={props.error} length={props.value.length} max={props.max} />
    </div>
  );
}
