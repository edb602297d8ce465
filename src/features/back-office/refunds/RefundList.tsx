import { RowActionTable } from '@components/tables/RowActionTable';
import { formatDateTime, formatMoney } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { orderAndRegistrant } from '../cells';
import { attempt, type Failed } from '../action-failure';
import { currencyOf, type RefundRow } from '../reconciliation';
import CardRefund from './CardRefund';

export type RefundListProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: RefundRow[];
  /** The back office's order page path, without the order number. */
  orderBase: string;
  /** The id of the list's heading (the page's section is labelled by it). */
  headingId: string;
};

type Outcome = { kind: 'refunded'; reference: string } | Failed;

/**
 * Refunds due (issue 11): the charges the order core recorded as owed back. A card payment is
 * refunded through NewebPay from its row (issue 22: the whole balance, or a part once settled);
 * "Refunded" records a refund done by bank transfer (or in the merchant console) with its reference.
 */
export default function RefundList(props: RefundListProps) {
  const t = createT(props.messages);
  const money = (row: RefundRow) => formatMoney(row.amountCents, currencyOf(row.currency), props.locale);

  const record = (row: RefundRow, reference: string) =>
    attempt(props.messages, async (): Promise<Outcome> => {
      await browserApi(props.locale, `${props.base}/`).admin.refunds.markRefunded(row.paymentId, reference);
      return { kind: 'refunded', reference };
    });

  return (
    <RowActionTable<RefundRow, Outcome>
      caption={t('admin.refunds.title')}
      heading={{ id: props.headingId, text: (count) => t('admin.refunds.count', { count }) }}
      empty={t('admin.refunds.none')}
      rows={props.rows}
      rowKey={(row) => row.paymentId}
      columns={[
        ...orderAndRegistrant<RefundRow, Outcome>(
          { order: t('admin.refunds.col.order'), registrant: t('admin.refunds.col.registrant') },
          props.orderBase,
        ),
        {
          header: t('admin.refunds.col.payment'),
          cell: (row) => (
            <>
              <span className="block">{t(`pay.type.${row.method}`)}</span>
              {row.gatewayTradeNo && (
                <span className="block font-mono text-neutral-600">
                  {t('admin.refunds.trade', { tradeNo: row.gatewayTradeNo })}
                </span>
              )}
              <span className="block text-neutral-600">
                {t('admin.refunds.since', { date: formatDateTime(row.at) })}
              </span>
            </>
          ),
        },
        { header: t('admin.refunds.col.amount'), numeric: true, className: 'whitespace-nowrap', cell: money },
        {
          header: t('admin.refunds.col.reason'),
          cell: (row) => (row.reason ? (props.messages[`admin.refundReason.${row.reason}`] ?? row.reason) : ''),
        },
        {
          // A card payment is refunded through NewebPay (issue 22): the dialog says how, whole or in part.
          header: t('admin.refunds.col.gateway'),
          cell: (row) =>
            row.method === 'credit_card' ? (
              <CardRefund
                locale={props.locale}
                base={props.base}
                messages={props.messages}
                paymentId={row.paymentId}
                orderNo={row.orderNo}
                variant="due"
              />
            ) : null,
        },
      ]}
      actionsHeader={t('admin.refunds.col.actions')}
      actions={[
        {
          name: 'refunded',
          label: t('admin.refunds.markRefunded'),
          ariaLabel: (row) => t('admin.refunds.markRefundedFor', { orderNo: row.orderNo }),
          primary: true,
          confirm: {
            title: (row) => t('admin.refunds.dialog.title', { amount: money(row), orderNo: row.orderNo }),
            description: () => t('admin.refunds.dialog.description'),
            confirmLabel: t('admin.refunds.markRefunded'),
          },
          prompt: {
            label: t('admin.refunds.reference'),
            required: t('admin.refunds.referenceRequired'),
            maxLength: 200,
          },
          run: record,
        },
      ]}
      outcomeText={(o) =>
        o.kind === 'refunded'
          ? t('admin.refunds.result', { reference: o.reference })
          : t('admin.refunds.failed', { reason: o.message })
      }
      cancelLabel={t('admin.refunds.back')}
    />
  );
}
