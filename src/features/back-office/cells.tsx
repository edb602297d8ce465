import type { ReactNode, Ref } from 'react';
import type { RowColumn } from '@components/tables/RowActionTable';

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

/** A money list's first two columns: the order (with its event under it) and the registrant. */
export function orderAndRegistrant<
  R extends { orderNo: string; eventName: string; name: string | null; email: string },
  O,
>(headers: { order: string; registrant: string }, orderBase: string): RowColumn<R, O>[] {
  return [
    {
      header: headers.order,
      rowHeader: true,
      cell: (row) => (
        <OrderCell orderNo={row.orderNo} orderBase={orderBase}>
          {row.eventName}
        </OrderCell>
      ),
    },
    { header: headers.registrant, cell: (row) => <RegistrantCell name={row.name} email={row.email} /> },
  ];
}

/**
 * What a bulk action did, said under a list's toolbar (a status the action focuses; empty and for
 * screen readers only until there is something to say).
 */
export function BulkSummary({ ref, text }: { ref: Ref<HTMLParagraphElement>; text: string }) {
  return (
    <p
      ref={ref}
      tabIndex={-1}
      role="status"
      className={text ? 'rounded-md border border-neutral-300 bg-neutral-50 px-3 py-2 font-semibold' : 'sr-only'}
    >
      {text}
    </p>
  );
}
