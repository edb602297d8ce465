import { lazy, useId, useRef, useState, type ReactNode } from 'react';
import { Table } from '@components/tables/Table';
import { flushSync } from 'react-dom';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { LazyConfirmDialog } from '@components/ui/LazyConfirmDialog';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { BulkSummary } from '../cells';
import { currencyOf, isOpenLine, type ImportLine, type ImportView, type LineOrder } from '../reconciliation';

/** A statement's calendar day as the portal writes dates (`2026/11/4`). */
const statementDay = (day: string) => day.split('-').map(Number).join('/');

const PromptDialog = lazy(() => import('@components/ui/PromptDialog').then((m) => ({ default: m.PromptDialog })));

export type ImportLinesProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  view: ImportView;
  /** The back office's order page path, without the order number. */
  orderBase: string;
  /** The import page's path, without the import's id. */
  importBase: string;
};

type Result = {
  lineId: string;
  lineNo: number;
  result: 'paid' | 'refused';
  orderNo?: string;
  code?: string;
  message?: string;
};

/**
 * The lines of an imported bank statement (issue 11, decision 026) and what became of each:
 * confirm the matched lines in one action (each pays its order through the order core, the
 * amount checked again), or assign an open line by hand to an order (the same amount and
 * currency check). After each action the lines are read again from the API.
 */
export default function ImportLines(props: ImportLinesProps) {
  const t = createT(props.messages);
  const id = useId();
  const [view, setView] = useState(props.view);
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<{ paid: number; refused: number } | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [assigning, setAssigning] = useState<ImportLine | null>(null);
  const [orderNo, setOrderNo] = useState('');
  const [orderError, setOrderError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  /** Where a dialog gives the focus when it closes: the outcome of what it did (null: its opener). */
  const [returnTo, setReturnTo] = useState<HTMLElement | null>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));

  const api = () => browserApi(props.locale, `${props.base}/`);
  const matched = view.lines.filter((l) => l.outcome === 'matched');
  const amountOf = (l: Pick<ImportLine, 'amountCents' | 'currency'>) =>
    l.amountCents === null ? '' : formatMoney(l.amountCents, currencyOf(l.currency), props.locale);
  const orderLink = (o: LineOrder) => (
    <a className="link font-mono" href={`${props.orderBase}${encodeURIComponent(o.orderNo)}`}>
      {o.orderNo}
    </a>
  );

  async function reload() {
    const body = await api().admin.bankImports.get(view.id);
    return body.data;
  }

  async function confirm() {
    void preloadAlert();
    setBusy(true);
    try {
      const body = await api().admin.bankImports.confirm(
        view.id,
        matched.map((l) => l.id),
      );
      const fresh = await reload();
      flushSync(() => setReturnTo(summaryRef.current));
      flushSync(() => {
        setView(fresh);
        setRefusals((current) => {
          const next = { ...current };
          // Each line's answer carries its refusal's code and message (beyond the contract's type).
          for (const r of body.data as Result[])
            if (r.result === 'refused') next[r.lineId] = apiMessage(props.messages, r);
          return next;
        });
        setSummary(body.meta);
        setConfirmOpen(false);
        setBusy(false);
      });
    } catch (error) {
      setBusy(false);
      setConfirmOpen(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      showAlert(apiMessage(props.messages, error));
    }
  }

  async function assign(line: ImportLine) {
    const number = orderNo.trim().toUpperCase();
    if (!number) {
      setOrderError(t('admin.import.orderNoRequired'));
      document.getElementById(`${id}-order`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await api().admin.bankImports.assign(line.id, number);
      const fresh = await reload();
      flushSync(() => setReturnTo(document.getElementById(`${id}-line-${line.id}`)));
      flushSync(() => {
        setView(fresh);
        setRefusals((current) => Object.fromEntries(Object.entries(current).filter(([k]) => k !== line.id)));
        setAssigning(null);
        setBusy(false);
      });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) {
        setAssigning(null);
        return;
      }
      // Refused (another amount, paid already, no such order): say so in the dialog, keep it open.
      setOrderError(apiMessage(props.messages, error));
      document.getElementById(`${id}-order`)?.focus();
    }
  }

  const outcomeDetail = (line: ImportLine) => {
    const parts: ReactNode[] = [];
    if (line.outcome === 'paid' && line.paidOrder)
      parts.push(
        <span key="paid" className="block">
          {t('admin.import.paidOrder')} {orderLink(line.paidOrder)}
          {line.paidBy && line.paidAt && (
            <span className="block text-neutral-600">
              {t('admin.import.paidBy', { who: line.paidBy, date: formatDateTime(line.paidAt) })}
            </span>
          )}
        </span>,
      );
    if (line.reason)
      parts.push(
        <span key="reason" className="block">
          {t(`admin.import.reason.${line.reason}`)}
        </span>,
      );
    if (line.kind === 'unreadable' && line.outcome === 'unreadable')
      parts.push(
        <span key="problem" className="block text-neutral-600">
          {line.bookedOn
            ? line.amountCents === null
              ? t('admin.import.problem.amount')
              : t('admin.import.problem.currency')
            : t('admin.import.problem.date')}
        </span>,
      );
    if (line.outcome !== 'paid' && line.candidates.length > 0)
      parts.push(
        <ul key="candidates" className="mt-1 space-y-0.5">
          {line.candidates.map((c) => (
            <li key={c.orderNo}>
              {orderLink(c)}{' '}
              <span className="text-neutral-600">
                · {c.name ?? c.email} · {formatMoney(c.amountCents, currencyOf(c.currency), props.locale)}
                {c.lastFiveDigits && ` · ${c.lastFiveDigits}`}
              </span>
            </li>
          ))}
        </ul>,
      );
    if (line.original)
      parts.push(
        <span key="original" className="block text-neutral-600">
          <a className="link" href={`${props.importBase}${encodeURIComponent(line.original.importId)}`}>
            {t('admin.import.original', {
              date: formatDateTime(line.original.importedAt),
              file: line.original.fileName,
              line: line.original.lineNo,
              outcome: t(`admin.import.outcome.${line.original.outcome}`),
            })}
          </a>
          {line.original.paidOrder && <> · {orderLink(line.original.paidOrder)}</>}
        </span>,
      );
    if (refusals[line.id])
      parts.push(
        <span key="refused" className="block font-semibold text-red-700">
          {refusals[line.id]}
        </span>,
      );
    return parts;
  };

  const tone: Record<ImportLine['outcome'], string> = {
    matched: 'bg-sky-100 text-sky-900',
    ambiguous: 'bg-amber-100 text-amber-900',
    unmatched: 'bg-red-100 text-red-900',
    already_imported: 'bg-neutral-200 text-neutral-800',
    debit: 'bg-neutral-100 text-neutral-700',
    unreadable: 'bg-neutral-100 text-neutral-700',
    paid: 'bg-green-100 text-green-900',
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="button"
          className="btn-primary"
          disabled={matched.length === 0 || busy}
          onClick={() => {
            void loadDialogs();
            setReturnTo(null);
            setConfirmOpen(true);
          }}
        >
          {t('admin.import.confirm', { count: matched.length })}
        </button>
        {matched.length === 0 && <span className="text-sm text-neutral-700">{t('admin.import.noneMatched')}</span>}
      </div>
      <BulkSummary ref={summaryRef} text={summary ? t('admin.import.summary', summary) : ''} />
      <Table
        caption={t('admin.import.lines')}
        columns={[
          t('admin.import.col.line'),
          t('admin.import.col.date'),
          { label: t('admin.import.col.amount'), numeric: true },
          t('admin.import.col.account'),
          t('admin.import.col.memo'),
          t('admin.import.col.outcome'),
          t('admin.import.col.actions'),
        ]}
      >
        {view.lines.map((line) => (
          <tr key={line.id} className="border-t border-neutral-200 align-top">
            <th scope="row" className="px-3 py-2 font-normal">
              {line.lineNo}
            </th>
            <td className="px-3 py-2 whitespace-nowrap">{line.bookedOn ? statementDay(line.bookedOn) : ''}</td>
            <td className="px-3 py-2 text-right whitespace-nowrap">{amountOf(line)}</td>
            <td className="px-3 py-2 font-mono">{line.accountLastFive ?? ''}</td>
            <td className="px-3 py-2 break-words">
              {line.kind === 'unreadable' ? line.cells.filter(Boolean).join(' | ') : line.memo}
            </td>
            <td className="px-3 py-2">
              <span
                id={`${id}-line-${line.id}`}
                tabIndex={-1}
                className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tone[line.outcome]}`}
              >
                {t(`admin.import.outcome.${line.outcome}`)}
              </span>
              {outcomeDetail(line)}
            </td>
            <td className="px-3 py-2">
              {isOpenLine(line) && (
                <button
                  type="button"
                  className="btn-secondary px-3 py-1"
                  aria-label={t('admin.import.assignLine', { line: line.lineNo })}
                  disabled={busy}
                  onClick={() => {
                    setOrderNo(line.candidates.length === 1 ? line.candidates[0]!.orderNo : '');
                    setOrderError(null);
                    void import('@components/ui/PromptDialog');
                    setReturnTo(null);
                    setAssigning(line);
                  }}
                >
                  {t('admin.import.assign')}
                </button>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <LazyConfirmDialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title={t('admin.import.confirm.title', { count: matched.length })}
        description={t('admin.import.confirm.description')}
        confirmLabel={t('admin.import.confirm', { count: matched.length })}
        cancelLabel={t('admin.import.cancel')}
        onConfirm={() => void confirm()}
        busy={busy}
        returnFocus={returnTo}
      />
      {assigning && (
        <ClientSuspense fallback={null}>
          <PromptDialog
            open
            onOpenChange={(o) => !o && !busy && setAssigning(null)}
            title={t('admin.import.assign.title', { line: assigning.lineNo, amount: amountOf(assigning) })}
            description={t('admin.import.assign.description')}
            confirmLabel={t('admin.import.assign')}
            cancelLabel={t('admin.import.cancel')}
            onConfirm={() => void assign(assigning)}
            busy={busy}
            returnFocus={returnTo}
            field={{
              id: `${id}-order`,
              label: t('admin.import.orderNo'),
              value: orderNo,
              onChange: (v) => {
                setOrderNo(v);
                setOrderError(null);
              },
              error: orderError,
              maxLength: 40,
            }}
          >
            {assigning.candidates.length > 1 && (
              <fieldset className="mt-4">
                <legend className="text-sm font-semibold">{t('admin.import.fits')}</legend>
                <div className="mt-1 space-y-1">
                  {assigning.candidates.map((c) => (
                    <label key={c.orderNo} className="flex items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name={`${id}-candidate`}
                        checked={orderNo.trim().toUpperCase() === c.orderNo}
                        onChange={() => {
                          setOrderNo(c.orderNo);
                          setOrderError(null);
                        }}
                      />
                      {t('admin.import.candidate', {
                        orderNo: c.orderNo,
                        who: c.name ?? c.email,
                        amount: formatMoney(c.amountCents, currencyOf(c.currency), props.locale),
                      })}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
          </PromptDialog>
        </ClientSuspense>
      )}
      {alertElement}
    </div>
  );
}
