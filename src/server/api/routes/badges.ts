import type { Context } from 'hono';
import type { Badge, BadgeLinkCheck, BadgeOrderPlaced, Data, Sendable } from '@domain/contract';
import { BadgeApplication, identityFromLinkType, linkTypeOf } from '@domain/badges';
import { DomainError } from '@domain/errors';
import { OrderPaymentUpdate } from '@domain/payments';
import {
  applyProfessional,
  badgeEditionId,
  checkBadgeLink,
  claimFreeBadge,
  findBadgeOrder,
  getBadge,
} from '../../badges/badges';
import { findOrder } from '../../orders/orders';
import { updateOrderPayment } from '../../payments/payments';
import type { User } from '../../identity/users';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { placedFrom } from '../placed-from';
import { orderView } from '../views';
import { orderInvoice } from '../../invoices/invoices';
import { checkCarrier } from './orders';

/** Badges ("demonstration" on the wire, spec §7): the badge, its order, and free-badge links. */
export function badgeRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;
  const badgeCtx = ctx.orderCtx;

  /** The edition asked for (`?edition={slug}`, 404 for none), else the current one (decision 068). */
  const editionOf = (c: Context<Env>) => badgeEditionId(deps.db, c.req.query('edition') || undefined);

  // The user's badge of the current edition (or of the edition `?edition=` names): one per edition.
  app.get('/demonstration', auth, async (c) => {
    const badge = await getBadge(deps.db, c.get('user').id, await editionOf(c));
    if (!badge) throw notFound('Badge');
    const invoice = await orderInvoice(deps.db, badge.orderId);
    return ctx.send(c, { data: { ...badge, invoice } } satisfies Sendable<Data<Badge>>);
  });

  /** The link code and type of the query (`?code=…&type=…`): 400 without a code, 404 for an unknown type. */
  const linkQuery = (c: Context<Env>) => {
    const code = c.req.query('code');
    if (!code || code.length > 100) throw badRequest('validation_failed', 'code: a link code is required');
    const type = c.req.query('type');
    const linkType = type ? identityFromLinkType(type) : undefined;
    if (type && !linkType) throw new DomainError('link_expired');
    return { code, linkType };
  };

  // A one-time link's state, without claiming it (the get-badge page checks before any form).
  app.get('/demonstration/link', ctx.optionalAuth, async (c) => {
    const { code, linkType } = linkQuery(c);
    const user: User | undefined = c.get('user');
    const link = await checkBadgeLink(deps.db, code, user ?? null, { now: ctx.now(), linkType });
    return ctx.send(c, {
      data: {
        state: link.state,
        identity: link.identity,
        linkType: linkTypeOf(link.identity),
        expiresAt: link.expiresAt,
      },
    } satisfies Sendable<Data<BadgeLinkCheck>>);
  });

  // Free badge through a one-time link.
  app.put('/demonstration', auth, ctx.limits.orders, async (c) => {
    const { code, linkType } = linkQuery(c);
    const application = await ctx.readJson(c, BadgeApplication);
    const claimed = await claimFreeBadge(
      deps.db,
      c.get('user'),
      code,
      application,
      badgeCtx(),
      linkType,
      placedFrom(c, ctx.originOf(c)),
    );
    return ctx.send(c, {
      data: (await getBadge(deps.db, c.get('user').id, claimed.editionId)) ?? null,
    } satisfies Sendable<Data<Badge | null>>);
  });

  app.post('/demonstration_order', auth, ctx.limits.orders, async (c) => {
    const application = await ctx.readJson(c, BadgeApplication);
    const created = await applyProfessional(
      deps.db,
      c.get('user'),
      application,
      badgeCtx(),
      placedFrom(c, ctx.originOf(c)),
    );
    return ctx.send(c, created satisfies Sendable<BadgeOrderPlaced>, 201);
  });

  app.get('/demonstration_order', auth, async (c) => {
    const row = await findBadgeOrder(deps.db, c.get('user').id, await editionOf(c));
    const order = row && (await findOrder(deps.db, c.get('user').id, row.id));
    if (!order) throw notFound('Badge order');
    return ctx.send(c, { data: orderView(order, c.get('locale')) });
  });

  app.put('/demonstration_order', auth, async (c) => {
    const update = await ctx.readJson(c, OrderPaymentUpdate);
    await checkCarrier(ctx, update.receipt);
    const userId = c.get('user').id;
    const row = await findBadgeOrder(deps.db, userId, await editionOf(c));
    if (!row) throw notFound('Badge order');
    await updateOrderPayment(deps.db, { userId, orderId: row.id, update }, badgeCtx());
    const order = await findOrder(deps.db, userId, row.id);
    if (!order) throw notFound('Badge order');
    return ctx.send(c, orderView(order, c.get('locale')));
  });
}
