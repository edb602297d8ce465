import { useCallback, useEffect, useState, useSyncExternalStore, type SyntheticEvent } from 'react';
import { useStore } from '@nanostores/react';
import { TextField } from '@components/ui/TextField';
import { makeToast, Toast, type ToastMessage } from '@components/ui/Toast';
import { useAlert } from '@components/ui/use-alert';
import { toLocale } from '@i18n/locales';
import { createT, type Messages } from '@i18n/t';
import { alertText, ApiError } from '@lib/api';
import type { TradeInfo, VirtualAccount } from '@domain/contract';
import { browserApi } from '@lib/api.client';
import { $drafts, clearDraft, draftKey, draftUser, saveDraft } from '@lib/draft.store';
import { formatDateTime, formatPriceTimes } from '@domain/format';
import { fieldErrors, stillFailing } from '@lib/form-errors';
import { CARRIER_TYPES, type CarrierType } from '@domain/invoices';
import { useLeaveGuard, usePageRestore } from '@lib/wizard';
import { isTransfer, OrderPaymentUpdate, PAYMENT_TYPES, type PaymentType } from '@domain/payments';
import { RadioCards } from '@components/ui/RadioCard';
import { TransferDetails, type BankDetails } from './TransferDetails';
import { digitsOnly, InvoiceFields, toReceipt } from '@components/forms/InvoiceFields';

export type { BankDetails };

export type PaymentFormProps = {
  /** pay: choose a method and pay (card → gateway, transfer → processing); edit: correct details on the summary. */
  mode: 'pay' | 'edit';
  locale: string;
  base: string;
  messages: Messages;
  order: {
    orderId: string;
    orderNo: string;
    paymentStatus: string;
    paymentType: PaymentType | null;
    /** Prices per item, in cents; USD 0 = not offered. */
    unitTwd: number;
    unitUsd: number;
    quantity: number;
    dueDate: string | null;
    remitter: string | null;
    senderBank: string | null;
    lastFiveDigits: string | null;
    receipt: {
      kind: 'personal' | 'company';
      invoiceTitle: string | null;
      unifiedBusinessNumber: string | null;
      carrierType?: CarrierType;
      carrierNumber?: string | null;
      loveCode?: string | null;
    } | null;
    /** How "ATM transfer" is paid (issue 22): a NewebPay virtual account, declared, or not offered (over the limit). */
    atmMode: 'virtual_account' | 'declared' | 'unavailable';
    /** The virtual account already handed out, if any. */
    virtualAccount: VirtualAccount | null;
  };
  /** Whether this is the badge order (its update goes to `api.badges.updateOrder`, others' to `api.orders.update`). */
  badgeOrder: boolean;
  processingPath: string;
  bank: BankDetails;
};

/** What the user entered: kept as a draft per user, order and form while they have not sent it. */
type Fields = {
  type: PaymentType;
  remitter: string;
  senderBank: string;
  lastFive: string;
  kind: 'personal' | 'company';
  title: string;
  ubn: string;
  carrierType: CarrierType;
  carrierNumber: string;
  loveCode: string;
};

/** A stored draft, checked field by field against what this form offers. */
function parseFields(raw: unknown, types: readonly PaymentType[], fallback: Fields): Fields | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = raw as Record<string, unknown>;
  const text = (v: unknown, or: string) => (typeof v === 'string' ? v : or);
  return {
    type: types.includes(d.type as PaymentType) ? (d.type as PaymentType) : fallback.type,
    remitter: text(d.remitter, fallback.remitter),
    senderBank: text(d.senderBank, fallback.senderBank),
    lastFive: text(d.lastFive, fallback.lastFive),
    kind: d.kind === 'company' || d.kind === 'personal' ? d.kind : fallback.kind,
    title: text(d.title, fallback.title),
    ubn: text(d.ubn, fallback.ubn),
    carrierType: (CARRIER_TYPES as readonly unknown[]).includes(d.carrierType)
      ? (d.carrierType as CarrierType)
      : fallback.carrierType,
    carrierNumber: text(d.carrierNumber, fallback.carrierNumber),
    loveCode: text(d.loveCode, fallback.loveCode),
  };
}

const subscribeNothing = () => () => {};

/** The pay page and the summary's remittance/invoice editor (spec §2 pay, §4 Pay page, §5). */
export default function PaymentForm(props: PaymentFormProps) {
  const t = createT(props.messages);
  const { order } = props;
  const checking = order.paymentStatus === 'checking';
  /** ATM through a virtual account: the gateway hands out the account, nothing to declare. */
  const vacc = order.atmMode === 'virtual_account';
  /** A transfer the registrant declares (last five digits): remittances, and ATM without virtual accounts. */
  const declared = (type: PaymentType) => isTransfer(type) && !(type === 'atm' && vacc);
  const types = PAYMENT_TYPES.filter(
    (type) =>
      (type !== 'USD' || order.unitUsd > 0) &&
      (type !== 'atm' || order.atmMode !== 'unavailable') &&
      (!checking || declared(type)) &&
      (props.mode === 'pay' || declared(type)),
  );
  const initial: Fields = {
    type: order.paymentType && types.includes(order.paymentType) ? order.paymentType : types[0]!,
    remitter: order.remitter ?? '',
    senderBank: order.senderBank ?? '',
    lastFive: order.lastFiveDigits ?? '',
    kind: order.receipt?.kind ?? 'personal',
    title: order.receipt?.invoiceTitle ?? '',
    ubn: order.receipt?.unifiedBusinessNumber ?? '',
    carrierType:
      order.receipt?.carrierType && order.receipt.carrierType !== 'none' ? order.receipt.carrierType : 'ezpay',
    carrierNumber: order.receipt?.carrierNumber ?? '',
    loveCode: order.receipt?.loveCode ?? '',
  };
  /** In the browser after hydration (the server and the hydrating render cannot see the tab's storage). */
  const inBrowser = useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
  const user = inBrowser ? draftUser() : '';
  /** This user's draft of this order's form; null before hydration (or when signed out). */
  const key = user ? draftKey(user, `order-${order.orderId}-${props.mode}`) : null;
  const drafts = useStore($drafts);
  const stored = key ? drafts[key] : undefined;
  // What the user typed before (a reload, a language switch), checked against what this form offers.
  const draft = parseFields(stored, types, initial);
  /** What the user changed on this page; null: nothing yet (the draft, or what the order holds). */
  const [edits, setEdits] = useState<Fields | null>(null);
  const fields = edits ?? draft ?? initial;
  /** The values the order holds (what the page showed, or what was saved since): a change is input to keep. */
  const [baseline, setBaseline] = useState<Fields>(initial);
  const { type, remitter, senderBank, lastFive, kind, title, ubn, carrierType, carrierNumber, loveCode } = fields;
  const set =
    <K extends keyof Fields>(name: K) =>
    (value: Fields[K]) =>
      setEdits({ ...fields, [name]: value });
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const closeToast = useCallback(() => setToast(null), [setToast]);
  const { showAlert, alertElement } = useAlert(t('dialog.ok'));

  const transfer = declared(type);
  const atmAccount = type === 'atm' && vacc;
  const usd = type === 'USD';
  const amount = usd
    ? formatPriceTimes(order.unitUsd, order.quantity, 'USD', toLocale(props.locale))
    : formatPriceTimes(order.unitTwd, order.quantity, 'TWD', toLocale(props.locale));
  const update = {
    // An ATM virtual account declares nothing: the gateway attempt sets the order's type.
    payment: atmAccount ? undefined : transfer ? { type, remitter, senderBank, lastFiveDigits: lastFive } : { type },
    receipt: toReceipt({ kind, title, ubn, carrierType, carrierNumber, loveCode }),
    lang: props.locale,
  };
  const errorsOf = (value: typeof update) =>
    Object.fromEntries(
      Object.entries(fieldErrors(value, OrderPaymentUpdate)).map(([path, f]) => [path, t(f.key, f.values)]),
    );
  const changed = (Object.keys(baseline) as (keyof Fields)[]).some((name) => fields[name] !== baseline[name]);

  // The user's changes kept as the draft (the store and the tab's storage), dropped once back to what the order holds.
  useEffect(() => {
    if (!key || sent || !edits) return;
    if (changed) saveDraft(key, edits);
    else clearDraft(key);
  }, [edits, key, changed, sent]);

  // An error shown goes as soon as its field is valid, or is no longer asked for (USD → TWD remittance).
  const shownErrors = Object.keys(errors).length === 0 ? errors : (stillFailing(errors, errorsOf(update)) ?? errors);

  const allowLeave = useLeaveGuard(!!key && changed && !sent);
  usePageRestore(() => {
    setBusy(false);
    setSent(false);
  });

  async function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const messages = errorsOf(update);
    setErrors(messages);
    if (Object.keys(messages).length) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    const api = browserApi(props.locale, `${props.base}/`);
    const done = () => {
      if (key) clearDraft(key);
      setSent(true);
      allowLeave();
    };
    try {
      await (props.badgeOrder ? api.badges.updateOrder(update) : api.orders.update(order.orderId, update));
      if (props.mode === 'edit') {
        if (key) clearDraft(key);
        setBaseline(fields);
        setToast(makeToast('success', t('summary.updated'), 9000));
        setBusy(false);
        return;
      }
      done();
      if (!transfer) {
        const info = atmAccount
          ? await api.payments.atmTradeInfo(order.orderId, props.locale)
          : await api.payments.tradeInfo(order.orderId, props.locale);
        postToGateway(info.data);
        return;
      }
      location.assign(`${props.base}${props.processingPath}`);
    } catch (error) {
      setBusy(false);
      setSent(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      const text = alertText(error, t);
      if (props.mode === 'edit') setToast(makeToast('error', text, 5000));
      else showAlert(text, { returnFocus: submitter instanceof HTMLElement ? submitter : null });
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-6">
      <fieldset className="card space-y-3">
        <legend className="px-1 text-lg font-semibold">{t('pay.type')}</legend>
        <RadioCards
          name="payment-type"
          values={types}
          chosen={type}
          onChange={set('type')}
          label={(value) => t(`pay.type.${value}`)}
        />
        <p className="flex flex-wrap gap-x-4 text-sm text-neutral-700">
          <strong>{t('pay.amountDue', { amount })}</strong>
          {order.dueDate && <span>{t('pay.dueBy', { date: formatDateTime(order.dueDate) })}</span>}
        </p>
        {type === 'credit_card' && <p className="text-sm text-neutral-700">{t('pay.cardNote')}</p>}
        {type === 'atm' && !atmAccount && <p className="text-sm text-neutral-700">{t('pay.atmTwdOnly')}</p>}
        {atmAccount && (
          <p className="text-sm text-neutral-700">
            {order.virtualAccount?.status === 'issued' ? t('pay.atmAccountAgain') : t('pay.atmAccountNote')}
          </p>
        )}
        {order.atmMode === 'unavailable' && props.mode === 'pay' && (
          <p role="note" className="text-sm text-neutral-700">
            {t('pay.atmOverLimit')}
          </p>
        )}
      </fieldset>

      {transfer && (
        <section className="card space-y-4" aria-labelledby="transfer-title">
          <h2 id="transfer-title" className="text-lg font-semibold">
            {t('pay.transferTitle')}
          </h2>
          <TransferDetails bank={props.bank} t={t} swift={type !== 'atm'}>
            <dt className="text-neutral-600">{t('pay.amount')}</dt>
            <dd>{amount}</dd>
            {order.dueDate && (
              <>
                <dt className="text-neutral-600">{t('pay.dueDate')}</dt>
                <dd>{formatDateTime(order.dueDate)}</dd>
              </>
            )}
          </TransferDetails>
          <p role="note" className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {t('pay.transferNotice')}
          </p>
          {usd && <p className="text-sm">{t('pay.usdNotice')}</p>}
          <div className="grid gap-4 md:grid-cols-2">
            <TextField
              id="remitter"
              label={t('pay.remitter')}
              value={remitter}
              onChange={set('remitter')}
              required={usd}
              requiredLabel={t('form.requiredMark')}
              max={256}
              error={shownErrors['payment.remitter']}
              autoComplete="name"
            />
            <TextField
              id="sender-bank"
              label={t('pay.senderBank')}
              value={senderBank}
              onChange={set('senderBank')}
              required={usd}
              requiredLabel={t('form.requiredMark')}
              max={256}
              error={shownErrors['payment.senderBank']}
            />
            <TextField
              id="last-five"
              label={t('pay.lastFive')}
              value={lastFive}
              onChange={(v) => set('lastFive')(digitsOnly(v))}
              required
              requiredLabel={t('form.requiredMark')}
              max={5}
              inputMode="numeric"
              error={shownErrors['payment.lastFiveDigits']}
            />
          </div>
        </section>
      )}

      <InvoiceFields
        t={t}
        values={{ kind, title, ubn, carrierType, carrierNumber, loveCode }}
        onChange={(v) => setEdits({ ...fields, ...v })}
        errors={shownErrors}
        carriers
      />

      <button type="submit" className="btn-primary" disabled={busy}>
        {busy && props.mode === 'pay' && !transfer
          ? t('pay.redirecting')
          : props.mode === 'edit'
            ? t('summary.save')
            : transfer
              ? t('pay.submitTransfer')
              : atmAccount
                ? t('pay.submitAtm')
                : t('pay.submitCard')}
      </button>
      {alertElement}
      <Toast toast={toast} onClose={closeToast} closeLabel={t('dialog.close')} />
    </form>
  );
}

/** The browser posts the trade info to the card gateway itself (reference: never the server, never an iframe). */
function postToGateway(info: TradeInfo) {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = info.gatewayUrl;
  const fields = {
    MerchantID: info.merchantId,
    TradeInfo: info.tradeInfoHex,
    TradeSha: info.tradeInfoHash,
    Version: info.version,
  };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
