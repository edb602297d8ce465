import { useId, useRef, useState } from 'react';
import { LazyConfirmDialog } from '@components/ui/LazyConfirmDialog';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { FieldLabel } from '@components/ui/FieldParts';

/** The organiser's actions on an order, each the order core's command of the same name. */
export type OrderAction = 'approve' | 'start-review' | 'reject' | 'cancel' | 'mark-paid';
const NEEDS_REASON: Record<OrderAction, 'required' | 'optional' | null> = {
  approve: null,
  'start-review': null,
  reject: 'required',
  cancel: 'optional',
  'mark-paid': null,
};

export type OrderActionsProps = {
  locale: string;
  base: string;
  messages: Messages;
  orderNo: string;
  /** The actions the order's state allows (the domain's transition table), in display order. */
  actions: OrderAction[];
};

/**
 * The action buttons of an order in the back office (issue 11): each asks for confirmation (and a
 * reason where the command takes one: required to reject, optional to cancel), then calls the
 * back-office API, whose refusals (the order changed meanwhile…) are shown in an alert. On
 * success the page reloads, so the order and its history show the change.
 */
export default function OrderActions(props: OrderActionsProps) {
  const t = createT(props.messages);
  const [open, setOpen] = useState<OrderAction | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState(false);
  const [busy, setBusy] = useState(false);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));
  const reasonId = useId();
  const opener = useRef<HTMLButtonElement | null>(null);

  if (props.actions.length === 0) return <p className="text-sm text-neutral-700">{t('admin.action.none')}</p>;

  async function run(action: OrderAction) {
    const needs = NEEDS_REASON[action];
    if (needs === 'required' && !reason.trim()) {
      setReasonError(true);
      document.getElementById(reasonId)?.focus();
      return;
    }
    void preloadAlert();
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    try {
      await api.admin.orders.act(props.orderNo, action, needs ? { reason: reason.trim() || undefined } : {});
      setOpen(null);
      location.reload();
    } catch (error) {
      setBusy(false);
      setOpen(null);
      if (!(error instanceof ApiError) || error.status === 401) return;
      const known = props.messages[`apiError.${error.code}`];
      showAlert(known ?? `[${error.status}] ${error.error}`, { returnFocus: opener.current });
    }
  }

  const current = open;
  return (
    <div>
      <ul className="flex flex-wrap gap-2">
        {props.actions.map((action) => (
          <li key={action}>
            <button
              type="button"
              className={action === 'reject' || action === 'cancel' ? 'btn-secondary' : 'btn-primary'}
              onClick={(e) => {
                opener.current = e.currentTarget;
                setReason('');
                setReasonError(false);
                setOpen(action);
                void loadDialogs();
              }}
            >
              {t(`admin.action.${action}`)}
            </button>
          </li>
        ))}
      </ul>
      {current && (
        <LazyConfirmDialog
          open
          onClose={() => setOpen(null)}
          title={t(`admin.action.${current}.title`, { orderNo: props.orderNo })}
          description={t(`admin.action.${current}.description`)}
          confirmLabel={t(`admin.action.${current}`)}
          cancelLabel={t('admin.action.back')}
          onConfirm={() => void run(current)}
          busy={busy}
        >
          {NEEDS_REASON[current] && (
            <div className="mt-4 flex flex-col gap-1">
              <FieldLabel
                id={reasonId}
                label={t(NEEDS_REASON[current] === 'required' ? 'admin.action.reason' : 'admin.action.reasonOptional')}
              />
              <textarea
                id={reasonId}
                rows={3}
                maxLength={1000}
                value={reason}
                required={NEEDS_REASON[current] === 'required'}
                aria-invalid={reasonError || undefined}
                aria-describedby={reasonError ? `${reasonId}-error` : undefined}
                onChange={(e) => {
                  setReason(e.target.value);
                  if (e.target.value.trim()) setReasonError(false);
                }}
                className={`rounded-md border bg-white px-3 py-2 ${reasonError ? 'border-red-600' : 'border-neutral-500'}`}
              />
              {reasonError && (
                <span id={`${reasonId}-error`} className="text-xs text-red-700">
                  {t('admin.action.reasonRequired')}
                </span>
              )}
            </div>
          )}
        </LazyConfirmDialog>
      )}
      {alertElement}
    </div>
  );
}
