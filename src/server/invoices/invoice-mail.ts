import { formatDateTime } from '@domain/format';
import { INVOICE_REASONS } from '@domain/invoices';
import type { Locale } from '@i18n/locales';
import type { invoiceActions, invoices } from '../db/schema';
import { mt, type MessageKey } from '../mail/messages';
import type { Block, MailContent } from '../mail/render';
import { fact, type LinkTo, type OrderFacts } from '../mail/templates';

type InvoiceRow = typeof invoices.$inferSelect;
type ActionRow = typeof invoiceActions.$inferSelect;

const twd = (n: number, l: Locale) =>
  l === 'zh-TW' ? `新臺幣 ${n.toLocaleString('en-US')} 元` : `TWD ${n.toLocaleString('en-US')}`;

/** A reason as the registrant reads it: a known code in their language, else the organiser's words. */
export function reasonText(l: Locale, reason: string): string {
  return (INVOICE_REASONS as readonly string[]).includes(reason)
    ? mt(l, `invoice.reason.${reason}` as MessageKey)
    : reason;
}

/**
 * The e-invoice mails (issue 22): the invoice issued (its number, random code, date, amounts: a
 * company invoice shows sales and tax apart, a personal one the total tax included, and where it
 * went), voided, or credited (allowance), each with its reason.
 */
export function invoiceMail(
  template: 'invoice_issued' | 'invoice_voided' | 'invoice_allowance',
  o: OrderFacts,
  invoice: InvoiceRow,
  action: ActionRow | undefined,
  link: LinkTo,
): (l: Locale) => MailContent {
  return (l) => {
    const v = { orderNo: o.orderNo, number: invoice.number ?? '' };
    const prefix =
      template === 'invoice_issued'
        ? 'invoiceMail.issued'
        : template === 'invoice_voided'
          ? 'invoiceMail.voided'
          : 'invoiceMail.allowance';
    const b2b = invoice.kind === 'b2b';
    const carrier =
      invoice.carrierType === 'donation'
        ? `${mt(l, 'invoice.carrier.donation')} ${invoice.loveCode ?? ''}`
        : invoice.carrierType === 'ezpay'
          ? `${mt(l, 'invoice.carrier.ezpay')} (${invoice.buyerEmail})`
          : invoice.carrierType === 'none'
            ? mt(l, 'invoice.carrier.none')
            : `${mt(l, `invoice.carrier.${invoice.carrierType}` as MessageKey)} ${invoice.carrierNumber ?? ''}`;
    const rows = [
      fact(l, 'fact.orderNo', o.orderNo),
      fact(l, 'fact.item', o.item[l]),
      fact(l, 'invoice.number' as MessageKey, invoice.number),
      fact(l, 'invoice.randomCode' as MessageKey, invoice.randomCode),
      fact(l, 'invoice.issuedAt' as MessageKey, invoice.issuedAt ? formatDateTime(invoice.issuedAt) : null),
      fact(l, 'invoice.kind' as MessageKey, mt(l, `invoice.kind.${invoice.kind}` as MessageKey)),
      b2b ? fact(l, 'fact.invoiceTitle', invoice.buyerName) : null,
      b2b ? fact(l, 'fact.ubn', invoice.buyerUbn) : null,
      b2b ? fact(l, 'invoice.sales' as MessageKey, twd(invoice.amountTwd - invoice.tax, l)) : null,
      b2b ? fact(l, 'invoice.tax' as MessageKey, twd(invoice.tax, l)) : null,
      fact(l, (b2b ? 'invoice.total' : 'invoice.totalTaxIncluded') as MessageKey, twd(invoice.amountTwd, l)),
      template === 'invoice_issued' ? fact(l, 'invoice.carrier' as MessageKey, carrier) : null,
      action ? fact(l, 'fact.reason', reasonText(l, action.reason)) : null,
      action?.kind === 'allowance' ? fact(l, 'invoice.allowanceAmount' as MessageKey, twd(action.amountTwd, l)) : null,
    ].filter((r) => r !== null);
    const blocks: Block[] = [
      { type: 'p', text: mt(l, `${prefix}.body` as MessageKey, v) },
      { type: 'facts', rows },
      { type: 'button', label: mt(l, 'button.order'), url: link(l, o.isBadge ? o.pages.done : o.pages.summary) },
    ];
    return {
      subject: mt(l, `${prefix}.subject` as MessageKey, v),
      heading: mt(l, `${prefix}.heading` as MessageKey, v),
      blocks,
    };
  };
}
