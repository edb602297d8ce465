import type { AstroGlobal } from 'astro';
import { serverApi } from '@lib/embedded-api.server';
import { localized } from '@lib/routes';
import { signInRedirect } from '@lib/auth.server';
import type { Order } from '@domain/orders';
import { isBadgeOrder } from '@domain/kinds/orders';
import { approvalGate, orderPages } from '@domain/kinds/pages';
import { isAwaitingApproval } from '@domain/order-lifecycle';
import type { Locale } from '@i18n/locales';
import { portalConfig } from '@lib/portal-config.server';
import type { PaymentType } from '@domain/payments';
import { loadOrder } from '../orders/orders.server';
import type { LoadResult } from '@lib/load';
import type { BankDetails } from './TransferDetails';
import { islandProps } from '@lib/island-props.server';

type Ctx = Pick<AstroGlobal, 'cookies' | 'url' | 'locals' | 'redirect' | 'response'>;

/** What the pay and processing pages render, or the redirect their loader decided on. */
export type OrderPageData = { result: Exclude<LoadResult<Order>, { kind: 'not_found' | 'unauthorized' }> };
/** The pay and processing pages' props: what their route loaded, and the order's id. */
export type OrderPageProps = { data: OrderPageData; orderId: string };

async function loadOrderPage(ctx: Ctx, orderId: string, newPath: string): Promise<OrderPageData | Response> {
  if (!ctx.locals.token) return signInRedirect(ctx);
  const result = await loadOrder(await serverApi(ctx.locals), orderId);
  if (result.kind === 'unauthorized') return signInRedirect(ctx);
  // 404 on an order loader: back to registration (spec §8).
  if (result.kind === 'not_found') return ctx.redirect(localized(ctx.locals.locale, newPath), 302);
  // Market online: the pending page until the organiser approves (spec §4).
  const gate = result.kind === 'ok' ? approvalGate(result.data) : undefined;
  if (gate) return ctx.redirect(localized(ctx.locals.locale, gate), 302);
  // A failed load: the page answers with its 5xx (spec §8 error page).
  if (result.kind === 'error') ctx.response.status = result.status;
  return { result };
}

/** The pay page's loader: paid, free or checking orders have nothing to pay and go on. */
export async function payPageData(ctx: Ctx, orderId: string, newPath: string): Promise<OrderPageData | Response> {
  const data = await loadOrderPage(ctx, orderId, newPath);
  if (data instanceof Response || data.result.kind !== 'ok') return data;
  const order = data.result.data;
  if (['paid', 'free', 'checking'].includes(order.paymentStatus))
    return ctx.redirect(localized(ctx.locals.locale, orderPages(order).done), 302);
  // Approval before payment: nothing to pay until the organiser approves (the summary says so).
  if (isAwaitingApproval(order.approvalStatus) || order.approvalStatus === 'rejected')
    return ctx.redirect(localized(ctx.locals.locale, orderPages(order).summary), 302);
  return data;
}

/**
 * The processing page's loader. Decided orders go on (paid/free/checking to their done page,
 * overdue/canceled to the summary, never back to the badge page that sent them here), and an
 * order with no card attempt has nothing to wait for, so it goes to pay.
 */
export async function processingPageData(
  ctx: Ctx,
  orderId: string,
  newPath: string,
): Promise<OrderPageData | Response> {
  const data = await loadOrderPage(ctx, orderId, newPath);
  if (data instanceof Response || data.result.kind !== 'ok') return data;
  const order = data.result.data;
  const paths = orderPages(order);
  const to = (path: string) => ctx.redirect(localized(ctx.locals.locale, path), 302);
  if (['paid', 'free', 'checking'].includes(order.paymentStatus)) return to(paths.done);
  if (order.paymentStatus !== 'pending') return to(paths.summary);
  if (!order.payment?.cardStartedAt) return to(paths.pay);
  // An ATM virtual account is paid at a bank, not waited for here: the pay page shows the account.
  if (order.payment.type === 'atm' && order.payment.atmMode === 'virtual_account') return to(paths.pay);
  return data;
}

/**
 * The transfer instructions in the reader's language: the order's edition's (its slug; none: the
 * current edition's; decisions 049, 068); the configuration's BANK_* when there is no edition or
 * it cannot be read.
 */
export async function transferInstructions(locals: App.Locals, edition?: string | null): Promise<BankDetails> {
  try {
    return (await (await serverApi(locals)).events.edition(edition ?? undefined)).data.transfer;
  } catch {
    return bankFor(locals.locale);
  }
}

/** The PaymentForm island's props for an order (pay page and summary editor alike), with the transfer instructions. */
export function paymentFormProps(order: Order, locale: Locale, bank: BankDetails) {
  const payment = order.payment;
  return {
    ...islandProps(locale, ['pay.', 'form.', 'dialog.', 'summary.updated', 'summary.save', 'invoice.carrier.']),
    order: {
      orderId: order.orderId,
      orderNo: order.orderNo,
      paymentStatus: order.paymentStatus,
      paymentType: (payment?.type ?? null) as PaymentType | null,
      unitTwd: payment?.unitPriceTwd ?? order.amountCents / Math.max(1, order.quantity),
      unitUsd: payment?.unitPriceUsd ?? 0,
      quantity: order.quantity,
      dueDate: payment?.dueDate ?? order.paymentExpiresAt,
      remitter: payment?.remitter ?? null,
      senderBank: payment?.senderBank ?? null,
      lastFiveDigits: payment?.lastFiveDigits ?? null,
      receipt: order.receipt,
      atmMode: payment?.atmMode ?? ('declared' as const),
      virtualAccount: payment?.virtualAccount ?? null,
    },
    badgeOrder: isBadgeOrder(order),
    processingPath: orderPages(order).processing,
    bank,
  };
}

/** The transfer instructions in the reader's language: the bank and account holder in Chinese on zh-TW. */
function bankFor(locale: Locale) {
  const { nameZh, accountNameZh, ...bank } = portalConfig().bank;
  return locale === 'zh-TW' ? { ...bank, name: nameZh, accountName: accountNameZh } : bank;
}
