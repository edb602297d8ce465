import { lazy, useId, useState } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useRowOutcomes } from '@components/ui/use-row-outcomes';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { currencyOf, type TransferRow } from '../reconciliation';

const ConfirmDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConfirmDialog })));
const PromptDialog = lazy(() => import('@components/ui/PromptDialog').then((m) => ({ default: m.PromptDialog })));

export type TransferQueueProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: TransferRow[];
  /** The back office's order page path, without the order number. */
  orderBase: string;
  /** When the page was made (ISO): deadlines before it are shown as past. */
  now: string;
};

type Outcome = { kind: 'paid' } | { kind: 'returned'; deadline: string | null } | { kind: 'failed'; message: string };

/**
 * Transfers being checked (issue 11): mark one paid (the order core's markPaid), or send it back
 * to the registrant with a message (return_transfer). A row keeps its outcome until the page is
 * reloaded; focus moves to it.
 */
export default function TransferQueue(props: TransferQueueProps) {
  const t = createT(props.messages);
  const id = useId();
  const { outcomes, returnTo, setReturnTo, resultId, settle } = useRowOutcomes<Outcome>();
  const [dialog, setDialog] = useState<{ kind: 'pay' | 'return'; row: TransferRow } | null>(null);
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState(false);
  const [busy, setBusy] = useState(false);

  const money = (row: TransferRow) => formatMoney(row.amountCents, currencyOf(row.currency), props.locale);

  async function run(kind: 'pay' | 'return', row: TransferRow) {
    if (kind === 'return' && !message.trim()) {
      setMessageError(true);
      document.getElementById(`${id}-message`)?.focus();
      return;
    }
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    const path = `/api/v1/admin/orders/${encodeURIComponent(row.orderNo)}`;
    let outcome: Outcome;
    try {
      if (kind === 'pay') {
        await api.post(`${path}/mark-paid`, {});
        outcome = { kind: 'paid' };
      } else {
        const body = await api.post<{ data: { paymentExpiresAt: string | null } }>(`${path}/return-transfer`, {
          message: message.trim(),
        });
        outcome = { kind: 'returned', deadline: body.data.paymentExpiresAt };
      }
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 401) {
        setBusy(false);
        setDialog(null);
        return;
      }
      outcome = { kind: 'failed', message: apiMessage(props.messages, error) };
    }
    settle(row.orderNo, outcome, () => {
      setDialog(null);
      setBusy(false);
    });
  }

  const outcomeText = (o: Outcome) =>
    o.kind === 'paid'
      ? t('admin.transfers.result.paid')
      : o.kind === 'returned'
        ? t('admin.transfers.result.returned', { date: o.deadline ? formatDateTime(o.deadline) : '' })
        : t('admin.transfers.result.failed', { reason: o.message });

  return (
    <div>
      <div className="overflow-x-auto rounded-md border border-neutral-300 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('admin.transfers.checking')}</caption>
          <thead className="bg-neutral-100">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t('admin.transfers.col.order')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.transfers.col.registrant')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.transfers.col.transfer')}
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                {t('admin.transfers.col.amount')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.transfers.col.dates')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.transfers.col.actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => {
              const outcome = outcomes[row.orderNo];
              const done = outcome && outcome.kind !== 'failed';
              const due =
                row.paymentExpiresAt && new Date(row.paymentExpiresAt).getTime() < new Date(props.now).getTime();
              return (
                <tr
                  key={row.orderNo}
                  className={`border-t border-neutral-200 align-top ${done ? 'bg-neutral-50' : ''}`}
                >
                  <th scope="row" className="px-3 py-2 font-normal">
                    <a className="link font-mono" href={`${props.orderBase}${encodeURIComponent(row.orderNo)}`}>
                      {row.orderNo}
                    </a>
                    <span className="block text-neutral-600">{row.eventName}</span>
                  </th>
                  <td className="px-3 py-2">
                    <span className="block">{row.name ?? row.email}</span>
                    {row.name && <span className="block text-neutral-600">{row.email}</span>}
                  </td>
                  <td className="px-3 py-2">
                    {row.paymentType && <span className="block">{t(`pay.type.${row.paymentType}`)}</span>}
                    {row.remitter && (
                      <span className="block">{t('admin.transfers.remitter', { name: row.remitter })}</span>
                    )}
                    {row.senderBank && (
                      <span className="block">{t('admin.transfers.bank', { bank: row.senderBank })}</span>
                    )}
                    <span className="block font-semibold">
                      {t('admin.transfers.lastFive', { digits: row.lastFiveDigits ?? '—' })}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-right whitespace-nowrap">{money(row)}</td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {row.declaredAt && (
                      <span className="block">
                        {t('admin.transfers.declared', { date: formatDateTime(row.declaredAt) })}
                      </span>
                    )}
                    {row.paymentExpiresAt && (
                      <span className={`block ${due ? 'font-semibold text-red-700' : 'text-neutral-600'}`}>
                        {t('admin.transfers.due', { date: formatDateTime(row.paymentExpiresAt) })}
                      </span>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    {!done && (
                      <div className="flex flex-wrap gap-2">
                        <button
                          type="button"
                          className="btn-primary px-3 py-1"
                          aria-label={t('admin.transfers.markPaidOrder', { orderNo: row.orderNo })}
                          disabled={busy}
                          onClick={() => {
                            void loadDialogs();
                            setReturnTo(null);
                            setDialog({ kind: 'pay', row });
                          }}
                        >
                          {t('admin.transfers.markPaid')}
                        </button>
                        <button
                          type="button"
                          className="btn-secondary px-3 py-1"
                          aria-label={t('admin.transfers.sendBackOrder', { orderNo: row.orderNo })}
                          disabled={busy}
                          onClick={() => {
                            setMessage('');
                            setMessageError(false);
                            void import('@components/ui/PromptDialog');
                            setReturnTo(null);
                            setDialog({ kind: 'return', row });
                          }}
                        >
                          {t('admin.transfers.sendBack')}
                        </button>
                      </div>
                    )}
                    <span
                      id={resultId(row.orderNo)}
                      tabIndex={-1}
                      className={
                        !outcome
                          ? 'sr-only'
                          : outcome.kind === 'failed'
                            ? 'mt-1 block font-semibold text-red-700'
                            : 'block font-semibold text-green-800'
                      }
                    >
                      {outcome ? outcomeText(outcome) : ''}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {dialog?.kind === 'pay' && (
        <ClientSuspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={(o) => !o && !busy && setDialog(null)}
            title={t('admin.transfers.markPaid.title', { orderNo: dialog.row.orderNo })}
            description={t('admin.transfers.markPaid.description', {
              amount: money(dialog.row),
              digits: dialog.row.lastFiveDigits ?? '—',
            })}
            confirmLabel={t('admin.transfers.markPaid')}
            cancelLabel={t('admin.transfers.back')}
            onConfirm={() => void run('pay', dialog.row)}
            busy={busy}
            returnFocus={returnTo}
          />
        </ClientSuspense>
      )}
      {dialog?.kind === 'return' && (
        <ClientSuspense fallback={null}>
          <PromptDialog
            open
            onOpenChange={(o) => !o && !busy && setDialog(null)}
            title={t('admin.transfers.sendBack.title', { orderNo: dialog.row.orderNo })}
            description={t('admin.transfers.sendBack.description')}
            confirmLabel={t('admin.transfers.sendBack')}
            cancelLabel={t('admin.transfers.back')}
            onConfirm={() => void run('return', dialog.row)}
            busy={busy}
            returnFocus={returnTo}
            field={{
              id: `${id}-message`,
              label: t('admin.transfers.message'),
              hint: t('admin.transfers.messageHint'),
              value: message,
              onChange: (v) => {
                setMessage(v);
                if (v.trim()) setMessageError(false);
              },
              error: messageError ? t('admin.transfers.messageRequired') : null,
              multiline: true,
              maxLength: 2000,
            }}
          />
        </ClientSuspense>
      )}
    </div>
  );
}
