import type { ReactNode } from 'react';

/*
 * The parts every labelled field shares (TextField, TextAreaField, SelectField): the label with
 * its required mark, and the line under the control with the hint, the error and the live
 * counter (spec §5), tied to the control by aria-describedby.
 */

/** The ids of the notes under a field, for its control's aria-describedby. */
export function describedByOf(
  id: string,
  notes: { hint?: string | undefined; counted: boolean; error?: string | undefined },
) {
  return (
    [notes.hint && `${id}-hint`, notes.counted && `${id}-count`, notes.error && `${id}-error`]
      .filter(Boolean)
      .join(' ') || undefined
  );
}

/** A field's label, with a required mark read out as `requiredLabel`. */
export function FieldLabel(props: {
  id: string;
  label: string;
  required?: boolean | undefined;
  requiredLabel?: string | undefined;
}) {
  return (
    <label htmlFor={props.id} className="text-sm font-semibold">
      {props.label}
      {props.required && (
        <span className="text-red-700">
          {' '}
          *<span className="sr-only">{props.requiredLabel}</span>
        </span>
      )}
    </label>
  );
}

/** The border of a control, red while it has an error. */
export const controlBorder = (error: string | undefined) => (error ? 'border-red-600' : 'border-neutral-500');

/** A field's hint and error, each with the id its control's aria-describedby names. */
export function HintAndError(props: {
  id: string;
  hint?: string | undefined;
  error?: string | null | undefined;
  hintClass?: string;
  errorClass: string;
}) {
  return (
    <>
      {props.hint && (
        <span id={`${props.id}-hint`} className={props.hintClass}>
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={`${props.id}-error`} className={props.errorClass}>
          {props.error}
        </span>
      )}
    </>
  );
}

/** The line under a field: hint and error on the left, the counter (length/max) on the right. */
export function FieldNotes(props: {
  id: string;
  hint?: string | undefined;
  error?: string | undefined;
  length: number;
  max?: number | undefined;
}) {
  return (
    <div className="flex justify-between gap-2 text-xs">
      <span>
        <HintAndError {...props} hintClass="text-neutral-600" errorClass="block text-red-700" />
      </span>
      {props.max !== undefined && (
        <span
          id={`${props.id}-count`}
          className={props.length > props.max ? 'font-semibold text-red-700' : 'text-neutral-600'}
        >
          {props.length}/{props.max}
        </span>
      )}
    </div>
  );
}

/** What a text field is given: its id (also its name), the value and its setter, the notes under it. */
export type TextFieldBase = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean | undefined;
  requiredLabel?: string | undefined;
  hint?: string | undefined;
  error?: string | undefined;
};

/** A control under its label (the meeting forms' plain fields): the label names the control by its id. */
export function LabelledControl(props: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={props.id} className="block font-semibold">
        {props.label}
      </label>
      {props.children}
    </div>
  );
}
