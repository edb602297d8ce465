import { useId, useState } from 'react';
import { LazyConfirmDialog } from '@components/ui/LazyConfirmDialog';
import { loadDialogs } from '@components/ui/load-dialogs';
import { TextField } from '@components/ui/TextField';
import type { CardRefundPreview } from '@domain/contract';
import { formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';

export type CardRefundProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  paymentId: string;
  orderNo: string;
  /** `due`: a payment owed back (the refunds list); `goodwill`: a paid order's payment (its order page). */
  variant: 'due' | 'goodwill';
};

type Preview = { kind: 'loading' } | { kind: 'ok'; data: CardRefundPreview } | { kind: 'failed'; message: string };

/** Whole NT$ typed by the organiser, as cents; null unless a whole number. */
const centsOf = (text: string) => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) * 100 : null);

/**
 * A card payment refunded through NewebPay (issue 22, decision 056) from the back office: the
 * dialog first asks the API what the refund would do (the gateway cancels an unsettled
 * authorisation, whole only, or refunds a settled one, in part too; the e-invoice is voided or
 * credited), then takes the whole balance or a part and the reason. Done, the page reloads so the
 * order, its history and the list show it.
 */
export default function CardRefund(props: CardRefundProps) {
  const t = createT(props.messages);
  const [open, setOpen] = useState(false);
  const [preview, setPreview] = useState<Preview>({ kind: 'loading' });
  const [part, setPart] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string; submit?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();
  const api = () => browserApi(props.locale, `${props.base}/`);
  const money = (cents: number, currency = 'TWD') =>
    formatMoney(cents, currency === 'USD' ? 'USD' : 'TWD', props.locale);
  const apiMessage = (error: unknown) => {
    if (!(error instanceof ApiError)) return String(error);
    const code = String(error.data.gatewayStatus ?? '');
    const gateway = code && props.messages[`admin.refunds.gateway.${code}`];
    if (gateway) return t('admin.refunds.refused', { reason: gateway, code });
    return props.messages[`apiError.${error.code}`] ?? `[${error.status}] ${error.error}`;
  };

  async function openDialog() {
    setOpen(true);
    setPreview({ kind: 'loading' });
    setPart(false);
    setAmount('');
    setErrors({});
    try {
      setPreview({ kind: 'ok', data: (await api().admin.refunds.preview(props.paymentId)).data });
    } catch (error) {
      setPreview({ kind: 'failed', message: t('admin.cardRefund.previewFailed', { reason: apiMessage(error) }) });
    }
  }

  async function confirm() {
    if (preview.kind !== 'ok') return;
    const p = preview.data;
    const wanted = part ? centsOf(amount) : null;
    const next: typeof errors = {};
    if (part && (wanted === null || wanted < 100 || wanted >= p.balanceCents))
      next.amount = t('admin.cardRefund.amountError', { max: String(Math.floor(p.balanceCents / 100) - 1) });
    if (!reason.trim()) next.reason = t('admin.cardRefund.reasonRequired');
    setErrors(next);
    if (next.amount || next.reason) return;
    setBusy(true);
    try {
      const result = await api().admin.refunds.throughGateway(props.paymentId, {
        reason: reason.trim(),
        ...(part && wanted ? { amountCents: wanted } : {}),
      });
      setDone(t('admin.cardRefund.done', { amount: money(result.data.amountCents, result.data.currency) }));
      setOpen(false);
      location.reload();
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === 401) return;
      setErrors({ submit: apiMessage(error) });
    }
  }

  const p = preview.kind === 'ok' ? preview.data : null;
  const invoiceName = p?.invoice?.number ?? t('admin.cardRefund.invoice.pending');
  const invoiceEffect = p?.invoice ? (part ? p.invoice.partial : p.invoice.whole) : 'none';
  const partAllowed = !!p?.partialAllowed;
  const label = props.variant === 'goodwill' ? 'admin.cardRefund.goodwill' : 'admin.cardRefund.open';
  const labelFor = props.variant === 'goodwill' ? 'admin.cardRefund.goodwillFor' : 'admin.cardRefund.openFor';

  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        aria-label={t(labelFor, { orderNo: props.orderNo })}
        onClick={() => void openDialog()}
        onPointerEnter={() => void loadDialogs()}
      >
        {t(label)}
      </button>
      {done && (
        <p role="status" className="mt-2 text-sm">
          {done}
        </p>
      )}
      <LazyConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        running={busy}
        title={t('admin.cardRefund.title', { orderNo: props.orderNo })}
        description={
          preview.kind === 'loading'
            ? t('admin.cardRefund.loading')
            : preview.kind === 'failed'
              ? preview.message
              : p!.gatewayCall === 'cancel'
                ? t('admin.cardRefund.cancel')
                : p!.gatewayCall === 'refund'
                  ? t('admin.cardRefund.refund')
                  : t('admin.cardRefund.unknown', { status: p!.gatewayStatus ?? '' })
        }
        confirmLabel={t('admin.cardRefund.confirm')}
        cancelLabel={t('admin.refunds.back')}
        onConfirm={() => void confirm()}
        busy={busy || !p}
      >
        {p && (
          <div className="mt-4 space-y-4 text-sm" data-testid="card-refund">
            <p>
              {t('admin.cardRefund.paid', {
                amount: money(p.amountCents, p.currency),
                refunded: money(p.refundedCents, p.currency),
                balance: money(p.balanceCents, p.currency),
              })}
            </p>
            <fieldset className="space-y-2">
              <legend className="sr-only">{t('admin.cardRefund.amount')}</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name={`${ids}-part`} checked={!part} onChange={() => setPart(false)} />
                {t('admin.cardRefund.whole', { amount: money(p.balanceCents, p.currency) })}
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${ids}-part`}
                  checked={part}
                  disabled={!partAllowed}
                  onChange={() => setPart(true)}
                />
                {partAllowed ? t('admin.cardRefund.part') : t('admin.cardRefund.partUnsettled')}
              </label>
            </fieldset>
            {part && (
              <TextField
                id={`${ids}-amount`}
                label={t('admin.cardRefund.amount')}
                value={amount}
                onChange={(v) => setAmount(v.replace(/\D/g, ''))}
                inputMode="numeric"
                error={errors.amount}
              />
            )}
            <TextField
              id={`${ids}-reason`}
              label={t('admin.cardRefund.reason')}
              value={reason}
              onChange={setReason}
              max={500}
              error={errors.reason}
            />
            <p>
              {invoiceEffect === 'void'
                ? t('admin.cardRefund.invoice.void', { number: invoiceName })
                : invoiceEffect === 'allowance'
                  ? t('admin.cardRefund.invoice.allowance', { number: invoiceName })
                  : t('admin.cardRefund.invoice.none')}
            </p>
            <p>{t('admin.cardRefund.mail')}</p>
            {errors.submit && (
              <p role="alert" className="rounded-md border border-red-500 bg-red-50 px-3 py-2 text-red-900">
                {errors.submit}
              </p>
            )}
          </div>
        )}
      </LazyConfirmDialog>
    </>
  );
}
