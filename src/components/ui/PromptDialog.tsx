import type { ReactNode } from 'react';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
import { controlBorder, describedByOf, FieldLabel, HintAndError } from './FieldParts';

/**
 * A confirm dialog that asks for one text (a reason, a message, a reference, an order number):
 * labelled, with a hint and an error tied to it. The caller keeps the value and checks it in
 * `onConfirm` (and focuses `field.id` when it is missing). Load it lazily (`import()`): it brings Radix.
 */
export function PromptDialog(
  props: Omit<ConfirmDialogProps, 'children'> & {
    field: {
      id: string;
      label: string;
      value: string;
      onChange: (value: string) => void;
      hint?: string | undefined;
      /** The message shown when the value is missing or refused; none = no error. */
      error?: string | null | undefined;
      multiline?: boolean;
      maxLength: number;
    };
    /** Shown above the field (e.g. the orders a line could pay). */
    children?: ReactNode;
  },
) {
  const { field, children, ...dialog } = props;
  const describedBy = describedByOf(field.id, { hint: field.hint, counted: false, error: field.error ?? undefined });
  const common = {
    id: field.id,
    value: field.value,
    maxLength: field.maxLength,
    required: true,
    'aria-invalid': field.error ? true : undefined,
    'aria-describedby': describedBy,
    className: `rounded-md border bg-white px-3 py-2 ${controlBorder(field.error ?? undefined)}`,
  } as const;
  return (
    <ConfirmDialog {...dialog}>
      {children}
      <div className="mt-4 flex flex-col gap-1">
        <FieldLabel id={field.id} label={field.label} />
        {field.multiline ? (
          <textarea {...common} rows={4} onChange={(e) => field.onChange(e.target.value)} />
        ) : (
          <input
            {...common}
            type="text"
            autoComplete="off"
            onChange={(e) => field.onChange(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                props.onConfirm();
              }
            }}
          />
        )}
        <HintAndError {...field} hintClass="text-xs text-neutral-600" errorClass="text-xs text-red-700" />
      </div>
    </ConfirmDialog>
  );
}
