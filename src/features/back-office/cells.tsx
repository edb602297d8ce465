import type { ReactNode } from 'react';

/*
 * Cells the back office's lists share: an order (its number, linked to its page, and a line
 * under it) and a registrant (the name, else the e-mail; the e-mail under a name).
 */

export function OrderCell(props: { orderNo: string; orderBase: string; children: ReactNode }) {
  return (
    <>
      <a className="link font-mono" href={`${props.orderBase}${encodeURIComponent(props.orderNo)}`}>
        {props.orderNo}
      </a>
      <span className="block text-neutral-600">{props.children}</span>
    </>
  );
}

export function RegistrantCell(props: { name: string | null; email: string; children?: ReactNode }) {
  return (
    <>
      <span className="block">{props.name ?? props.email}</span>
      {props.name && <span className="block text-neutral-600">{props.email}</span>}
      {props.children}
    </>
  );
}
