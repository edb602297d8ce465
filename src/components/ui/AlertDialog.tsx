import * as Dialog from '@radix-ui/react-dialog';

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
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          role="alertdialog"
          aria-describedby={undefined}
          onInteractOutside={(e) => e.preventDefault()}
          onCloseAutoFocus={(e) => {
            const target = props.returnFocus;
            if (target?.isConnected) {
              e.preventDefault();
              target.focus();
            }
          }}
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg border-t-4 border-red-600 bg-white p-6 shadow-xl focus:outline-none"
        >
          <Dialog.Title className="text-base font-semibold">{props.message}</Dialog.Title>
          <div className="mt-6 flex justify-end">
            <Dialog.Close asChild>
              <button type="button" className="btn-primary">
                {props.okLabel}
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
