import type { ReactNode } from 'react';

/** Where transfers go: the current edition's transfer instructions, in the reader's language. */
export type BankDetails = { name: string; code: string; accountName: string; accountNumber: string; swift: string };

type Key = 'pay.bank' | 'pay.bankCode' | 'pay.accountName' | 'pay.accountNumber' | 'pay.swift';

/**
 * The transfer instructions block of the pay page (bank, code, holder, account, SWIFT for a
 * remittance), also the back office's preview of the edition's settings (decision 049).
 * `children`: rows after the account's (the amount, the due date).
 */
export function TransferDetails(props: {
  bank: BankDetails;
  t: (key: Key) => string;
  /** The SWIFT code: remittances only (an ATM transfer is domestic). */
  swift: boolean;
  children?: ReactNode;
}) {
  const { bank, t } = props;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-neutral-600">{t('pay.bank')}</dt>
      <dd>{bank.name}</dd>
      <dt className="text-neutral-600">{t('pay.bankCode')}</dt>
      <dd>{bank.code}</dd>
      <dt className="text-neutral-600">{t('pay.accountName')}</dt>
      <dd>{bank.accountName}</dd>
      <dt className="text-neutral-600">{t('pay.accountNumber')}</dt>
      <dd className="font-mono">{bank.accountNumber}</dd>
      {props.swift && (
        <>
          <dt className="text-neutral-600">{t('pay.swift')}</dt>
          <dd className="font-mono">{bank.swift}</dd>
        </>
      )}
      {props.children}
    </dl>
  );
}
