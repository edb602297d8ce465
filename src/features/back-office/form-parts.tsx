import type { ReactNode } from 'react';

/*
 * The ends of the back office's forms: the line that says why the last action failed, and the
 * submit button with the status beside it (saving, unchanged).
 */

/** Why the form's last action failed (an alert, read out when it appears); nothing when it did not. */
export function FormFailure(props: { text: string; className?: string }) {
  if (!props.text) return null;
  return (
    <p role="alert" className={`font-semibold text-red-700${props.className ? ` ${props.className}` : ''}`}>
      {props.text}
    </p>
  );
}

/**
 * The form's submit button (off while it runs) with its status beside it; `children` go before
 * the button (a secondary action of the form, such as adding a row).
 */
export function SubmitRow(props: { label: string; busy: boolean; status: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      {props.children}
      <button type="submit" className="btn-primary" disabled={props.busy}>
        {props.label}
      </button>
      <span role="status" className="text-sm">
        {props.status}
      </span>
    </div>
  );
}
