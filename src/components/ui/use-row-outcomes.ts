import { useId, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * The outcome each row of a back-office list shows after an action on it (paid, refunded,
 * refused…), kept until the page is reloaded, and where a dialog gives the focus when it closes:
 * the row's outcome (`returnTo`; null: the dialog's opener). Render each row's outcome with
 * `id={resultId(key)}`.
 */
export function useRowOutcomes<O>() {
  const id = useId();
  const [outcomes, setOutcomes] = useState<Record<string, O>>({});
  const [returnTo, setReturnTo] = useState<HTMLElement | null>(null);
  const resultId = (key: string) => `${id}-result-${key}`;

  /**
   * Shows `outcome` on the row `key` and closes the dialog (`close`: its state changes) in one
   * render, after telling the dialog to give the focus to that outcome.
   */
  const settle = (key: string, outcome: O, close: () => void) => {
    flushSync(() => setReturnTo(document.getElementById(resultId(key))));
    flushSync(() => {
      setOutcomes((current) => ({ ...current, [key]: outcome }));
      close();
    });
  };

  return { outcomes, setOutcomes, returnTo, setReturnTo, resultId, settle };
}
