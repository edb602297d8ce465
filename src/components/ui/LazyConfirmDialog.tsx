import { lazy } from 'react';
import { ClientSuspense } from './ClientSuspense';
import type { ConfirmDialogProps } from './ConfirmDialog';
import { loadDialogs } from './load-dialogs';

const ConfirmDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConfirmDialog })));

/**
 * An island's confirm dialog, loaded with the dialogs chunk the first time it opens (call
 * `loadDialogs()` at the click that opens it to have it ready). Shown while `open`; Cancel and
 * Escape close it through `onClose`, except while its action runs (`running`; default `busy`,
 * for a dialog whose confirm button waits on something else too).
 */
export function LazyConfirmDialog({
  open,
  onClose,
  running,
  ...dialog
}: Omit<ConfirmDialogProps, 'open' | 'onOpenChange'> & { open: boolean; onClose: () => void; running?: boolean }) {
  if (!open) return null;
  return (
    <ClientSuspense fallback={null}>
      <ConfirmDialog open onOpenChange={(o) => !o && !(running ?? dialog.busy) && onClose()} {...dialog} />
    </ClientSuspense>
  );
}
