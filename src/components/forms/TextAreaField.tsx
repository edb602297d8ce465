/**
 * A labelled textarea with the live counter (length/limit), its error and an optional required
 * mark, tied together with aria-describedby / aria-invalid like TextField (spec §5 live counters).
 */
export function TextAreaField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  max: number;
  required?: boolean;
  requiredLabel?: string;
  hint?: string;
  rows?: number;
  error?: string | undefined;
}) {
  const describedBy = [props.hint && `${props.id}-hint`, `${props.id}-count`, props.error && `${props.id}-error`]
    .filter(Boolean)
    .join(' ');
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
      <textarea
        id={props.id}
        name={props.id}
        rows={props.rows ?? 3}
        value={props.value}
        required={props.required}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        className={`rounded-md border bg-white px-3 py-2 ${props.error ? 'border-red-600' : 'border-neutral-500'}`}
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
        <span
          id={`${props.id}-count`}
          className={props.value.length > props.max ? 'font-semibold text-red-700' : 'text-neutral-600'}
        >
          {props.value.length}/{props.max}
        </span>
      </div>
    </div>
  );
}
