import { RowActionTable } from '@components/tables/RowActionTable';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { orderAndRegistrant } from '../cells';
import { attempt, type Failed } from '../action-failure';
import { currencyOf, type TransferRow } from '../reconciliation';

export type TransferQueueProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: TransferRow[];
  /** The back office's order page path, without the order number. */
  orderBase: string;
  /** When the page was made (ISO): deadlines before it are shown as past. */
  now: string;
  /** The id of the list's heading (the page's section is labelled by it). */
  headingId: string;
};

type Outcome = { kind: 'paid' } | { kind: 'returned'; deadline: string | null } | Failed;

/**
 * Transfers being checked (issue 11): mark one paid (the order core's markPaid), or send it back
 * to the registrant with a message (return_transfer). A row keeps its outcome until the page is
 * reloaded; focus moves to it.
 */
export default function TransferQueue(props: TransferQueueProps) {
  const t = createT(props.messages);
  const money = (row: TransferRow) => formatMoney(row.amountCents, currencyOf(row.currency), props.locale);
  const api = () => browserApi(props.locale, `${props.base}/`);

  return (
    <RowActionTable<TransferRow, Outcome>
      caption={t('admin.transfers.checking')}
      heading={{ id: props.headingId, text: (count) => t('admin.transfers.count', { count }) }}
      note={<p className="max-w-3xl text-neutral-700">{t('admin.transfers.intro')}</p>}
      empty={t('admin.transfers.none')}
      rows={props.rows}
      rowKey={(row) => row.orderNo}
      columns={[
        ...orderAndRegistrant<TransferRow, Outcome>(
          { order: t('admin.transfers.col.order'), registrant: t('admin.transfers.col.registrant') },
          props.orderBase,
        ),
        {
          header: t('admin.transfers.col.transfer'),
          cell: (row) => (
            <>
              {row.paymentType && <span className="block">{t(`pay.type.${row.paymentType}`)}</span>}
              {row.remitter && <span className="block">{t('admin.transfers.remitter', { name: row.remitter })}</span>}
              {row.senderBank && <span className="block">{t('admin.transfers.bank', { bank: row.senderBank })}</span>}
              <span className="block font-semibold">
                {t('admin.transfers.lastFive', { digits: row.lastFiveDigits ?? '—' })}
              </span>
            </>
          ),
        },
        { header: t('admin.transfers.col.amount'), numeric: true, className: 'whitespace-nowrap', cell: money },
        {
          header: t('admin.transfers.col.dates'),
          className: 'whitespace-nowrap',
          cell: (row) => {
            const due =
              row.paymentExpiresAt && new Date(row.paymentExpiresAt).getTime() < new Date(props.now).getTime();
            return (
              <>
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
              </>
            );
          },
        },
      ]}
      actionsHeader={t('admin.transfers.col.actions')}
      actions={[
        {
          name: 'pay',
          label: t('admin.transfers.markPaid'),
          ariaLabel: (row) => t('admin.transfers.markPaidOrder', { orderNo: row.orderNo }),
          primary: true,
          confirm: {
            title: (row) => t('admin.transfers.markPaid.title', { orderNo: row.orderNo }),
            description: (row) =>
              t('admin.transfers.markPaid.description', { amount: money(row), digits: row.lastFiveDigits ?? '—' }),
            confirmLabel: t('admin.transfers.markPaid'),
          },
          run: (row) =>
            attempt(props.messages, async (): Promise<Outcome> => {
              await api().admin.orders.act(row.orderNo, 'mark-paid');
              return { kind: 'paid' };
            }),
        },
        {
          name: 'return',
          label: t('admin.transfers.sendBack'),
          ariaLabel: (row) => t('admin.transfers.sendBackOrder', { orderNo: row.orderNo }),
          confirm: {
            title: (row) => t('admin.transfers.sendBack.title', { orderNo: row.orderNo }),
            description: () => t('admin.transfers.sendBack.description'),
            confirmLabel: t('admin.transfers.sendBack'),
          },
          prompt: {
            label: t('admin.transfers.message'),
            hint: t('admin.transfers.messageHint'),
            required: t('admin.transfers.messageRequired'),
            multiline: true,
            maxLength: 2000,
          },
          run: (row, message) =>
            attempt(props.messages, async (): Promise<Outcome> => {
              const body = await api().admin.orders.returnTransfer(row.orderNo, message);
              return { kind: 'returned', deadline: body.data.paymentExpiresAt };
            }),
        },
      ]}
      outcomeText={(o) =>
        o.kind === 'paid'
          ? t('admin.transfers.result.paid')
          : o.kind === 'returned'
            ? t('admin.transfers.result.returned', { date: o.deadline ? formatDateTime(o.deadline) : '' })
            : t('admin.transfers.result.failed', { reason: o.message })
      }
      cancelLabel={t('admin.transfers.back')}
    />
  );
}
