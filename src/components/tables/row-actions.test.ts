import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  initialRowActions,
  isDone,
  promptValue,
  remaining,
  rowActionsReducer,
  type RowActionState,
} from './row-actions';
import { RowActionTable, type RowActionTableProps } from './RowActionTable';

type Outcome = { kind: 'approved' } | { kind: 'failed'; failed: true; message: string };
const start = initialRowActions<Outcome>();
const run = (state: RowActionState<Outcome>, ...events: Parameters<typeof rowActionsReducer<Outcome>>[1][]) =>
  events.reduce(rowActionsReducer<Outcome>, state);

describe('row actions (state)', () => {
  it('opens a row’s dialog with an empty prompt, and closes it', () => {
    const open = run(start, { type: 'input', value: 'old' }, { type: 'open', action: 'reject', key: 'A' });
    expect(open.open).toEqual({ action: 'reject', key: 'A' });
    expect(open.value).toBe('');
    expect(run(open, { type: 'close' }).open).toBeNull();
  });

  it('marks an empty required prompt, and clears the mark once something is typed', () => {
    const state = run(start, { type: 'open', action: 'reject', key: 'A' }, { type: 'input', value: '  ' });
    expect(promptValue(state, true)).toBeNull();
    expect(promptValue(state, false)).toBe('');
    const missing = run(state, { type: 'missing' });
    expect(missing.missing).toBe(true);
    expect(run(missing, { type: 'input', value: ' ' }).missing).toBe(true);
    const typed = run(missing, { type: 'input', value: ' full ' });
    expect(typed.missing).toBe(false);
    expect(promptValue(typed, true)).toBe('full');
  });

  it('keeps the dialog open while a request is under way, and opens nothing over it', () => {
    const busy = run(start, { type: 'open', action: 'pay', key: 'A' }, { type: 'start' });
    expect(run(busy, { type: 'close' }).open).toEqual({ action: 'pay', key: 'A' });
    expect(run(busy, { type: 'open', action: 'pay', key: 'B' }).open).toEqual({ action: 'pay', key: 'A' });
  });

  it('records the outcomes, closes the dialog, and takes no second action on a done row', () => {
    const settled = run(
      start,
      { type: 'open', action: 'pay', key: 'A' },
      { type: 'start' },
      { type: 'settle', outcomes: { A: { kind: 'approved' } } },
    );
    expect(settled).toMatchObject({ open: null, busy: false, outcomes: { A: { kind: 'approved' } } });
    expect(run(settled, { type: 'open', action: 'pay', key: 'A' }).open).toBeNull();
  });

  it('lets a refused row be tried again', () => {
    const failed: Outcome = { kind: 'failed', failed: true, message: 'changed since' };
    const state = run(start, { type: 'settle', outcomes: { A: failed } });
    expect(isDone(state.outcomes.A)).toBe(false);
    expect(run(state, { type: 'open', action: 'pay', key: 'A' }).open).toEqual({ action: 'pay', key: 'A' });
  });

  it('abandons a request without an answer: nothing recorded, the dialog closed', () => {
    const state = run(start, { type: 'open', action: 'pay', key: 'A' }, { type: 'start' }, { type: 'abort' });
    expect(state).toMatchObject({ open: null, busy: false, outcomes: {} });
  });

  it('counts the rows still waiting, from the list’s total (defect 6: the count follows each action)', () => {
    const keys = ['A', 'B', 'C'];
    const state = run(start, {
      type: 'settle',
      outcomes: { A: { kind: 'approved' }, B: { kind: 'failed', failed: true, message: 'no' } },
    });
    expect(remaining(start, keys)).toBe(3);
    expect(remaining(state, keys)).toBe(2);
    expect(remaining(state, keys, 40)).toBe(39);
  });
});

type Row = { no: string; status: string };
const props = (rows: Row[]): RowActionTableProps<Row, Outcome> => ({
  caption: 'Queue',
  rows,
  rowKey: (r) => r.no,
  columns: [
    { header: 'Order', rowHeader: true, cell: (r) => r.no },
    { header: 'Status', cell: (r, o) => (o && o.kind !== 'failed' ? o.kind : r.status) },
    { header: 'Select', hiddenHeader: true, cell: () => '' },
  ],
  actionsHeader: 'Decision',
  actions: [
    { name: 'approve', label: 'Approve', ariaLabel: (r) => `Approve ${r.no}`, primary: true, run: async () => null },
  ],
  outcomeText: (o) => o.kind,
  cancelLabel: 'Back',
  heading: { id: 'h', text: (count) => `${count} waiting` },
  empty: 'Nothing waits.',
});

describe('RowActionTable (markup)', () => {
  it('renders the heading’s count, the columns, each row’s header and its labelled action', () => {
    const html = renderToStaticMarkup(
      createElement(RowActionTable<Row, Outcome>, props([{ no: 'TC1', status: 'pending' }])),
    );
    expect(html).toContain('<h2 id="h" class="text-lg font-semibold">1 waiting</h2>');
    expect(html).toContain('<caption class="sr-only">Queue</caption>');
    expect(html).toMatch(/<th scope="col" class="px-3 py-2 "><span class="sr-only">Select<\/span><\/th>/);
    expect(html).toMatch(/<th scope="row"[^>]*>TC1<\/th>/);
    expect(html).toContain('aria-label="Approve TC1"');
    expect(html).toContain('>Decision</th>');
  });

  it('says so when there is no row, with the count at zero', () => {
    const html = renderToStaticMarkup(createElement(RowActionTable<Row, Outcome>, props([])));
    expect(html).toContain('0 waiting');
    expect(html).toContain('Nothing waits.');
    expect(html).not.toContain('<table');
  });
});
