import { eq } from 'drizzle-orm';
import type { Data, Sendable, TradeInfo } from '@domain/contract';
import { toGatewayAmount } from '@domain/money';
import { orderPages } from '@domain/kinds/pages';
import { localePath, toLocale, type Locale } from '@i18n/locales';
import { buildMpgForm, verifyCallback } from '../../payments/newebpay';
import { applyGatewayResult, startCardAttempt, type GatewayOutcome } from '../../payments/payments';
import { recordVirtualAccount, startAtmAttempt, type AccountOutcome } from '../../payments/vacc';
import { mailSettings } from '../../mail/outbox';
import { events, orders, paymentNotifications } from '../../db/schema';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest, errorBody, rateLimited } from '../errors';
import { eventName } from '../views';
import { countRateLimitRefusal } from '../../ops/metrics';

/** Largest gateway post read (the five protocol fields; TradeInfo is at most 32 KB of hex). */
const CALLBACK_BODY_LIMIT = 64 * 1024;

/** NewebPay MPG (DESIGN D10, reference/newebpay-mpg.md): trade info for the card form, notify, return. */
export function paymentRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;
  const keys = deps.gateway.keys;

  /** The gateway form of a started attempt, as trade info (a card, or an ATM virtual account). */
  const tradeInfoOf = (
    c: Context<Env>,
    locale: Locale,
    started: Awaited<ReturnType<typeof startCardAttempt>> & { expireDate?: string },
  ) => {
    const { order, event, merchantOrderNo, amount } = started;
    const origin = ctx.originOf(c);
    const page = orderPages({ orderId: order.id, eventSlug: event.slug, registrationType: order.registrationType }).pay;
    const form = buildMpgForm(
      {
        orderNo: merchantOrderNo,
        amount: toGatewayAmount(amount),
        itemDesc: eventName(event, locale),
        email: c.get('user').email,
        langType: locale === 'zh-TW' ? 'zh-tw' : 'en',
        returnUrl: `${origin}/api/v1/payment/newebpay/return?lang=${locale}`,
        notifyUrl: `${origin}/api/v1/payment/newebpay/notify`,
        clientBackUrl: `${origin}/${localePath(locale)}${page}`,
        timestamp: Math.floor(ctx.now().getTime() / 1000),
        ...(started.expireDate
          ? {
              vacc: {
                customerUrl: `${origin}/api/v1/payment/newebpay/customer?lang=${locale}`,
                expireDate: started.expireDate,
              },
            }
          : {}),
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
    } satisfies Sendable<Data<TradeInfo>>);
  };

  // The encrypted trade info the pay page posts to the gateway in a hidden form.
  app.get('/payment/:orderId/tradeinfo', auth, async (c) => {
    const locale = toLocale(c.req.query('lang')) ?? c.get('locale');
    const input = { userId: c.get('user').id, orderId: c.req.param('orderId') };
    return tradeInfoOf(c, locale, await startCardAttempt(deps.db, input, ctx.orderCtx()));
  });

  // An ATM virtual account (VACC, issue 22): the same gateway form, for an account instead of a
  // card; the gateway form-posts the account to CustomerURL through the browser.
  app.get('/payment/:orderId/atm-tradeinfo', auth, async (c) => {
    const locale = toLocale(c.req.query('lang')) ?? c.get('locale');
    const input = { userId: c.get('user').id, orderId: c.req.param('orderId') };
    return tradeInfoOf(c, locale, await startAtmAttempt(deps.db, input, ctx.orderCtx()));
  });

  /**
   * The protocol fields of a post. Verified posts are kept whole (TradeInfo is at most 32 KB, or
   * verification fails); a post that failed verification is anyone's, so only a bounded excerpt of
   * each field is kept (and nothing else that was posted): about 400 characters at most.
   */
  const FIELDS = { Status: 32, MerchantID: 32, Version: 16, TradeInfo: 256, TradeSha: 64 } as const;
  const fieldsOf = (body: Record<string, unknown>, bounded: boolean) =>
    Object.fromEntries(
      (Object.keys(FIELDS) as (keyof typeof FIELDS)[])
        .filter((k) => k in body)
        .map((k) => {
          const value = String(body[k]).replace(/\u0000/g, '');
          return [k, bounded ? value.slice(0, FIELDS[k]) : value];
        }),
    );
  /** Characters posted, names and values (what an unverified post would have cost to keep). */
  const sizeOf = (body: Record<string, unknown>) =>
    Object.entries(body).reduce((n, [k, v]) => n + k.length + (typeof v === 'string' ? v.length : 0), 0);

  type Received = GatewayOutcome | { outcome: 'rate_limited'; retryAfterSeconds: number };

  /**
   * Verifies a gateway post, applies it, and records it for reconciliation. A post that fails
   * verification counts against its client address (RATE_LIMIT_PAYMENT_REJECTS): within the limit
   * it is recorded as an excerpt; beyond it, it is only counted (the limiter) and refused with 429.
   * A verified post is never limited: the gateway's notifications always get through.
   */
  async function receive(
    c: Context<Env>,
    source: 'notify' | 'return',
    body: Record<string, unknown>,
  ): Promise<Received> {
    const verified = verifyCallback(body, keys);
    const address = ctx.clientAddress(c);
    if (!verified.ok) {
      const limit = await ctx.limiter.check('payment-rejects', address, ctx.rules.paymentRejects);
      if (!limit.allowed) {
        countRateLimitRefusal('payment-rejects');
        // Said once per window and address; the rest are counted by the limiter only.
        if (limit.count === limit.limit + 1)
          ctx.log('warn', 'unverified payment posts over the limit: no longer stored', {
            source,
            clientAddress: address,
            limit: limit.limit,
          });
        return { outcome: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };
      }
      await deps.db.insert(paymentNotifications).values({
        orderId: null,
        source,
        accepted: false,
        verified: false,
        reason: verified.reason,
        payload: fieldsOf(body, true),
        size: sizeOf(body),
        clientAddress: address,
      });
      ctx.log('warn', 'payment notification rejected', { source, reason: verified.reason });
      return { outcome: 'rejected', reason: verified.reason };
    }
    const outcome = await applyGatewayResult(
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
    // Accepted: the post settled or updated its order. A charge owed back is verified but not accepted.
    const accepted = outcome.outcome !== 'rejected' && outcome.outcome !== 'refund_due';
    await deps.db.insert(paymentNotifications).values({
      orderId: 'orderId' in outcome ? (outcome.orderId ?? null) : null,
      source,
      accepted,
      verified: true,
      reason: outcome.outcome === 'rejected' || outcome.outcome === 'refund_due' ? outcome.reason : outcome.outcome,
      // Only what was posted: encrypted, nothing secret in the clear.
      payload: fieldsOf(body, false),
      size: sizeOf(body),
      clientAddress: address,
    });
    if (!accepted)
      ctx.log('warn', 'payment notification rejected', {
        source,
        reason: outcome.outcome === 'rejected' ? outcome.reason : '',
      });
    return outcome;
  }

  // A genuine post is a few KB (TradeInfo under 32 KB): anything larger is refused before it is parsed.
  const callbackLimit = bodyLimit({
    maxSize: CALLBACK_BODY_LIMIT,
    onError: (c) =>
      c.json(errorBody(badRequest('payload_too_large', `Request body exceeds ${CALLBACK_BODY_LIMIT} bytes`)), 400),
  });

  const formBody = async (c: Context<Env>) => {
    try {
      return (await c.req.parseBody()) as Record<string, unknown>;
    } catch {
      return {};
    }
  };

  /** Sends the paying browser to the order's `page` (its own orders where the order is not known). */
  const redirectToOrderPage = async (
    c: Context<Env>,
    locale: Locale,
    orderId: string | undefined,
    page: 'pay' | 'processing',
  ) => {
    const [row] = orderId
      ? await deps.db
          .select({ registrationType: orders.registrationType, eventSlug: events.slug })
          .from(orders)
          .innerJoin(events, eq(events.id, orders.eventId))
          .where(eq(orders.id, orderId))
          .limit(1)
      : [];
    if (!orderId || !row) return c.redirect(`/${localePath(locale)}/account/orders`, 303);
    return c.redirect(`/${localePath(locale)}${orderPages({ ...row, orderId })[page]}`, 303);
  };

  // Server to server. Only HTTP 200 counts as delivered: a repeat of a verified notification is
  // answered 200 again (and changes nothing); a forged or mismatched one gets 400.
  app.post('/payment/newebpay/notify', callbackLimit, async (c) => {
    const outcome = await receive(c, 'notify', await formBody(c));
    if (outcome.outcome === 'rate_limited') throw rateLimited(outcome.retryAfterSeconds);
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

  // The ATM account handed out (VACC 取號), posted cross-site by the gateway through the browser:
  // verified like a notify, kept and mailed once, then the browser goes to the order's pay page,
  // which shows the account. A forged or mismatched post changes nothing.
  app.post('/payment/newebpay/customer', callbackLimit, async (c) => {
    const locale = toLocale(c.req.query('lang')) ?? 'en';
    const body = await formBody(c);
    const verified = verifyCallback(body, keys);
    const outcome = verified.ok
      ? await recordVirtualAccount(deps.db, verified.status, verified.result, ctx.orderCtx(), mailSettings(deps.config))
      : ({ outcome: 'rejected', reason: verified.reason } as AccountOutcome);
    await deps.db.insert(paymentNotifications).values({
      orderId: 'orderId' in outcome ? (outcome.orderId ?? null) : null,
      source: 'customer',
      accepted: outcome.outcome !== 'rejected',
      verified: verified.ok,
      reason: outcome.outcome === 'rejected' ? outcome.reason : outcome.outcome,
      payload: fieldsOf(body, !verified.ok),
      size: sizeOf(body),
      clientAddress: ctx.clientAddress(c),
    });
    if (outcome.outcome === 'rejected') {
      ctx.log('warn', 'virtual account post rejected', { reason: outcome.reason });
      if (!outcome.orderId) throw badRequest('notification_rejected', `Rejected: ${outcome.reason}`);
    }
    return redirectToOrderPage(c, locale, outcome.orderId, 'pay');
  });

  // The paying browser, posted cross-site by the gateway (no cookies): apply the same result
  // (the notify may come later) and send the browser to the order's processing page.
  app.post('/payment/newebpay/return', callbackLimit, async (c) => {
    const locale = toLocale(c.req.query('lang')) ?? 'en';
    const outcome = await receive(c, 'return', await formBody(c));
    if (outcome.outcome === 'rate_limited') throw rateLimited(outcome.retryAfterSeconds);
    return redirectToOrderPage(c, locale, 'orderId' in outcome ? outcome.orderId : undefined, 'processing');
  });
}
