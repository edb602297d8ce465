import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { enums, integer, object, optional, size, string } from 'superstruct';
import { BADGE_IDENTITIES, identityFromLinkType, linkTypeOf } from '@domain/badges';
import { events, orders, users } from '../../db/schema';
import { createBadgeLink } from '../../services/badges';
import { expireOverdueOrders, markPaid } from '../../services/payments';
import type { ApiApp, Env, RouteContext } from '../context';
import { ApiError, notFound, unauthorized } from '../errors';

/**
 * The operator API behind `npm run orders` and `npm run badge-link` until the back office exists:
 * confirm transfers, approve registrations, create free-badge links. It answers only to the
 * operator token (OPERATOR_TOKEN, or in development the token the server keeps in DATA_DIR).
 */
export function operatorRoutes(app: ApiApp, ctx: RouteContext, operatorToken: string | undefined) {
  const { deps } = ctx;
  const operator: MiddlewareHandler<Env> = async (c, next) => {
    const given = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    const ok =
      !!operatorToken &&
      given.length === operatorToken.length &&
      timingSafeEqual(Buffer.from(given), Buffer.from(operatorToken));
    if (!ok) throw unauthorized('Operator token required');
    await next();
  };
  const paymentCtx = () => ({ now: ctx.now(), pickupSecret: deps.config.PICKUP_CODE_SECRET });

  app.use('/operator/*', operator);

  app.get('/operator/orders', async (c) => {
    const query = ctx.validQuery(
      c,
      object({ event: optional(string()), status: optional(string()), limit: optional(string()) }),
    );
    const where: SQL[] = [];
    if (query.event) where.push(eq(events.slug, query.event));
    if (query.status) where.push(inArray(orders.paymentStatus, query.status.split(',') as 'pending'[]));
    const rows = await deps.db
      .select({
        orderNo: orders.orderNo,
        orderId: orders.id,
        email: users.email,
        eventSlug: events.slug,
        registrationType: orders.registrationType,
        paymentStatus: orders.paymentStatus,
        approvalStatus: orders.approvalStatus,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(orders.createdAt))
      .limit(Math.min(1000, Number(query.limit ?? 200) || 200));
    return ctx.send(c, { data: rows });
  });

  app.post('/operator/orders/:orderNo/mark-paid', async (c) => {
    const result = await markPaid(deps.db, c.req.param('orderNo'), paymentCtx());
    return ctx.send(c, { data: { orderNo: c.req.param('orderNo'), result } });
  });

  app.post('/operator/orders/:orderNo/approve', async (c) => {
    const [order] = await deps.db
      .select()
      .from(orders)
      .where(eq(orders.orderNo, c.req.param('orderNo')))
      .limit(1);
    if (!order) throw notFound('Order');
    if (order.approvalStatus === 'approved')
      return ctx.send(c, { data: { orderNo: order.orderNo, result: 'already_approved' } });
    const [updated] = await deps.db
      .update(orders)
      .set({ approvalStatus: 'approved', updatedAt: ctx.now() })
      .where(
        and(
          eq(orders.id, order.id),
          inArray(orders.approvalStatus, ['pending_approval', 'auditing']),
          notInArray(orders.paymentStatus, ['overdue', 'canceled']),
        ),
      )
      .returning({ id: orders.id });
    if (!updated) throw new ApiError(409, 'not_awaiting_approval', 'This order does not need approval');
    return ctx.send(c, { data: { orderNo: order.orderNo, result: 'approved' } });
  });

  app.post('/operator/expire', async (c) =>
    ctx.send(c, { data: { expired: await expireOverdueOrders(deps.db, ctx.now()) } }),
  );

  app.post('/operator/badge-links', async (c) => {
    const body = await ctx.readJson(
      c,
      object({
        type: enums(BADGE_IDENTITIES.map(linkTypeOf) as [string, ...string[]]),
        email: optional(size(string(), 3, 254)),
        expiresDays: optional(integer()),
      }),
    );
    const identity = identityFromLinkType(body.type)!;
    const expiresAt = new Date(ctx.now().getTime() + Math.max(1, Math.min(365, body.expiresDays ?? 14)) * 86_400_000);
    const link = await createBadgeLink(deps.db, { identity, email: body.email, expiresAt });
    const origin = ctx.originOf(c);
    const path = `/get-badge/${body.type}/${link.code}`;
    return ctx.send(
      c,
      { data: { code: link.code, identity, expiresAt, urlEn: `${origin}/en${path}`, urlZh: `${origin}/zh-tw${path}` } },
      201,
    );
  });
}
