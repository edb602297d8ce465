/*
 * The state of a back-office list whose rows each take an action (approve, mark paid, record a
 * refund…), pure: which row's dialog is open and for which action, the text its prompt asks for,
 * whether a request is under way, and the outcome each row shows once its action is done (kept
 * until the page is reloaded). The list's count and status column are derived from the outcomes,
 * so they follow every action (issue 19, defect 6). `RowActionTable` renders it.
 */

/** An outcome as the table reads it: `failed` rows stay open (the action can be tried again). */
export type RowOutcome = { kind: string; failed?: boolean };

export type RowActionState<O extends RowOutcome> = {
  /** Each row's outcome, by row key. */
  outcomes: Record<string, O>;
  /** The dialog open: its action's name and its row's key. */
  open: { action: string; key: string } | null;
  /** The text the open dialog's prompt holds. */
  value: string;
  /** The prompt was confirmed empty: its field shows the error. */
  missing: boolean;
  /** A request is under way: the row buttons and the dialog wait. */
  busy: boolean;
};

export type RowActionEvent<O extends RowOutcome> =
  | { type: 'open'; action: string; key: string }
  | { type: 'close' }
  | { type: 'input'; value: string }
  /** The prompt was confirmed empty where a text is required. */
  | { type: 'missing' }
  | { type: 'start' }
  /** The answers: each row's outcome; the dialog closes. */
  | { type: 'settle'; outcomes: Record<string, O> }
  /** No answer to show on a row (signed out, the network): the dialog closes, nothing is recorded. */
  | { type: 'abort' };

export function initialRowActions<O extends RowOutcome>(): RowActionState<O> {
  return { outcomes: {}, open: null, value: '', missing: false, busy: false };
}

export function rowActionsReducer<O extends RowOutcome>(
  state: RowActionState<O>,
  event: RowActionEvent<O>,
): RowActionState<O> {
  switch (event.type) {
    case 'open':
      // A done row takes no second action; nothing opens over a request under way.
      if (state.busy || isDone(state.outcomes[event.key])) return state;
      return { ...state, open: { action: event.action, key: event.key }, value: '', missing: false };
    case 'close':
      return state.busy ? state : { ...state, open: null, missing: false };
    case 'input':
      return { ...state, value: event.value, missing: state.missing && !event.value.trim() };
    case 'missing':
      return { ...state, missing: true };
    case 'start':
      return { ...state, busy: true };
    case 'settle':
      return { ...state, outcomes: { ...state.outcomes, ...event.outcomes }, open: null, busy: false, missing: false };
    case 'abort':
      return { ...state, open: null, busy: false, missing: false };
  }
}

/** The prompt's text to send, or null when it is required and empty. */
export function promptValue(state: { value: string }, required: boolean): string | null {
  const value = state.value.trim();
  return required && !value ? null : value;
}

/** A row whose action went through (a failed one can be tried again). */
export const isDone = (outcome: RowOutcome | undefined): boolean => !!outcome && !outcome.failed;

/**
 * How many rows are still waiting for an action: `total` (the list's count, which may be larger
 * than the rows shown) less the rows done since the page was loaded.
 */
export function remaining<O extends RowOutcome>(state: RowActionState<O>, keys: readonly string[], total?: number) {
  const done = keys.filter((k) => isDone(state.outcomes[k])).length;
  return Math.max(0, (total ?? keys.length) - done);
}
