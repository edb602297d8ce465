import { RadioCard } from '@components/ui/RadioCard';
import { TextField } from '@components/ui/TextField';
import { toAsciiDigits } from '@domain/payments';
import type { T } from '@i18n/t';

export type InvoiceValues = { kind: 'personal' | 'company'; title: string; ubn: string };

/** Digits as typed with a full-width input method or with spaces: ASCII digits only. */
export const digitsOnly = (v: string) => toAsciiDigits(v).replace(/\s/g, '');

/** The receipt as the API takes it (`ReceiptDetails`): a personal invoice sends no business number. */
export const toReceipt = (v: InvoiceValues) => ({
  kind: v.kind,
  invoiceTitle: v.title,
  unifiedBusinessNumber: v.kind === 'company' ? v.ubn : '',
});

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
}) {
  const { t, values } = props;
  const set = (change: Partial<InvoiceValues>) => props.onChange({ ...values, ...change });
  return (
    <fieldset className="card space-y-3" disabled={props.disabled}>
      <legend className="px-1 text-lg font-semibold">{t('pay.receipt')}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {(['personal', 'company'] as const).map((kind) => (
          <RadioCard
            key={kind}
            name="receipt-kind"
            value={kind}
            checked={values.kind === kind}
            onChange={() => set({ kind })}
            label={t(`pay.receipt.${kind}`)}
          />
        ))}
      </div>
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
