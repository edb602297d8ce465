import { controlBorder, FieldLabel, HintAndError } from '../ui/FieldParts';

/** A labelled, required select with a "please choose" first option and its error. */
export function SelectField(props: {
  id: string;
  label: string;
  requiredLabel: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  options: { value: string; label: string }[];
  error?: string | undefined;
  autoComplete?: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <FieldLabel id={props.id} label={props.label} required requiredLabel={props.requiredLabel} />
      <select
        id={props.id}
        name={props.id}
        value={props.value}
        required
        autoComplete={props.autoComplete}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        className={`rounded-md border bg-white px-3 py-2 ${controlBorder(props.error)}`}
      >
        <option value="">{props.placeholder}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <HintAndError id={props.id} error={props.error} errorClass="text-xs text-red-700" />
    </div>
  );
}
