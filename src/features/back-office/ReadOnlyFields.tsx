import type { ReactNode } from 'react';

/**
 * A back-office form's fields for a team member whose role cannot change them (issue 21: a
 * viewer reads the event and edition forms): inside a disabled fieldset, so every field shows its
 * value and none can be edited or sent; the form renders no action buttons then. Otherwise the
 * fields as they are.
 */
export function ReadOnlyFields(props: { readOnly: boolean | undefined; className?: string; children: ReactNode }) {
  if (!props.readOnly) return <>{props.children}</>;
  return (
    <fieldset disabled className={`m-0 min-w-0 border-0 p-0 ${props.className ?? ''}`}>
      {props.children}
    </fieldset>
  );
}
