import { lazy, type ReactNode } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { loadDialogs } from '@components/ui/load-dialogs';
import { isDone, promptValue, remaining, type RowOutcome } from './row-actions';
import { Table } from './Table';
import { useRowActions, type RowActions } from './use-row-actions';

const ConfirmDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConfirmDialog })));
const loadPrompt = () => import('@components/ui/PromptDialog');
const PromptDialog = lazy(() => loadPrompt().then((m) => ({ default: m.PromptDialog })));

export type RowColumn<R, O> = {
  header: string;
  /** The header is for screen readers only (a column of checkboxes). */
  hiddenHeader?: boolean;
  /** Figures: aligned to the end. */
  numeric?: boolean;
  /** The row's header cell (`<th scope="row">`): the column that names the row. */
  rowHeader?: boolean;
  className?: string;
  cell: (row: R, outcome: O | undefined) => ReactNode;
};

export type RowAction<R, O> = {
  name: string;
  label: string;
  /** The button's name, with the row's (`Approve order TC…`). */
  ariaLabel: (row: R) => string;
  primary?: boolean;
  /** Asked before the action runs (a prompt asks for a text too); without either it runs at the click. */
  confirm?: { title: (row: R) => string; description: (row: R) => ReactNode; confirmLabel: string };
  prompt?: {
    label: string;
    hint?: string;
    /** The error shown when it is confirmed empty. */
    required: string;
    multiline?: boolean;
    maxLength: number;
  };
  /** Does it; the row's outcome, or null when there is none to show (signed out). */
  run: (row: R, value: string) => Promise<O | null>;
};

export type RowActionTableProps<R, O extends RowOutcome> = {
  caption: string;
  rows: R[];
  rowKey: (row: R) => string;
  columns: RowColumn<R, O>[];
  actions: RowAction<R, O>[];
  /** The header of the column of actions and outcomes. */
  actionsHeader: string;
  outcomeText: (outcome: O) => string;
  cancelLabel: string;
  /** The list's heading, with the count of rows still waiting (it follows each action). */
  heading: { id: string; text: (count: number) => string };
  /** The list's count when it is more than the rows shown. */
  total?: number;
  /** Under the heading. */
  note?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty: string;
  /** Above the table (bulk actions). */
  toolbar?: ReactNode;
  /** The state, when the island needs it too (bulk actions); otherwise the table keeps its own. */
  controller?: RowActions<O>;
};

/**
 * One back-office list whose rows each take an action (approvals, transfers, refunds): the rows,
 * each row's action buttons with their confirm or prompt dialog, each row's outcome (focused
 * when it is shown), and the heading's count, which follows the actions.
 */
export function RowActionTable<R, O extends RowOutcome>(props: RowActionTableProps<R, O>) {
  const own = useRowActions<O>();
  const c = props.controller ?? own;
  const { state, dispatch } = c;
  const keys = props.rows.map(props.rowKey);
  const openRow = state.open ? props.rows.find((r) => props.rowKey(r) === state.open!.key) : undefined;
  const openAction = state.open ? props.actions.find((a) => a.name === state.open!.action) : undefined;
  const fieldId = `${c.id}-prompt`;

  async function run(action: RowAction<R, O>, row: R) {
    const value = promptValue(state, !!action.prompt);
    if (value === null) {
      dispatch({ type: 'missing' });
      document.getElementById(fieldId)?.focus();
      return;
    }
    dispatch({ type: 'start' });
    const outcome = await action.run(row, value).catch(() => null);
    if (!outcome) {
      dispatch({ type: 'abort' });
      return;
    }
    const target = c.settle({ [props.rowKey(row)]: outcome });
    // Without a dialog to hand it over, the focus goes to the outcome here.
    if (!action.confirm && !action.prompt) target?.focus();
  }

  function start(action: RowAction<R, O>, row: R) {
    if (!action.confirm && !action.prompt) {
      void run(action, row);
      return;
    }
    void (action.prompt ? loadPrompt() : loadDialogs());
    c.setReturnTo(null);
    dispatch({ type: 'open', action: action.name, key: props.rowKey(row) });
  }

  const dialogProps =
    openRow && openAction
      ? {
          open: true,
          onOpenChange: (o: boolean) => !o && dispatch({ type: 'close' }),
          title: openAction.confirm?.title(openRow) ?? openAction.label,
          description: openAction.confirm?.description(openRow) ?? '',
          confirmLabel: openAction.confirm?.confirmLabel ?? openAction.label,
          cancelLabel: props.cancelLabel,
          onConfirm: () => void run(openAction, openRow),
          busy: state.busy,
          returnFocus: c.returnTo,
        }
      : null;

  return (
    <div className="space-y-3">
      <h2 id={props.heading.id} className="text-lg font-semibold">
        {props.heading.text(remaining(state, keys, props.total))}
      </h2>
      {props.note}
      {props.rows.length === 0 ? (
        <p className="card">{props.empty}</p>
      ) : (
        <>
          {props.toolbar}
          <Table
            caption={props.caption}
            columns={[
              ...props.columns.map((c) => ({ label: c.header, numeric: !!c.numeric, hidden: !!c.hiddenHeader })),
              props.actionsHeader,
            ]}
          >
            {props.rows.map((row) => {
              const key = props.rowKey(row);
              const outcome = state.outcomes[key];
              const done = isDone(outcome);
              return (
                <tr key={key} className={`border-t border-neutral-200 align-top ${done ? 'bg-neutral-50' : ''}`}>
                  {props.columns.map((col) => {
                    const className = `px-3 py-2 ${col.numeric ? 'text-right' : ''} ${col.className ?? ''}`;
                    const content = col.cell(row, outcome);
                    return col.rowHeader ? (
                      <th key={col.header} scope="row" className={`${className} font-normal`}>
                        {content}
                      </th>
                    ) : (
                      <td key={col.header} className={className}>
                        {content}
                      </td>
                    );
                  })}
                  <td className="px-3 py-2">
                    {!done && (
                      <div className="flex flex-wrap gap-2">
                        {props.actions.map((action) => (
                          <button
                            key={action.name}
                            type="button"
                            className={`${action.primary ? 'btn-primary' : 'btn-secondary'} px-3 py-1`}
                            aria-label={action.ariaLabel(row)}
                            disabled={state.busy}
                            onClick={() => start(action, row)}
                          >
                            {action.label}
                          </button>
                        ))}
                      </div>
                    )}
                    <span
                      id={c.resultId(key)}
                      tabIndex={-1}
                      className={
                        !outcome
                          ? 'sr-only'
                          : outcome.failed
                            ? 'mt-1 block font-semibold text-red-700'
                            : 'block font-semibold text-green-800'
                      }
                    >
                      {outcome ? props.outcomeText(outcome) : ''}
                    </span>
                  </td>
                </tr>
              );
            })}
          </Table>
        </>
      )}
      {dialogProps && openAction?.prompt && (
        <ClientSuspense fallback={null}>
          <PromptDialog
            {...dialogProps}
            field={{
              id: fieldId,
              label: openAction.prompt.label,
              hint: openAction.prompt.hint,
              value: state.value,
              onChange: (value) => dispatch({ type: 'input', value }),
              error: state.missing ? openAction.prompt.required : null,
              multiline: openAction.prompt.multiline ?? false,
              maxLength: openAction.prompt.maxLength,
            }}
          />
        </ClientSuspense>
      )}
      {dialogProps && !openAction?.prompt && (
        <ClientSuspense fallback={null}>
          <ConfirmDialog {...dialogProps} />
        </ClientSuspense>
      )}
    </div>
  );
}
