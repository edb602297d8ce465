import { useId, useReducer, useState } from 'react';
import { flushSync } from 'react-dom';
import { initialRowActions, rowActionsReducer, type RowOutcome } from './row-actions';

/**
 * A row-action list's state (./row-actions.ts) in a component, with where a dialog gives the
 * focus when it closes: the row's outcome (`returnTo`; null: the dialog's opener). Each row's
 * outcome is rendered with `id={resultId(key)}`.
 */
export function useRowActions<O extends RowOutcome>() {
  const id = useId();
  const [state, dispatch] = useReducer(rowActionsReducer<O>, undefined, initialRowActions<O>);
  const [returnTo, setReturnTo] = useState<HTMLElement | null>(null);
  const resultId = (key: string) => `${id}-result-${key}`;

  /**
   * Shows the outcomes on their rows and closes the dialog in one render, after telling the
   * dialog to give the focus to `focus` (by default the first row's outcome); `also` changes the
   * island's own state in that render.
   */
  const settle = (outcomes: Record<string, O>, focus?: HTMLElement | null, also?: () => void) => {
    const first = Object.keys(outcomes)[0];
    const target = focus !== undefined ? focus : first ? document.getElementById(resultId(first)) : null;
    flushSync(() => setReturnTo(target));
    flushSync(() => {
      dispatch({ type: 'settle', outcomes });
      also?.();
    });
    return target;
  };

  return { id, state, dispatch, returnTo, setReturnTo, resultId, settle };
}

export type RowActions<O extends RowOutcome> = ReturnType<typeof useRowActions<O>>;
