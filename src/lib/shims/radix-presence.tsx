import { Children, type ReactElement } from 'react';

/*
 * Radix's Presence, for the client build only (astro.config.mjs `clientShims`; decision 006):
 * the child while `present`, nothing otherwise; a function child always renders, told whether
 * it is present. Radix's version also waits for a CSS exit animation before unmounting; the
 * dialogs have none (ModalContent), so it unmounted at once there too. Give a dialog an exit
 * animation and this must go.
 */
export function Presence(props: {
  present: boolean;
  children: ReactElement | ((state: { present: boolean }) => ReactElement);
}) {
  const { present, children } = props;
  if (typeof children === 'function') return children({ present });
  return present ? Children.only(children) : null;
}
