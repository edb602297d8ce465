import { useRef, useState } from 'react';
import { isDone } from '@components/tables/row-actions';
import { RowActionTable } from '@components/tables/RowActionTable';
import { useRowActions } from '@components/tables/use-row-actions';
import { LazyConfirmDialog } from '@components/ui/LazyConfirmDialog';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { apiMessage } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { actionFailure, attempt, type Failed } from '../action-failure';
import { BulkSummary, OrderCell, RegistrantCell } from '../cells';
import type { BulkApproveResult } from '@domain/contract/admin';
import type { ApprovalRow } from './approvals';

export type ApprovalQueueProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: ApprovalRow[];
  /** How many orders wait (the oldest `rows.length` are shown). */
  total: number;
  /** The back office's order page path, without the order number (`/en/admin/orders/`). */
  orderBase: string;
  /** The id of the list's heading (the page's section is labelled by it). */
  headingId: string;
};

type Outcome = { kind: 'approved' | 'rejected' } | Failed;
type ApiResult = BulkApproveResult['data'][number];

/**
 * The approvals queue (issue 11): approve one order, or several selected with their checkboxes
 * (each through the order core on its own: the list says per order whether it was approved, or
 * why not), or reject one with a reason. Decided rows stay in the list with their outcome and
 * their new status until the page is reloaded, and the count follows; focus moves to the outcome.
 */
export default function ApprovalQueue(props: ApprovalQueueProps) {
  const t = createT(props.messages);
  const table = useRowActions<Outcome>();
  const { busy, outcomes } = table.state;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [summary, setSummary] = useState<{ approved: number; refused: number } | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));

  const selectable = props.rows.filter((r) => !isDone(outcomes[r.orderNo])).map((r) => r.orderNo);
  const chosen = selectable.filter((n) => selected.has(n));
  const allChosen = selectable.length > 0 && chosen.length === selectable.length;
  const api = () => browserApi(props.locale, `${props.base}/`);
  const unselect = (orderNos: string[]) =>
    setSelected((current) => new Set([...current].filter((n) => !orderNos.includes(n))));

  const outcomeOf = (r: ApiResult): Outcome =>
    r.result === 'approved'
      ? { kind: 'approved' }
      : { kind: 'failed', failed: true, message: apiMessage(props.messages, r) };

  /** Approves the orders through the bulk route (each through the order core on its own). */
  const approve = (orderNos: string[]) =>
    api().admin.approvals.approve(
      orderNos.map((orderNo) => ({ orderNo, version: props.rows.find((r) => r.orderNo === orderNo)?.version })),
    );

  /** The selected orders: each one's outcome on its row, the counts in the summary (focused). */
  async function approveSelected() {
    void preloadAlert();
    const orderNos = chosen;
    table.dispatch({ type: 'start' });
    try {
      const body = await approve(orderNos);
      table.settle(Object.fromEntries(body.data.map((r) => [r.orderNo, outcomeOf(r)])), summaryRef.current, () => {
        unselect(orderNos);
        setSummary({ approved: body.meta.approved, refused: body.meta.refused });
        setBulkOpen(false);
      });
    } catch (error) {
      table.dispatch({ type: 'abort' });
      setBulkOpen(false);
      const message = actionFailure(props.messages, error);
      if (message !== null) showAlert(message);
    }
  }

  const toggle = (orderNo: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(orderNo);
      else next.delete(orderNo);
      return next;
    });

  const toolbar = (
    <>
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
            table.setReturnTo(null);
            setBulkOpen(true);
          }}
        >
          {t('admin.approvals.approveSelected', { count: chosen.length })}
        </button>
      </div>
      <BulkSummary ref={summaryRef} text={summary ? t('admin.approvals.summary', summary) : ''} />
    </>
  );

  return (
    <div>
      <RowActionTable<ApprovalRow, Outcome>
        controller={table}
        caption={t('admin.approvals.title')}
        heading={{ id: props.headingId, text: (count) => t('admin.approvals.count', { count }) }}
        total={props.total}
        note={
          props.rows.length < props.total && (
            <p className="text-sm text-neutral-700">
              {t('admin.approvals.more', { shown: props.rows.length, total: props.total })}
            </p>
          )
        }
        empty={t('admin.approvals.none')}
        toolbar={toolbar}
        rows={props.rows}
        rowKey={(row) => row.orderNo}
        columns={[
          {
            header: t('admin.approvals.col.select'),
            hiddenHeader: true,
            cell: (row, outcome) => (
              <input
                type="checkbox"
                className="size-4"
                aria-label={t('admin.approvals.select', { orderNo: row.orderNo })}
                checked={selected.has(row.orderNo)}
                disabled={isDone(outcome) || busy}
                onChange={(e) => toggle(row.orderNo, e.target.checked)}
              />
            ),
          },
          {
            header: t('admin.approvals.col.order'),
            rowHeader: true,
            cell: (row) => (
              <OrderCell orderNo={row.orderNo} orderBase={props.orderBase}>
                {formatDateTime(row.createdAt)}
              </OrderCell>
            ),
          },
          {
            header: t('admin.approvals.col.registrant'),
            cell: (row) => (
              <RegistrantCell name={row.name} email={row.email}>
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
              </RegistrantCell>
            ),
          },
          {
            header: t('admin.approvals.col.event'),
            cell: (row) => (
              <>
                <span className="block">{row.eventName}</span>
                <span className="block text-neutral-600">{t(`admin.type.${row.registrationType}`)}</span>
              </>
            ),
          },
          { header: t('admin.approvals.col.works'), numeric: true, cell: (row) => row.works },
          {
            header: t('admin.approvals.col.status'),
            cell: (row, outcome) => (
              <>
                {/* The status the order has now: a decision on this page changes it (defect 6). */}
                <span className="block" data-testid="approval-status">
                  {t(`status.approval.${outcome && outcome.kind !== 'failed' ? outcome.kind : row.approvalStatus}`)}
                </span>
                <span className="block whitespace-nowrap text-neutral-600">
                  {row.paymentStatus === 'free'
                    ? t('admin.approvals.free')
                    : formatMoney(row.amountCents, row.currency === 'USD' ? 'USD' : 'TWD', props.locale)}
                </span>
              </>
            ),
          },
        ]}
        actionsHeader={t('admin.approvals.col.actions')}
        actions={[
          {
            name: 'approve',
            label: t('admin.approvals.approve'),
            ariaLabel: (row) => t('admin.approvals.approveOrder', { orderNo: row.orderNo }),
            primary: true,
            run: (row) =>
              attempt(props.messages, async (): Promise<Outcome> => {
                const body = await approve([row.orderNo]);
                unselect([row.orderNo]);
                return outcomeOf(body.data[0]!);
              }),
          },
          {
            name: 'reject',
            label: t('admin.approvals.reject'),
            ariaLabel: (row) => t('admin.approvals.rejectOrder', { orderNo: row.orderNo }),
            confirm: {
              title: (row) => t('admin.approvals.reject.title', { orderNo: row.orderNo }),
              description: () => t('admin.approvals.reject.description'),
              confirmLabel: t('admin.approvals.reject'),
            },
            prompt: {
              label: t('admin.approvals.reason'),
              required: t('admin.approvals.reasonRequired'),
              multiline: true,
              maxLength: 1000,
            },
            run: (row, reason) =>
              attempt(props.messages, async (): Promise<Outcome> => {
                await api().admin.orders.act(row.orderNo, 'reject', { reason });
                unselect([row.orderNo]);
                return { kind: 'rejected' };
              }),
          },
        ]}
        outcomeText={(o) =>
          o.kind === 'failed'
            ? t('admin.approvals.result.refused', { reason: o.message })
            : t(`admin.approvals.result.${o.kind}`)
        }
        cancelLabel={t('admin.approvals.back')}
      />
      <LazyConfirmDialog
        open={bulkOpen}
        onClose={() => setBulkOpen(false)}
        title={t('admin.approvals.bulk.title', { count: chosen.length })}
        description={t('admin.approvals.bulk.description')}
        confirmLabel={t('admin.approvals.approveSelected', { count: chosen.length })}
        cancelLabel={t('admin.approvals.back')}
        onConfirm={() => void approveSelected()}
        busy={busy}
        returnFocus={table.returnTo}
      />
      {alertElement}
    </div>
  );
}
