import { eq } from 'drizzle-orm';
import { toGatewayAmount } from '@domain/money';
import { orderPages } from '@domain/registration-kinds';
import { localePath, toLocale } from '@i18n/locales';
import { buildMpgForm, verifyCallback } from '../../payments/newebpay';
import { applyGatewayResult, startCardAttempt, type GatewayOutcome } from '../../services/payments';
import { events, orders, paymentNotifications } from '../../db/schema';
import type { Context } from 'hono';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest } from '../errors';
import { eventName } from '../views';

/** NewebPay MPG (DESIGN D10, reference/newebpay-mpg.md): trade info for the card form, notify, return. */
export function paymentRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;
  const keys = deps.gateway.keys;

  // The encrypted trade info the pay page posts to the gateway in a hidden form.
  app.get('/payment/:orderId/tradeinfo', auth, async (c) => {
    const locale = toLocale(c.req.query('lang')) ?? c.get('locale');
    const user = c.get('user');
    const { order, event, merchantOrderNo, amount } = await startCardAttempt(
      deps.db,
      { userId: user.id, orderId: c.req.param('orderId') },
      ctx.orderCtx(),
    );
    const origin = ctx.originOf(c);
    const page = orderPages({ orderId: order.id, eventSlug: event.slug, registrationType: order.registrationType }).pay;
    const form = buildMpgForm(
      {
        orderNo: merchantOrderNo,
        amount: toGatewayAmount(amount),
        itemDesc: eventName(event, locale),
        email: user.email,
        langType: locale === 'zh-TW' ? 'zh-tw' : 'en',
        returnUrl: `${origin}/api/v1/payment/newebpay/return?lang=${locale}`,
        notifyUrl: `${origin}/api/v1/payment/newebpay/notify`,
        clientBackUrl: `${origin}/${localePath(locale)}${page}`,
        timestamp: Math.floor(ctx.now().getTime() / 1000),
      },
      keys,
      deps.config.NEWEBPAY_VERSION,
    );
    return ctx.send(c, {
      data: {
        gatewayUrl: deps.gateway.url(origin),
        merchantId: form.MerchantID,
        version: form.Version,
        tradeInfoHex: form.TradeInfo,
        tradeInfoHash: form.TradeSha,
        orderNo: order.orderNo,
        amountTwd: amount.cents,
      },
    });
  });

  /** Verifies a gateway post, applies it, and records it (accepted or not) for reconciliation. */
  async function receive(source: 'notify' | 'return', body: Record<string, unknown>): Promise<GatewayOutcome> {
    const verified = verifyCallback(body, keys);
    let outcome: GatewayOutcome;
    if (!verified.ok) {
      outcome = { outcome: 'rejected', reason: verified.reason };
    } else {
      outcome = await applyGatewayResult(
        deps.db,
        {
          merchantOrderNo: verified.result.MerchantOrderNo,
          amount: verified.result.Amt,
          status: verified.status,
          message: verified.result.Message,
          tradeNo: verified.result.TradeNo || undefined,
        },
        ctx.orderCtx(),
      );
    }
    // Accepted: the post settled or updated its order. A charge owed back is verified but not accepted.
    const accepted = outcome.outcome !== 'rejected' && outcome.outcome !== 'refund_due';
    await deps.db.insert(paymentNotifications).values({
      orderId: 'orderId' in outcome ? (outcome.orderId ?? null) : null,
      source,
      accepted,
      reason: outcome.outcome === 'rejected' || outcome.outcome === 'refund_due' ? outcome.reason : outcome.outcome,
      // Only what was posted: encrypted, nothing secret in the clear.
      // The five fields of the protocol only, bounded and without NULs: an unauthenticated post
      // must not be able to write arbitrary data here.
      payload: Object.fromEntries(
        ['Status', 'MerchantID', 'Version', 'TradeInfo', 'TradeSha']
          .filter((k) => k in body)
          .map((k) => [
            k,
            String(body[k])
              .replace(/\u0000/g, '')
              .slice(0, 8000),
          ]),
      ),
    });
    if (!accepted)
      ctx.log('warn', 'payment notification rejected', {
        source,
        reason: outcome.outcome === 'rejected' ? outcome.reason : '',
      });
    return outcome;
  }

  const formBody = async (c: Context<Env>) => {
    try {
      return (await c.req.parseBody()) as Record<string, unknown>;
    } catch {
      return {};
    }
  };

  // Server to server. Only HTTP 200 counts as delivered: a repeat of a verified notification is
  // answered 200 again (and changes nothing); a forged or mismatched one gets 400.
  app.post('/payment/newebpay/notify', async (c) => {
    const outcome = await receive('notify', await formBody(c));
    // A verified charge that cannot settle its order (superseded, a second charge, paid by
    // transfer meanwhile) is received (200, or the gateway retries for days) and recorded as a
    // payment owed back: `npm run orders -- refunds`.
    if (outcome.outcome === 'refund_due') {
      ctx.log('error', 'card charged but order not payable: refund due', {
        reason: outcome.reason,
        orderId: outcome.orderId,
      });
      return ctx.send(c, { data: { result: outcome.reason } });
    }
    if (outcome.outcome === 'rejected')
      throw badRequest('notification_rejected', `Notification rejected: ${outcome.reason}`);
    return ctx.send(c, { data: { result: outcome.outcome } });
  });

  // The paying browser, posted cross-site by the gateway (no cookies): apply the same result
  // (the notify may come later) and send the browser to the order's processing page.
  app.post('/payment/newebpay/return', async (c) => {
    const locale = toLocale(c.req.query('lang')) ?? 'en';
    const outcome = await receive('return', await formBody(c));
    const orderId = 'orderId' in outcome ? outcome.orderId : undefined;
    if (!orderId) return c.redirect(`/${localePath(locale)}/account/orders`, 303);
    const [row] = await deps.db
      .select({ registrationType: orders.registrationType, eventSlug: events.slug })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(eq(orders.id, orderId))
      .limit(1);
    if (!row) return c.redirect(`/${localePath(locale)}/account/orders`, 303);
    return c.redirect(`/${localePath(locale)}${orderPages({ ...row, orderId }).processing}`, 303);
  });
}
