import type { InputHTMLAttributes } from 'react';

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
  const describedBy =
    [props.hint && `${props.id}-hint`, props.max && `${props.id}-count`, props.error && `${props.id}-error`]
      .filter(Boolean)
      .join(' ') || undefined;
  const length = props.value.length;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.id} className="text-sm font-semibold">
        {props.label}
        {props.required && (
          <span className="text-red-700">
            {' '}
            *<span className="sr-only">{props.requiredLabel}</span>
          </span>
        )}
      </label>
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
        className={`rounded-md border px-3 py-2 ${props.readOnly ? 'bg-neutral-100 text-neutral-700' : 'bg-white'} ${props.error ? 'border-red-600' : 'border-neutral-500'}`}
      />
      <div className="flex justify-between gap-2 text-xs">
        <span>
          {props.hint && (
            <span id={`${props.id}-hint`} className="text-neutral-600">
              {props.hint}
            </span>
          )}
          {props.error && (
            <span id={`${props.id}-error`} className="block text-red-700">
              {props.error}
            </span>
          )}
        </span>
        {props.max !== undefined && (
          <span
            id={`${props.id}-count`}
            className={length > props.max ? 'font-semibold text-red-700' : 'text-neutral-600'}
          >
            {length}/{props.max}
          </span>
        )}
      </div>
    </div>
  );
}
