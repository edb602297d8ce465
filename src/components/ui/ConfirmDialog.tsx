import * as Dialog from '@radix-ui/react-dialog';
import { useState, type ReactNode } from 'react';
import { CloseButton, ModalContent } from './ModalContent';

/** What a confirm dialog shows and does (PromptDialog takes the same, and a field). */
export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  /** More of the dialog between its description and its buttons (a field the action needs). */
  children?: ReactNode;
  /** Where the focus goes when it closes (e.g. the outcome of what it did); default: the control that opened it. */
  returnFocus?: HTMLElement | null | undefined;
};

/**
 * A confirm dialog (Radix: focus trap, Escape, labelled title and description). Closed, it gives
 * the focus back to the control that opened it (the element focused when it appeared).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [opener] = useState(() =>
    typeof document !== 'undefined' && document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <ModalContent returnFocus={props.returnFocus ?? opener}>
        <Dialog.Title className="text-lg font-semibold">{props.title}</Dialog.Title>
        <Dialog.Description className="mt-2 text-sm text-neutral-700">{props.description}</Dialog.Description>
        {props.children}
        <div className="mt-6 flex justify-end gap-3">
          <CloseButton label={props.cancelLabel} />
          <button type="button" className="btn-primary" onClick={props.onConfirm} disabled={props.busy}>
            {props.confirmLabel}
          </button>
        </div>
      </ModalContent>
    </Dialog.Root>
  );
}
