import { BadgeApplication, identityFromLinkType } from '@domain/badges';
import { OrderPaymentUpdate } from '@domain/payments';
import { applyProfessional, claimFreeBadge, findBadgeOrder, getBadge } from '../../services/badges';
import { findOrder } from '../../services/orders';
import { updateOrderPayment } from '../../services/payments';
import type { ApiApp, RouteContext } from '../context';
import { ApiError, badRequest, notFound } from '../errors';
import { orderView } from '../views';

/** Badges ("demonstration" on the wire, spec §7): the badge, its order, and free-badge links. */
export function badgeRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;
  const badgeCtx = ctx.orderCtx;

  app.get('/demonstration', auth, async (c) => {
    const badge = await getBadge(deps.db, c.get('user').id);
    if (!badge) throw notFound('Badge');
    return ctx.send(c, { data: badge });
  });

  // Free badge through a one-time link.
  app.put('/demonstration', auth, async (c) => {
    const code = c.req.query('code');
    if (!code || code.length > 100) throw badRequest('validation_failed', 'code: a link code is required');
    const type = c.req.query('type');
    const linkType = type ? identityFromLinkType(type) : undefined;
    if (type && !linkType) throw new ApiError(404, 'link_expired', 'This link has expired, please contact support');
    const application = await ctx.readJson(c, BadgeApplication);
    await claimFreeBadge(deps.db, c.get('user'), code, application, badgeCtx(), linkType);
    return ctx.send(c, { data: await getBadge(deps.db, c.get('user').id) });
  });

  app.post('/demonstration_order', auth, async (c) => {
    const application = await ctx.readJson(c, BadgeApplication);
    return ctx.send(c, await applyProfessional(deps.db, c.get('user'), application, badgeCtx()), 201);
  });

  app.get('/demonstration_order', auth, async (c) => {
    const row = await findBadgeOrder(deps.db, c.get('user').id);
    const order = row && (await findOrder(deps.db, c.get('user').id, row.id));
    if (!order) throw notFound('Badge order');
    return ctx.send(c, { data: orderView(order, c.get('locale')) });
  });

  app.put('/demonstration_order', auth, async (c) => {
    const update = await ctx.readJson(c, OrderPaymentUpdate);
    const userId = c.get('user').id;
    const row = await findBadgeOrder(deps.db, userId);
    if (!row) throw notFound('Badge order');
    await updateOrderPayment(deps.db, { userId, orderId: row.id, update }, badgeCtx());
    const order = await findOrder(deps.db, userId, row.id);
    if (!order) throw notFound('Badge order');
    return ctx.send(c, orderView(order, c.get('locale')));
  });
}
