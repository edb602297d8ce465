import { lazy, Suspense, useCallback, useState } from 'react';
import { loadDialogs } from './load-dialogs';

/* The dialog (Radix) loads when the first alert is shown, not with the page (DESIGN §4 budget). */
const AlertDialog = lazy(() => loadDialogs().then((m) => ({ default: m.AlertDialog })));

type Alert = { message: string; onClose?: (() => void) | undefined; returnFocus: HTMLElement | null; open: boolean };

/**
 * In-page alerts instead of `window.alert()`: `showAlert(message, { onClose, returnFocus })`
 * opens an accessible alert dialog; render `alertElement` once in the island. Focus returns to
 * `returnFocus`, by default the element focused when the alert was asked for.
 */
export function useAlert(okLabel: string) {
  const [alert, setAlert] = useState<Alert | null>(null);

  const showAlert = useCallback(
    (message: string, options: { onClose?: () => void; returnFocus?: HTMLElement | null } = {}) => {
      const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setAlert({ message, onClose: options.onClose, returnFocus: options.returnFocus ?? focused, open: true });
    },
    [],
  );

  const close = () => {
    setAlert((a) => (a ? { ...a, open: false } : a));
    alert?.onClose?.();
  };

  const alertElement = alert ? (
    <Suspense fallback={null}>
      <AlertDialog
        open={alert.open}
        message={alert.message}
        okLabel={okLabel}
        onClose={close}
        returnFocus={alert.returnFocus}
      />
    </Suspense>
  ) : null;

  return { showAlert, alertElement, preloadAlert: loadDialogs };
}
