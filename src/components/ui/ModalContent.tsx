import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, type ComponentProps } from 'react';

/** How many modal dialogs are open (a confirm dialog can give way to an alert). */
let openModals = 0;
let saved = { overflow: '', paddingRight: '' };

/**
 * The dim backdrop of a modal dialog, with the page behind it held still while the dialog is open.
 *
 * Radix's own `Dialog.Overlay` does this through react-remove-scroll (about 4 KB of the dialogs'
 * JavaScript, gzip: DESIGN §4 budget, docs/decisions/006), whose lock is a `<style>` element that
 * the Content-Security-Policy refuses (style-src allows hashed styles only). This one sets the
 * root element's overflow through the CSSOM, which CSP allows, and pads the root by the
 * scrollbar's width so the page does not shift. A click on it is a click outside the dialog for
 * Radix, as on Radix's overlay; it is hidden from assistive technology with the rest of the page.
 */
function Overlay() {
  useEffect(() => {
    const root = document.documentElement;
    if (openModals++ === 0) {
      saved = { overflow: root.style.overflow, paddingRight: root.style.paddingRight };
      const scrollbar = window.innerWidth - root.clientWidth;
      root.style.overflow = 'hidden';
      if (scrollbar > 0) root.style.paddingRight = `${scrollbar}px`;
    }
    return () => {
      if (--openModals > 0) return;
      root.style.overflow = saved.overflow;
      root.style.paddingRight = saved.paddingRight;
    };
  }, []);
  return <div className="pointer-events-auto fixed inset-0 z-40 bg-black/50" />;
}

/**
 * The modal part both dialogs share, inside their `Dialog.Root`: backdrop and centred panel
 * (Radix: focus trap, Escape, the rest of the page hidden from assistive technology). Closed, it
 * gives the focus to `returnFocus` when that is still on the page: Radix would otherwise focus
 * its own trigger, which these dialogs, opened by a form submit or an API answer, have not.
 */
export function ModalContent({
  returnFocus,
  className = '',
  ...props
}: Omit<ComponentProps<typeof Dialog.Content>, 'onCloseAutoFocus'> & { returnFocus: HTMLElement | null }) {
  return (
    <Dialog.Portal>
      <Overlay />
      <Dialog.Content
        {...props}
        onCloseAutoFocus={(e) => {
          if (returnFocus?.isConnected) {
            e.preventDefault();
            returnFocus.focus();
          }
        }}
        className={`fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl focus:outline-none ${className}`}
      />
    </Dialog.Portal>
  );
}

/** The button that closes a dialog (Radix's Close: the dialog's onOpenChange hears it). */
export function CloseButton(props: { label: string; primary?: boolean }) {
  return (
    <Dialog.Close asChild>
      <button type="button" className={props.primary ? 'btn-primary' : 'btn-secondary'}>
        {props.label}
      </button>
    </Dialog.Close>
  );
}
