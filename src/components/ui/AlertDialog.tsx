import * as Dialog from '@radix-ui/react-dialog';
import { CloseButton, ModalContent } from './ModalContent';

/**
 * The in-page alert of spec §8 ("alert '[{status}] {error}'", event_capacity_full, link errors…):
 * a Radix dialog with role alertdialog, its message as the accessible name, one OK button that
 * takes the focus. It closes with OK or Escape, not with a click outside; focus then returns to
 * `returnFocus` (the control that led to it) when that is still on the page.
 */
export function AlertDialog(props: {
  open: boolean;
  message: string;
  okLabel: string;
  onClose: () => void;
  returnFocus: HTMLElement | null;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => !open && props.onClose()}>
      <ModalContent
        role="alertdialog"
        aria-describedby={undefined}
        onInteractOutside={(e) => e.preventDefault()}
        returnFocus={props.returnFocus}
        className="border-t-4 border-red-600"
      >
        <Dialog.Title className="text-base font-semibold">{props.message}</Dialog.Title>
        <div className="mt-6 flex justify-end">
          <CloseButton label={props.okLabel} primary />
        </div>
      </ModalContent>
    </Dialog.Root>
  );
}
