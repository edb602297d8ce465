import { RadioCards } from '@components/ui/RadioCard';
import { TextField } from '@components/ui/TextField';
import { toAsciiDigits } from '@domain/payments';
import { PERSONAL_CARRIERS, type CarrierType } from '@domain/invoices';
import type { T } from '@i18n/t';

/** The invoice block's values; the carrier (issue 22) where the block offers it (pay page, summary editor). */
export type InvoiceValues = {
  kind: 'personal' | 'company';
  title: string;
  ubn: string;
  carrierType?: CarrierType;
  carrierNumber?: string;
  loveCode?: string;
};

/** Digits as typed with a full-width input method or with spaces: ASCII digits only. */
export const digitsOnly = (v: string) => toAsciiDigits(v).replace(/\s/g, '');

/** The receipt as the API takes it (`ReceiptDetails`): a personal invoice sends no business number. */
export const toReceipt = (v: InvoiceValues) => {
  const carrierType = v.kind === 'company' ? 'none' : (v.carrierType ?? 'ezpay');
  return {
    kind: v.kind,
    invoiceTitle: v.title,
    unifiedBusinessNumber: v.kind === 'company' ? v.ubn : '',
    carrierType,
    carrierNumber: carrierType === 'mobile' || carrierType === 'certificate' ? (v.carrierNumber ?? '') : '',
    loveCode: carrierType === 'donation' ? (v.loveCode ?? '') : '',
  };
};

/**
 * The shared invoice block (spec §3 receipt, §5: a triple invoice needs the title and the unified
 * business number): the pay page, the summary's editor and the pitching entry. Errors by path
 * `receipt.invoiceTitle`, `receipt.unifiedBusinessNumber`.
 */
export function InvoiceFields(props: {
  t: T;
  values: InvoiceValues;
  onChange: (values: InvoiceValues) => void;
  errors: Record<string, string>;
  /** Read-only once paid (spec §4 Form editing). */
  disabled?: boolean;
  /** Offer the personal invoice's carrier (ezPay member carrier, mobile barcode, certificate, donation). */
  carriers?: boolean;
}) {
  const { t, values } = props;
  const set = (change: Partial<InvoiceValues>) => props.onChange({ ...values, ...change });
  return (
    <fieldset className="card space-y-3" disabled={props.disabled}>
      <legend className="px-1 text-lg font-semibold">{t('pay.receipt')}</legend>
      <RadioCards
        name="receipt-kind"
        values={['personal', 'company'] as const}
        chosen={values.kind}
        onChange={(kind) => set({ kind })}
        label={(kind) => t(`pay.receipt.${kind}`)}
      />
      {values.kind === 'personal' && props.carriers && (
        <fieldset className="space-y-3">
          <legend className="font-medium">{t('pay.carrier')}</legend>
          <RadioCards
            name="invoice-carrier"
            values={PERSONAL_CARRIERS}
            chosen={values.carrierType ?? 'ezpay'}
            onChange={(carrierType) => set({ carrierType })}
            label={(carrier) => t(`invoice.carrier.${carrier}`)}
          />
          {(values.carrierType ?? 'ezpay') === 'ezpay' && (
            <p className="text-neutral-700">{t('pay.carrier.ezpay.hint')}</p>
          )}
          {(values.carrierType === 'mobile' || values.carrierType === 'certificate') && (
            <TextField
              id="carrier-number"
              label={t(`pay.carrierNumber.${values.carrierType}`)}
              hint={t(`pay.carrierNumber.${values.carrierType}.hint`)}
              value={values.carrierNumber ?? ''}
              onChange={(v) => set({ carrierNumber: v.toUpperCase() })}
              required
              requiredLabel={t('form.requiredMark')}
              max={values.carrierType === 'mobile' ? 8 : 16}
              error={props.errors['receipt.carrierNumber']}
              autoComplete="off"
            />
          )}
          {values.carrierType === 'donation' && (
            <TextField
              id="love-code"
              label={t('pay.loveCode')}
              hint={t('pay.loveCode.hint')}
              value={values.loveCode ?? ''}
              onChange={(v) => set({ loveCode: digitsOnly(v) })}
              required
              requiredLabel={t('form.requiredMark')}
              max={7}
              inputMode="numeric"
              error={props.errors['receipt.loveCode']}
            />
          )}
        </fieldset>
      )}
      {values.kind === 'company' && (
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            id="invoice-title"
            label={t('pay.invoiceTitle')}
            value={values.title}
            onChange={(title) => set({ title })}
            required
            requiredLabel={t('form.requiredMark')}
            max={256}
            error={props.errors['receipt.invoiceTitle']}
            autoComplete="organization"
          />
          <TextField
            id="ubn"
            label={t('pay.ubn')}
            value={values.ubn}
            onChange={(v) => set({ ubn: digitsOnly(v) })}
            required
            requiredLabel={t('form.requiredMark')}
            max={8}
            inputMode="numeric"
            error={props.errors['receipt.unifiedBusinessNumber']}
          />
        </div>
      )}
    </fieldset>
  );
}
