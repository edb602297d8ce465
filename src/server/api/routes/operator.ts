import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { enums, integer, object, optional, pattern, size, string } from 'superstruct';
import { LINK_EXPIRY_DAYS } from '@domain/badge-links';
import { BADGE_IDENTITIES, identityFromLinkType, linkTypeOf } from '@domain/badges';
import { QueryInt } from '@domain/validation';
import { withOrderOwner } from '../../db/order-joins';
import { events, orders, users } from '../../db/schema';
import { DomainError } from '@domain/errors';
import { ROLES, type Role } from '@domain/roles';
import { createBadgeLinkBatch } from '../../badges/badge-link-batches';
import { addOrganiser, listOrganisers, removeOrganiser } from '../../identity/organisers';
import type { ActorRef } from '../../orders/order-state';
import { decideOrder, expireOverdueOrders, listRefundsDue, markPaid, markRefunded } from '../../payments/payments';
import type { ApiApp, Env, RouteContext } from '../context';
import { unauthorized } from '../errors';

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
  /** The organiser behind the operator token: named by the command (X-Operator), for the audit trail. */
  const organiser = (c: { req: { header: (name: string) => string | undefined } }): ActorRef => ({
    kind: 'organiser',
    id: (c.req.header('x-operator') ?? '').replace(/[^\w.@+-]/g, '').slice(0, 64) || 'operator',
  });

  app.use('/operator/*', operator);

  app.get('/operator/orders', async (c) => {
    const query = ctx.validQuery(
      c,
      object({ event: optional(string()), status: optional(string()), limit: optional(QueryInt(1, 1000)) }),
    );
    const where: SQL[] = [];
    if (query.event) where.push(eq(events.slug, query.event));
    if (query.status) where.push(inArray(orders.paymentStatus, query.status.split(',') as 'pending'[]));
    const rows = await withOrderOwner(
      deps.db
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
        .$dynamic(),
    )
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(orders.createdAt))
      .limit(query.limit ?? 200);
    return ctx.send(c, { data: rows });
  });

  app.post('/operator/orders/:orderNo/mark-paid', async (c) => {
    const result = await markPaid(deps.db, c.req.param('orderNo'), ctx.orderCtx(), organiser(c));
    return ctx.send(c, { data: { orderNo: c.req.param('orderNo'), result } });
  });

  // Approve, reject (with a reason) and cancel go through the same order-state service as
  // everything else; a repeated approve answers `already_approved`.
  app.post('/operator/orders/:orderNo/approve', async (c) => {
    const orderNo = c.req.param('orderNo');
    try {
      await decideOrder(deps.db, orderNo, { type: 'approve' }, ctx.orderCtx(), organiser(c));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'already_approved')
        return ctx.send(c, { data: { orderNo, result: 'already_approved' } });
      throw error;
    }
    return ctx.send(c, { data: { orderNo, result: 'approved' } });
  });

  /** Rejects or cancels the order of the path (its reason in the body) and says which. */
  const decideWithReason = async (
    c: Context<Env>,
    command: Parameters<typeof decideOrder>[2],
    result: 'rejected' | 'canceled',
  ) => {
    const order = await decideOrder(deps.db, c.req.param('orderNo')!, command, ctx.orderCtx(), organiser(c));
    return ctx.send(c, { data: { orderNo: order.orderNo, result } });
  };

  app.post('/operator/orders/:orderNo/reject', async (c) => {
    const { reason } = await ctx.readJson(c, object({ reason: size(string(), 1, 1000) }));
    return decideWithReason(c, { type: 'reject', reason }, 'rejected');
  });

  app.post('/operator/orders/:orderNo/cancel', async (c) => {
    const { reason } = await ctx.readJson(c, object({ reason: optional(size(string(), 0, 1000)) }));
    return decideWithReason(c, { type: 'cancel', reason }, 'canceled');
  });

  app.get('/operator/refunds', async (c) => ctx.send(c, { data: await listRefundsDue(deps.db) }));

  app.post('/operator/payments/:paymentId/refunded', async (c) => {
    const record = await markRefunded(deps.db, c.req.param('paymentId'), ctx.orderCtx(), organiser(c));
    return ctx.send(c, { data: { paymentId: record.id, result: 'refunded' } });
  });

  app.post('/operator/expire', async (c) =>
    ctx.send(c, { data: { expired: await expireOverdueOrders(deps.db, ctx.now()) } }),
  );

  // The organisers of the back office (npm run organisers): granted by e-mail, read on every request.
  app.get('/operator/organisers', async (c) =>
    ctx.send(c, { data: await listOrganisers(deps.db, deps.config.organiserEmails) }),
  );
  const OrganiserBody = object({ email: size(string(), 3, 254), role: optional(enums(ROLES as unknown as Role[])) });
  app.post('/operator/organisers', async (c) => {
    const body = await ctx.readJson(c, OrganiserBody);
    return ctx.send(c, { data: await addOrganiser(deps.db, body.email, organiser(c).id ?? 'operator', body.role) });
  });
  app.post('/operator/organisers/remove', async (c) => {
    const body = await ctx.readJson(c, OrganiserBody);
    return ctx.send(c, { data: await removeOrganiser(deps.db, body.email, organiser(c).id ?? 'operator') });
  });

  app.post('/operator/badge-links', async (c) => {
    const body = await ctx.readJson(
      c,
      object({
        type: enums(BADGE_IDENTITIES.map(linkTypeOf) as [string, ...string[]]),
        email: optional(size(pattern(string(), /^[^\s@]+@[^\s@]+\.[^\s@]+$/), 3, 254)),
        // The command's rule (LINK_EXPIRY_DAYS): out of range is refused, never quietly clamped.
        expiresDays: optional(size(integer(), LINK_EXPIRY_DAYS.min, LINK_EXPIRY_DAYS.max)),
      }),
    );
    const identity = identityFromLinkType(body.type)!;
    const days = body.expiresDays ?? LINK_EXPIRY_DAYS.fallback;
    const expiresAt = new Date(ctx.now().getTime() + days * 86_400_000);
    // A batch of one, recorded with the operator's name like the back office's batches; a link
    // issued to an e-mail is also e-mailed to it (both languages), by the mail worker.
    const {
      links: [link],
    } = await createBadgeLinkBatch(
      deps.db,
      {
        identity,
        ...(body.email ? { emails: [body.email] } : { count: 1 }),
        expiresAt,
        createdBy: organiser(c).id ?? 'operator',
      },
      { origin: ctx.originOf(c), from: deps.config.MAIL_FROM },
      ctx.now(),
    );
    return ctx.send(
      c,
      {
        data: {
          code: link!.code,
          identity,
          expiresAt,
          urlEn: link!.urls.en,
          urlZh: link!.urls['zh-TW'],
          emailed: link!.emailed,
        },
      },
      201,
    );
  });
}
