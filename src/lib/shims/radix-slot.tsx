import { useComposedRefs } from '@radix-ui/react-compose-refs';
import { cloneElement, forwardRef, isValidElement, type ReactElement, type ReactNode, type Ref } from 'react';

/*
 * Radix's Slot (`asChild`), for the client build only (astro.config.mjs `clientShims`; decision
 * 006): the one child element gets the slot's props merged under its own (event handlers both
 * called, the child's first; styles merged; class names and aria-describedby joined) and both
 * refs. Left out: `Slottable` and lazy children, which Radix Dialog and our dialogs do not use
 * (its Portal and our `Dialog.Close asChild` pass one plain element). slot.test.tsx checks it.
 */

type Props = Record<string, unknown>;

export function mergeProps(slotProps: Props, childProps: Props): Props {
  const override: Props = { ...childProps };
  for (const name in childProps) {
    const slot = slotProps[name];
    const child = childProps[name];
    if (/^on[A-Z]/.test(name)) {
      if (typeof slot === 'function' && typeof child === 'function')
        override[name] = (...args: unknown[]) => {
          const result: unknown = child(...args);
          slot(...args);
          return result;
        };
      else if (slot) override[name] = slot;
    } else if (name === 'style') override[name] = { ...(slot as object), ...(child as object) };
    else if (name === 'className' || name === 'aria-describedby')
      override[name] = [...new Set([slot, child].flatMap((v) => (typeof v === 'string' ? v.split(' ') : [])))]
        .filter(Boolean)
        .join(' ');
  }
  return { ...slotProps, ...override };
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function createSlot(_ownerName: string) {
  return forwardRef<unknown, Props & { children?: ReactNode }>(function Slot(
    { children, ...slotProps },
    ref,
  ): ReactNode {
    const element = isValidElement(children) ? (children as ReactElement<Props>) : null;
    const childRef = element?.props.ref as Ref<unknown> | undefined;
    const composed = useComposedRefs(ref, childRef);
    if (!element) {
      if (children || children === 0) throw new Error('Slot: asChild needs exactly one element child');
      return children as ReactNode;
    }
    return cloneElement(element, { ...mergeProps(slotProps, element.props), ref: ref ? composed : childRef });
  });
}

export const Slot = createSlot('Slot');
export const Root = Slot;
