import type { ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * A confirm dialog that asks for one text (a reason, a message, a reference, an order number):
 * labelled, with a hint and an error tied to it. The caller keeps the value and checks it in
 * `onConfirm` (and focuses `field.id` when it is missing). Load it lazily (`import()`): it brings Radix.
 */
export function PromptDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  busy?: boolean;
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
  /** Where the focus goes when it closes; default: the control that opened it. */
  returnFocus?: HTMLElement | null | undefined;
}) {
  const { field } = props;
  const describedBy =
    [field.hint && `${field.id}-hint`, field.error && `${field.id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id: field.id,
    value: field.value,
    maxLength: field.maxLength,
    required: true,
    'aria-invalid': field.error ? true : undefined,
    'aria-describedby': describedBy,
    className: `rounded-md border bg-white px-3 py-2 ${field.error ? 'border-red-600' : 'border-neutral-500'}`,
  } as const;
  return (
    <ConfirmDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={props.title}
      description={props.description}
      confirmLabel={props.confirmLabel}
      cancelLabel={props.cancelLabel}
      onConfirm={props.onConfirm}
      busy={props.busy ?? false}
      returnFocus={props.returnFocus}
    >
      {props.children}
      <div className="mt-4 flex flex-col gap-1">
        <label htmlFor={field.id} className="text-sm font-semibold">
          {field.label}
        </label>
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
        {field.hint && (
          <span id={`${field.id}-hint`} className="text-xs text-neutral-600">
            {field.hint}
          </span>
        )}
        {field.error && (
          <span id={`${field.id}-error`} className="text-xs text-red-700">
            {field.error}
          </span>
        )}
      </div>
    </ConfirmDialog>
  );
}
