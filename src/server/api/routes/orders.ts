import { OrderPaymentUpdate } from '@domain/payments';
import type { Order, Sendable } from '@domain/contract';
import { findOrder } from '../../orders/orders';
import { updateOrderPayment } from '../../payments/payments';
import type { ApiApp, RouteContext } from '../context';
import { notFound } from '../errors';
import { orderView } from '../views';

/** Order updates: payment type, transfer details and invoice of an unpaid order (owner only). */
export function orderRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;
  app.put('/orders/:orderId', auth, async (c) => {
    const update = await ctx.readJson(c, OrderPaymentUpdate);
    const userId = c.get('user').id;
    await updateOrderPayment(deps.db, { userId, orderId: c.req.param('orderId'), update }, ctx.orderCtx());
    const order = await findOrder(deps.db, userId, c.req.param('orderId'));
    if (!order) throw notFound('Order');
    return ctx.send(c, orderView(order, c.get('locale')) satisfies Sendable<Order>);
  });
}
