import { lazy, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import { useRowOutcomes } from '@components/ui/use-row-outcomes';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/api.client';
import type { ApprovalRow } from './approvals';

const ConfirmDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConfirmDialog })));
const PromptDialog = lazy(() => import('@components/ui/PromptDialog').then((m) => ({ default: m.PromptDialog })));

export type ApprovalQueueProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: ApprovalRow[];
  /** The back office's order page path, without the order number (`/en/admin/orders/`). */
  orderBase: string;
};

type Outcome = { kind: 'approved' | 'rejected' } | { kind: 'refused'; message: string };
type ApiResult = { orderNo: string; result: 'approved' | 'refused'; code?: string; message?: string };

/**
 * The approvals queue (issue 11): approve one order, or several selected with their checkboxes
 * (each through the order core on its own: the list says per order whether it was approved, or
 * why not), or reject one with a reason. Decided rows stay in the list with their outcome until
 * the page is reloaded, so the organiser sees what happened; focus moves to the outcome.
 */
export default function ApprovalQueue(props: ApprovalQueueProps) {
  const t = createT(props.messages);
  const id = useId();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { outcomes, setOutcomes, returnTo, setReturnTo, resultId, settle } = useRowOutcomes<Outcome>();
  const [summary, setSummary] = useState<{ approved: number; refused: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));

  const open = (orderNo: string) => !outcomes[orderNo] || outcomes[orderNo].kind === 'refused';
  const selectable = props.rows.filter((r) => open(r.orderNo)).map((r) => r.orderNo);
  const chosen = selectable.filter((n) => selected.has(n));
  const allChosen = selectable.length > 0 && chosen.length === selectable.length;
  const api = () => browserApi(props.locale, `${props.base}/`);
  const resultOf = (orderNo: string) => document.getElementById(resultId(orderNo));

  /** Approves the orders through the bulk route; each order's outcome goes on its row. */
  async function approve(orderNos: string[], from: 'row' | 'bulk', opener?: HTMLElement | null) {
    void preloadAlert();
    setBusy(true);
    try {
      const body = await api().post<{ data: ApiResult[]; meta: { approved: number; refused: number } }>(
        '/api/v1/admin/approvals/approve',
        {
          orders: orderNos.map((orderNo) => ({
            orderNo,
            version: props.rows.find((r) => r.orderNo === orderNo)?.version,
          })),
        },
      );
      const target = from === 'row' ? resultOf(orderNos[0]!) : summaryRef.current;
      // The dialog (bulk) gives the focus to the outcome when it closes; without one, focus it here.
      flushSync(() => setReturnTo(target));
      flushSync(() => {
        setOutcomes((current) => {
          const next = { ...current };
          for (const r of body.data)
            next[r.orderNo] =
              r.result === 'approved'
                ? { kind: 'approved' }
                : { kind: 'refused', message: apiMessage(props.messages, r) };
          return next;
        });
        setSelected((current) => new Set([...current].filter((n) => !orderNos.includes(n))));
        setSummary(body.meta);
        setBulkOpen(false);
        setBusy(false);
      });
      if (from === 'row') target?.focus();
    } catch (error) {
      setBusy(false);
      setBulkOpen(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      showAlert(apiMessage(props.messages, error), { returnFocus: opener ?? null });
    }
  }

  async function reject(orderNo: string) {
    if (!reason.trim()) {
      setReasonError(true);
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    void preloadAlert();
    setBusy(true);
    try {
      await api().post(`/api/v1/admin/orders/${encodeURIComponent(orderNo)}/reject`, { reason: reason.trim() });
      settle(orderNo, { kind: 'rejected' }, () => {
        setSelected((current) => new Set([...current].filter((n) => n !== orderNo)));
        setRejecting(null);
        setBusy(false);
      });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) {
        setRejecting(null);
        return;
      }
      settle(orderNo, { kind: 'refused', message: apiMessage(props.messages, error) }, () => setRejecting(null));
    }
  }

  const toggle = (orderNo: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(orderNo);
      else next.delete(orderNo);
      return next;
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-4">
        <label className="inline-flex items-center gap-2 text-sm font-semibold">
          <input
            type="checkbox"
            className="size-4"
            checked={allChosen}
            disabled={selectable.length === 0 || busy}
            ref={(el) => {
              if (el) el.indeterminate = chosen.length > 0 && !allChosen;
            }}
            onChange={(e) => setSelected(new Set(e.target.checked ? selectable : []))}
          />
          {t('admin.approvals.selectAll')}
        </label>
        <button
          type="button"
          className="btn-primary"
          disabled={chosen.length === 0 || busy}
          onClick={() => {
            void loadDialogs();
            setReturnTo(null);
            setBulkOpen(true);
          }}
        >
          {t('admin.approvals.approveSelected', { count: chosen.length })}
        </button>
      </div>
      <p
        ref={summaryRef}
        tabIndex={-1}
        role="status"
        className={summary ? 'rounded-md border border-neutral-300 bg-neutral-50 px-3 py-2 font-semibold' : 'sr-only'}
      >
        {summary ? t('admin.approvals.summary', summary) : ''}
      </p>
      <div className="overflow-x-auto rounded-md border border-neutral-300 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('admin.approvals.title')}</caption>
          <thead className="bg-neutral-100">
            <tr>
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">{t('admin.approvals.col.select')}</span>
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.approvals.col.order')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.approvals.col.registrant')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.approvals.col.event')}
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                {t('admin.approvals.col.works')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.approvals.col.status')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('admin.approvals.col.actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => {
              const outcome = outcomes[row.orderNo];
              const decided = outcome && outcome.kind !== 'refused';
              return (
                <tr
                  key={row.orderNo}
                  className={`border-t border-neutral-200 align-top ${decided ? 'bg-neutral-50' : ''}`}
                >
                  <td className="px-3 py-2">
                    <input
                      type="checkbox"
                      className="size-4"
                      aria-label={t('admin.approvals.select', { orderNo: row.orderNo })}
                      checked={selected.has(row.orderNo)}
                      disabled={decided || busy}
                      onChange={(e) => toggle(row.orderNo, e.target.checked)}
                    />
                  </td>
                  <th scope="row" className="px-3 py-2 font-normal">
                    <a className="link font-mono" href={`${props.orderBase}${encodeURIComponent(row.orderNo)}`}>
                      {row.orderNo}
                    </a>
                    <span className="block whitespace-nowrap text-neutral-600">{formatDateTime(row.createdAt)}</span>
                  </th>
                  <td className="px-3 py-2">
                    <span className="block">{row.name ?? row.email}</span>
                    {row.name && <span className="block text-neutral-600">{row.email}</span>}
                    {row.company && (
                      <span className="block">
                        {row.company}
                        {row.companyOther && <span className="text-neutral-600"> · {row.companyOther}</span>}
                      </span>
                    )}
                    {row.badgeIdentity && (
                      <span className="block text-neutral-600">
                        {t('admin.approvals.badge', { identity: t(`identity.${row.badgeIdentity}`) })}
                      </span>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <span className="block">{row.eventName}</span>
                    <span className="block text-neutral-600">{t(`admin.type.${row.registrationType}`)}</span>
                  </td>
                  <td className="px-3 py-2 text-right">{row.works}</td>
                  <td className="px-3 py-2">
                    <span className="block">{t(`status.approval.${row.approvalStatus}`)}</span>
                    <span className="block whitespace-nowrap text-neutral-600">
                      {row.paymentStatus === 'free'
                        ? t('admin.approvals.free')
                        : formatMoney(row.amountCents, row.currency === 'USD' ? 'USD' : 'TWD', props.locale)}
                    </span>
                  </td>
                  <td className="px-3 py-2">
                    {!decided && (
                      <div className="flex flex-wrap gap-2">
                        <button
                          type="button"
                          className="btn-primary px-3 py-1"
                          aria-label={t('admin.approvals.approveOrder', { orderNo: row.orderNo })}
                          disabled={busy}
                          onClick={(e) => void approve([row.orderNo], 'row', e.currentTarget)}
                        >
                          {t('admin.approvals.approve')}
                        </button>
                        <button
                          type="button"
                          className="btn-secondary px-3 py-1"
                          aria-label={t('admin.approvals.rejectOrder', { orderNo: row.orderNo })}
                          disabled={busy}
                          onClick={() => {
                            setReason('');
                            setReasonError(false);
                            setReturnTo(null);
                            setRejecting(row.orderNo);
                            void import('@components/ui/PromptDialog');
                          }}
                        >
                          {t('admin.approvals.reject')}
                        </button>
                      </div>
                    )}
                    <span
                      id={resultId(row.orderNo)}
                      tabIndex={-1}
                      className={
                        !outcome
                          ? 'sr-only'
                          : outcome.kind === 'refused'
                            ? 'mt-1 block font-semibold text-red-700'
                            : 'block font-semibold text-green-800'
                      }
                    >
                      {outcome?.kind === 'approved'
                        ? t('admin.approvals.result.approved')
                        : outcome?.kind === 'rejected'
                          ? t('admin.approvals.result.rejected')
                          : outcome?.kind === 'refused'
                            ? t('admin.approvals.result.refused', { reason: outcome.message })
                            : ''}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {bulkOpen && (
        <ClientSuspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={(o) => !o && !busy && setBulkOpen(false)}
            title={t('admin.approvals.bulk.title', { count: chosen.length })}
            description={t('admin.approvals.bulk.description')}
            confirmLabel={t('admin.approvals.approveSelected', { count: chosen.length })}
            cancelLabel={t('admin.approvals.back')}
            onConfirm={() => void approve(chosen, 'bulk')}
            busy={busy}
            returnFocus={returnTo}
          />
        </ClientSuspense>
      )}
      {rejecting && (
        <ClientSuspense fallback={null}>
          <PromptDialog
            open
            onOpenChange={(o) => !o && !busy && setRejecting(null)}
            title={t('admin.approvals.reject.title', { orderNo: rejecting })}
            description={t('admin.approvals.reject.description')}
            confirmLabel={t('admin.approvals.reject')}
            cancelLabel={t('admin.approvals.back')}
            onConfirm={() => void reject(rejecting)}
            busy={busy}
            returnFocus={returnTo}
            field={{
              id: `${id}-reason`,
              label: t('admin.approvals.reason'),
              value: reason,
              onChange: (v) => {
                setReason(v);
                if (v.trim()) setReasonError(false);
              },
              error: reasonError ? t('admin.approvals.reasonRequired') : null,
              multiline: true,
              maxLength: 1000,
            }}
          />
        </ClientSuspense>
      )}
      {alertElement}
    </div>
  );
}
