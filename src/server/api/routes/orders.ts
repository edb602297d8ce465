import { OrderPaymentUpdate } from '@domain/payments';
import type { Order, Sendable } from '@domain/contract';
import { findOrder } from '../../orders/orders';
import { updateOrderPayment } from '../../payments/payments';
import type { ApiApp, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { orderView } from '../views';

/**
 * With ezPay configured, a mobile barcode or love code is also asked of ezPay's check APIs: one
 * ezPay says does not exist is refused (400 validation_failed naming the field); ezPay unreachable
 * or unsure never blocks the payment. The sandbox is not asked (its formats are checked already).
 */
export async function checkCarrier(ctx: RouteContext, receipt: OrderPaymentUpdate['receipt']) {
  const invoices = ctx.deps.invoices;
  if (!invoices || invoices.sandbox || !receipt || receipt.kind !== 'personal') return;
  const asked =
    receipt.carrierType === 'mobile' && receipt.carrierNumber
      ? (['checkBarCode', receipt.carrierNumber, 'receipt.carrier_number'] as const)
      : receipt.carrierType === 'donation' && receipt.loveCode
        ? (['checkLoveCode', receipt.loveCode, 'receipt.love_code'] as const)
        : undefined;
  if (!asked) return;
  const exists = await invoices.client.exists(asked[0], asked[1], ctx.now());
  if (exists !== false) return;
  const message = asked[0] === 'checkBarCode' ? 'This mobile barcode does not exist' : 'This love code does not exist';
  throw badRequest('validation_failed', `${asked[2]}: ${message}`, { issues: [{ path: asked[2], message }] });
}

/** Order updates: payment type, transfer details and invoice of an unpaid order (owner only). */
export function orderRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;
  app.put('/orders/:orderId', auth, async (c) => {
    const update = await ctx.readJson(c, OrderPaymentUpdate);
    await checkCarrier(ctx, update.receipt);
    const userId = c.get('user').id;
    await updateOrderPayment(deps.db, { userId, orderId: c.req.param('orderId'), update }, ctx.orderCtx());
    const order = await findOrder(deps.db, userId, c.req.param('orderId'));
    if (!order) throw notFound('Order');
    return ctx.send(c, orderView(order, c.get('locale')) satisfies Sendable<Order>);
  });
}
