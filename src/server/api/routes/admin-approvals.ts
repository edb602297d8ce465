import { array, object, optional, size, string } from 'superstruct';
import type { ApprovalQueuePage, BulkApproveResult, Sendable } from '@domain/contract';
import { approvalQueue, approveOrders } from '../../orders/approvals';
import type { ActorRef } from '../../orders/order-state';
import { requireRight } from './admin';
import type { ApiApp, RouteContext } from '../context';

/** The organiser behind a request, for the audit trail. */
export const organiserActor = (c: { get: (key: 'user') => { email: string } }): ActorRef => ({
  kind: 'organiser',
  id: c.get('user').email,
});

/** The most orders one bulk approval takes. */
export const BULK_APPROVE_LIMIT = 200;

const BulkApprove = object({
  orders: size(
    array(
      object({
        orderNo: size(string(), 1, 40),
        /** The order's version as the queue listed it: an order changed since is refused. */
        version: optional(size(string(), 1, 40)),
      }),
    ),
    1,
    BULK_APPROVE_LIMIT,
  ),
});

/**
 * The approvals queue of the back office (issue 11). Registered after `adminRoutes`, whose
 * `/admin/*` gate (organisers only: 401 visitor, 403 registrant) runs before these handlers.
 * Approving one order, or rejecting one with a reason, is `/admin/orders/{orderNo}/approve|reject`.
 */
export function adminApprovalRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;

  app.get('/admin/approvals', requireRight('review'), async (c) => {
    const { items, total } = await approvalQueue(deps.db);
    const zh = c.get('locale') === 'zh-TW';
    return ctx.send(c, {
      data: items.map(({ eventNameEn, eventNameZh, companyEn, companyZh, ...row }) => {
        // The company in the reader's language first, the other name beside it when it differs.
        const [first, second] = zh ? [companyZh, companyEn] : [companyEn, companyZh];
        return {
          ...row,
          eventName: zh ? eventNameZh : eventNameEn,
          company: first ?? second ?? null,
          companyOther: first && second && first !== second ? second : null,
        };
      }),
      meta: { total, shown: items.length },
    } satisfies Sendable<ApprovalQueuePage>);
  });

  // Several orders at once, each in its own transaction: the answer lists every order's outcome
  // (200 even when some were refused; each refusal has the order core's code).
  app.post('/admin/approvals/approve', requireRight('review'), async (c) => {
    const body = await ctx.readJson(c, BulkApprove);
    const results = await approveOrders(deps.db, body.orders, ctx.orderCtx(), organiserActor(c));
    const approved = results.filter((r) => r.result === 'approved').length;
    return ctx.send(c, {
      data: results,
      meta: { approved, refused: results.length - approved },
    } satisfies Sendable<BulkApproveResult>);
  });
}
