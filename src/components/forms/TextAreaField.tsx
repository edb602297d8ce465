import { controlBorder, describedByOf, FieldLabel, FieldNotes } from '../ui/FieldParts';

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
  const describedBy = describedByOf(props.id, { hint: props.hint, counted: true, error: props.error });
  return (
    <div className="flex flex-col gap-1">
      <FieldLabel id={props.id} label={props.label} required={props.required} requiredLabel={props.requiredLabel} />
      <textarea
        id={props.id}
        name={props.id}
        rows={props.rows ?? 3}
        value={props.value}
        required={props.required}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        className={`rounded-md border bg-white px-3 py-2 ${controlBorder(props.error)}`}
      />
      <FieldNotes id={props.id} hint={props.hint} error={props.error} length={props.value.length} max={props.max} />
    </div>
  );
}
