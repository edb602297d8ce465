import { lazy, useId, useState } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { useRowOutcomes } from '@components/ui/use-row-outcomes';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { currencyOf, type RefundRow } from '../reconciliation';

const PromptDialog = lazy(() => import('@components/ui/PromptDialog').then((m) => ({ default: m.PromptDialog })));

export type RefundListProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: RefundRow[];
  /** The back office's order page path, without the order number. */
  orderBase: string;
};

type Outcome = { kind: 'refunded'; reference: string } | { kind: 'failed'; message: string };

/**
 * Refunds due (issue 11): the charges the order core recorded as owed back; "Refunded" records
 * the refund done in the gateway's merchant console (or by bank transfer) with its reference.
 */
export default function RefundList(props: RefundListProps) {
  const t = createT(props.messages);
  const id = useId();
  const { outcomes, returnTo, setReturnTo, resultId, settle } = useRowOutcomes<Outcome>();
  const [open, setOpen] = useState<RefundRow | null>(null);
  const [reference, setReference] = useState('');
  const [error, setError] = useState(false);
  const [busy, setBusy] = useState(false);
  const money = (row: RefundRow) => formatMoney(row.amountCents, currencyOf(row.currency), props.locale);

  async function record(row: RefundRow) {
    if (!reference.trim()) {
      setError(true);
      document.getElementById(`${id}-reference`)?.focus();
      return;
    }
    setBusy(true);
    let outcome: Outcome;
    try {
      await browserApi(props.locale, `${props.base}/`).post(
        `/api/v1/admin/refunds/${encodeURIComponent(row.paymentId)}/refunded`,
        { reference: reference.trim() },
      );
      outcome = { kind: 'refunded', reference: reference.trim() };
    } catch (e) {
      if (!(e instanceof ApiError) || e.status === 401) {
        setBusy(false);
        setOpen(null);
        return;
      }
      outcome = { kind: 'failed', message: apiMessage(props.messages, e) };
    }
    settle(row.paymentId, outcome, () => {
      setOpen(null);
      setBusy(false);
    });
  }

  return (
    <div>
      <div className="overflow-x-auto rounded-md border border-neutral-300 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('admin.refunds.title')}</caption>
          <thead className="bg-neutral-100">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t('admin.refunds.col.order')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.refunds.col.registrant')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.refunds.col.payment')}
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                {t('admin.refunds.col.amount')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.refunds.col.reason')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.refunds.col.actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => {
              const outcome = outcomes[row.paymentId];
              return (
                <tr key={row.paymentId} className="border-t border-neutral-200 align-top">
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
                    <span className="block">{t(`pay.type.${row.method}`)}</span>
                    {row.gatewayTradeNo && (
                      <span className="block font-mono text-neutral-600">
                        {t('admin.refunds.trade', { tradeNo: row.gatewayTradeNo })}
                      </span>
                    )}
                    <span className="block text-neutral-600">
                      {t('admin.refunds.since', { date: formatDateTime(row.at) })}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-right whitespace-nowrap">{money(row)}</td>
                  <td className="px-3 py-2">
                    {row.reason ? (props.messages[`admin.refundReason.${row.reason}`] ?? row.reason) : ''}
                  </td>
                  <td className="px-3 py-2">
                    {outcome?.kind !== 'refunded' && (
                      <button
                        type="button"
                        className="btn-primary px-3 py-1"
                        aria-label={t('admin.refunds.markRefundedFor', { orderNo: row.orderNo })}
                        disabled={busy}
                        onClick={() => {
                          setReference('');
                          setError(false);
                          void import('@components/ui/PromptDialog');
                          setReturnTo(null);
                          setOpen(row);
                        }}
                      >
                        {t('admin.refunds.markRefunded')}
                      </button>
                    )}
                    <span
                      id={resultId(row.paymentId)}
                      tabIndex={-1}
                      className={
                        !outcome
                          ? 'sr-only'
                          : outcome.kind === 'failed'
                            ? 'mt-1 block font-semibold text-red-700'
                            : 'block font-semibold text-green-800'
                      }
                    >
                      {outcome?.kind === 'refunded'
                        ? t('admin.refunds.result', { reference: outcome.reference })
                        : outcome
                          ? t('admin.refunds.failed', { reason: outcome.message })
                          : ''}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {open && (
        <ClientSuspense fallback={null}>
          <PromptDialog
            open
            onOpenChange={(o) => !o && !busy && setOpen(null)}
            title={t('admin.refunds.dialog.title', { amount: money(open), orderNo: open.orderNo })}
            description={t('admin.refunds.dialog.description')}
            confirmLabel={t('admin.refunds.markRefunded')}
            cancelLabel={t('admin.refunds.back')}
            onConfirm={() => void record(open)}
            busy={busy}
            returnFocus={returnTo}
            field={{
              id: `${id}-reference`,
              label: t('admin.refunds.reference'),
              value: reference,
              onChange: (v) => {
                setReference(v);
                if (v.trim()) setError(false);
              },
              error: error ? t('admin.refunds.referenceRequired') : null,
              maxLength: 200,
            }}
          />
        </ClientSuspense>
      )}
    </div>
  );
}
