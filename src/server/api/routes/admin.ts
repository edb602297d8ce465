import type { MiddlewareHandler } from 'hono';
import type {
  AdminOrderDetail,
  AdminOrderPage,
  BackOfficeCounts,
  Data,
  OrderActionResult,
  Organiser,
  Sendable,
} from '@domain/contract';
import { object, optional, size, string } from 'superstruct';
import { AdminOrderQuery } from '@domain/admin';
import { linkTypeOf, type BadgeIdentity } from '@domain/badges';
import { isUuid } from '@domain/validation';
import { adminFile, adminOrder, backOfficeCounts, searchOrders, type AdminOrder } from '../../orders/admin-orders';
import { editionSales } from '../../orders/edition-sales';
import { organiserRole } from '../../identity/organisers';
import { can, type Right } from '@domain/roles';
import type { ActorRef } from '../../orders/order-state';
import { decideOrder, markPaid } from '../../payments/payments';
import type { ApiApp, Env, RouteContext } from '../context';
import { forbidden, notFound } from '../errors';
import { eventName } from '../views';
import type { Locale } from '@i18n/locales';

/**
 * The back office's API (issue 11), under /api/v1/admin: only for organisers (ORGANISER_EMAILS or
 * `npm run organisers -- add`), checked on every request — a visitor gets 401, a registrant 403.
 * Every change goes through the order core's services, so it is in the order's trail
 * (`order_events`) with the organiser's e-mail as its actor.
 */
export function adminRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;

  app.use('/admin/*', ctx.organiser);

  /** The organiser behind a request, for the audit trail. */
  const actor = (c: { get: (key: 'user') => { email: string } }): ActorRef => ({
    kind: 'organiser',
    id: c.get('user').email,
  });

  app.get('/admin/me', anyMember, (c) => {
    const { email, name } = c.get('user');
    return ctx.send(c, { data: { email, name, organiser: true, role: c.get('role') } } satisfies Sendable<
      Data<Organiser>
    >);
  });

  app.get('/admin/summary', requireRight('read'), async (c) =>
    ctx.send(c, {
      data: { ...(await backOfficeCounts(deps.db)), sales: await editionSales(deps.db) },
    } satisfies Sendable<Data<BackOfficeCounts>>),
  );

  app.get('/admin/orders', requireRight('read'), async (c) => {
    const query = ctx.validQuery(c, AdminOrderQuery);
    const result = await searchOrders(deps.db, query);
    const locale = c.get('locale');
    return ctx.send(c, {
      data: result.items.map(({ eventNameEn, eventNameZh, ...row }) => ({
        ...row,
        eventName: eventName({ nameEn: eventNameEn, nameZh: eventNameZh }, locale),
      })),
      meta: { page: result.page, limit: result.limit, total: result.total },
    } satisfies Sendable<AdminOrderPage>);
  });

  app.get('/admin/orders/:orderNo', requireRight('read'), async (c) => {
    const found = await adminOrder(deps.db, c.req.param('orderNo'));
    if (!found) throw notFound('Order');
    return ctx.send(c, { data: adminOrderView(found, c.get('locale')) });
  });

  // Approve, reject (with a reason), review, cancel and confirm a transfer: the order core's
  // transitions, refused with its codes (409 when the order's state does not allow it).
  const Reason = object({ reason: size(string(), 1, 1000) });
  const OptionalReason = object({ reason: optional(size(string(), 0, 1000)) });
  const respond = (orderNo: string, result: string) =>
    ({ data: { orderNo, result } }) satisfies Sendable<Data<OrderActionResult>>;

  app.post('/admin/orders/:orderNo/approve', requireRight('review'), async (c) => {
    const orderNo = c.req.param('orderNo');
    await decideOrder(deps.db, orderNo, { type: 'approve' }, ctx.orderCtx(), actor(c));
    return ctx.send(c, respond(orderNo, 'approved'));
  });
  app.post('/admin/orders/:orderNo/start-review', requireRight('review'), async (c) => {
    const orderNo = c.req.param('orderNo');
    await decideOrder(deps.db, orderNo, { type: 'start_review' }, ctx.orderCtx(), actor(c));
    return ctx.send(c, respond(orderNo, 'auditing'));
  });
  app.post('/admin/orders/:orderNo/reject', requireRight('review'), async (c) => {
    const body = await ctx.readJson(c, Reason);
    const orderNo = c.req.param('orderNo');
    await decideOrder(deps.db, orderNo, { type: 'reject', reason: body.reason }, ctx.orderCtx(), actor(c));
    return ctx.send(c, respond(orderNo, 'rejected'));
  });
  app.post('/admin/orders/:orderNo/cancel', requireRight('orders'), async (c) => {
    const body = await ctx.readJson(c, OptionalReason);
    const orderNo = c.req.param('orderNo');
    await decideOrder(deps.db, orderNo, { type: 'cancel', reason: body.reason }, ctx.orderCtx(), actor(c));
    return ctx.send(c, respond(orderNo, 'canceled'));
  });
  app.post('/admin/orders/:orderNo/mark-paid', requireRight('money'), async (c) => {
    const orderNo = c.req.param('orderNo');
    const result = await markPaid(deps.db, orderNo, ctx.orderCtx(), actor(c));
    return ctx.send(c, respond(orderNo, result));
  });

  // The files an order names (photo, logo, story outline…), for organisers; links open directly.
  app.get('/admin/files/:fileId', requireRight('read'), async (c) => {
    const id = c.req.param('fileId');
    const row = isUuid(id) ? await adminFile(deps.db, id) : undefined;
    const bytes = row ? await deps.storage.get(row.storageKey) : null;
    if (!row || !bytes) throw notFound('File');
    return new Response(Buffer.from(bytes), {
      headers: {
        'content-type': row.contentType,
        'content-length': String(bytes.length),
        'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(row.name)}`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      },
    });
  });
}

/** Builds the organiser check: the signed-in user's e-mail is an organiser's, read on every request. */
export function organiserOnly(ctx: Pick<RouteContext, 'deps' | 'auth' | 'authOrCookie'>): MiddlewareHandler<Env> {
  return async (c, next) => {
    // Files open as links (cookie); everything else carries the Bearer token.
    const authenticate = c.req.method === 'GET' ? ctx.authOrCookie : ctx.auth;
    await authenticate(c, async () => {
      const role = await organiserRole(ctx.deps.db, ctx.deps.config.organiserEmails, c.get('user').email);
      if (!role) throw forbidden();
      c.set('role', role);
      await next();
    });
  };
}

/** The right a back-office route names (requireRight), or `member`: any team member (GET /admin/me). */
export type RouteRight = Right | 'member';

/** Where a route's middleware keeps the right it checks, so the route table can be read (tests). */
const RIGHT = Symbol('right');

/** The right a handler of the app's route table checks, if it is requireRight's (or anyMember). */
export const rightOf = (handler: unknown): RouteRight | undefined => {
  const h = handler as { [RIGHT]?: RouteRight; __COMPOSED_HANDLER?: unknown } | null;
  // A route mounted from a sub-app (app.route) wraps its handler and keeps the original here.
  return h?.[RIGHT] ?? (h?.__COMPOSED_HANDLER ? rightOf(h.__COMPOSED_HANDLER) : undefined);
};

const tagged = (right: RouteRight, handler: MiddlewareHandler<Env>) =>
  Object.assign(handler, { [RIGHT]: right }) as MiddlewareHandler<Env>;

/**
 * A back-office route's right (issue 21, `@domain/roles`): after the `/admin/*` gate, 403 unless
 * the caller's role has it. Every back-office route names one (tests/api/admin-roles.test.ts
 * reads them from the app's routes and tries each with every role).
 */
export function requireRight(right: Right): MiddlewareHandler<Env> {
  return tagged(right, async (c, next) => {
    if (!can(c.get('role'), right)) throw forbidden();
    await next();
  });
}

/** The routes every team member may call, whatever the role (who am I). */
export const anyMember: MiddlewareHandler<Env> = tagged('member', async (_c, next) => {
  await next();
});

/** The wire view of an order in the back office (both languages' names; the registrant's data). */
function adminOrderView(row: AdminOrder, locale: Locale) {
  const { order, event, user, receipt, registration, badge } = row;
  return {
    orderId: order.id,
    orderNo: order.orderNo,
    registrationType: order.registrationType,
    paymentStatus: order.paymentStatus,
    approvalStatus: order.approvalStatus,
    rejectedReason: order.rejectedReason,
    paymentExpiresAt: order.paymentExpiresAt,
    paymentType: order.paymentType,
    currency: order.currency,
    amountCents: order.amountCents,
    quantity: order.quantity,
    unitPriceTwdCents: order.unitPriceTwdCents,
    unitPriceUsdCents: order.unitPriceUsdCents,
    totalTwdCents: order.totalTwdCents,
    totalUsdCents: order.totalUsdCents,
    remitter: order.remitter,
    senderBank: order.senderBank,
    lastFiveDigits: order.lastFiveDigits,
    locale: order.locale,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    approvedAt: order.approvedAt,
    user,
    event: {
      slug: event.slug,
      type: event.type,
      name: eventName(event, locale),
      startTime: event.startTime,
      endAt: event.endAt,
      formModifyExpiresAt: event.formModifyExpiresAt,
    },
    receipt: receipt && {
      kind: receipt.kind,
      invoiceTitle: receipt.invoiceTitle,
      unifiedBusinessNumber: receipt.unifiedBusinessNumber,
    },
    registration: registration && {
      id: registration.id,
      form: registration.form,
      contact: registration.contact,
      updatedAt: registration.updatedAt,
    },
    badge: badge && {
      identity: badge.identity,
      nameZh: badge.nameZh,
      nameEn: badge.nameEn,
      companyNameZh: badge.companyNameZh,
      companyNameEn: badge.companyNameEn,
      personalPhotoFileId: badge.personalPhotoFileId,
      pickedUpAt: badge.pickedUpAt,
    },
    contents: row.contents.map((w) => ({
      id: w.contentId,
      titleEn: w.title,
      titleZh: w.titleZh,
      genre: w.genre,
      categoryId: w.categoryId,
    })),
    files: row.files.map((f) => ({ ...f, url: `/api/v1/admin/files/${f.id}` })),
    payments: row.payments.map((p) => ({
      id: p.id,
      method: p.method,
      attempt: p.attempt,
      merchantOrderNo: p.merchantOrderNo,
      currency: p.currency,
      amountCents: p.amountCents,
      status: p.status,
      gatewayTradeNo: p.gatewayTradeNo,
      gatewayStatus: p.gatewayStatus,
      gatewayMessage: p.gatewayMessage,
      refundReason: p.refundReason,
      refundReference: p.refundReference,
      paidAt: p.paidAt,
      refundedAt: p.refundedAt,
      createdAt: p.createdAt,
    })),
    includedLinks: row.includedLinks.map((l) => ({
      seq: l.seq,
      path: `/get-badge/${linkTypeOf(l.identity as BadgeIdentity)}/${l.code}`,
      usedAt: l.usedAt,
      usedBy: l.usedBy,
    })),
    history: row.history.map((e) => ({
      id: e.id,
      kind: e.kind,
      actor: e.actor,
      actorId: e.actorId,
      paymentStatusBefore: e.paymentStatusBefore,
      paymentStatusAfter: e.paymentStatusAfter,
      approvalStatusBefore: e.approvalStatusBefore,
      approvalStatusAfter: e.approvalStatusAfter,
      payload: e.payload,
      createdAt: e.createdAt,
    })),
  } satisfies Sendable<AdminOrderDetail>;
}
