/**
 * Operator commands for orders (until the back office exists).
 *
 *   npm run orders -- list [--event <slug>] [--status <status>] [--limit <n, default 100>]
 *   npm run orders -- mark-paid <orderNo>     confirm a transfer: paid, badge issued with its QR code
 *   npm run orders -- approve <orderNo>       approve an order pending approval or in audit (its payment
 *                                             deadline, if it is charged, starts now)
 *   npm run orders -- reject <orderNo> --reason "…"   reject it: the seat is freed, the reason shown
 *   npm run orders -- cancel <orderNo> [--reason "…"] cancel it (a paid one: its payments become refund_due);
 *                                             the registrant is e-mailed the reason and what happens to
 *                                             the money (refunded, or nothing due)
 *   npm run orders -- refunds                 payments owed back (a second charge, a charge after a
 *                                             confirmed transfer, a canceled paid order)
 *   npm run orders -- refunded <paymentId>    a refund owed has been paid back
 *   npm run orders -- expire                  unpaid orders past their deadline become overdue
 *
 * Every change goes through the same order-state service as the API, and is recorded in the
 * order's trail (order_events) with the operator's name (OPERATOR_NAME, else the login name).
 *
 * Uses the server's configuration and database (DATABASE_URL, or PGlite under DATA_DIR). PGlite
 * cannot be shared between processes: while the portal server has it open, the command goes
 * through the server's operator API when it has the operator token (PORTAL_URL / OPERATOR_TOKEN,
 * or the development token in DATA_DIR), and otherwise says that the database is in use (stop
 * the server first). Details in scripts/lib.ts.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { events, orders, PAYMENT_STATUSES, users } from '@server/db/schema';
import { decideOrder, expireOverdueOrders, listRefundsDue, markPaid, markRefunded } from '@server/payments/payments';
import { formatMoney } from '@domain/format';
import { CommandError, localTime, operatorName, runCommand, table, UsageError } from './lib';
import { DEFAULT_TIMEZONE } from '@domain/format';

const USAGE = `usage:
  npm run orders -- list [--event <slug>] [--status <${PAYMENT_STATUSES.join('|')}>] [--limit <n>]
  npm run orders -- mark-paid <orderNo>
  npm run orders -- approve <orderNo>
  npm run orders -- reject <orderNo> --reason "<why>"
  npm run orders -- cancel <orderNo> [--reason "<why>"]
  npm run orders -- refunds
  npm run orders -- refunded <paymentId>
  npm run orders -- expire`;

type Args =
  | { command: 'list'; event: string | undefined; status: (typeof PAYMENT_STATUSES)[number] | undefined; limit: number }
  | { command: 'mark-paid' | 'approve'; orderNo: string }
  | { command: 'reject' | 'cancel'; orderNo: string; reason: string | undefined }
  | { command: 'refunded'; paymentId: string }
  | { command: 'expire' | 'refunds' };

function parse(): Args {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      event: { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string', default: '100' },
      reason: { type: 'string' },
    },
    allowPositionals: true,
  });
  if (command === 'list') {
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const status = values.status as Extract<Args, { command: 'list' }>['status'];
    if (status !== undefined && !PAYMENT_STATUSES.includes(status)) {
      throw new UsageError(`unknown --status ${values.status}; use one of ${PAYMENT_STATUSES.join(', ')}`);
    }
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive whole number');
    return { command, event: values.event, status, limit };
  }
  if (command === 'mark-paid' || command === 'approve') {
    if (positionals.length !== 1 || values.event || values.status)
      throw new UsageError(`${command} takes exactly one order number`);
    return { command, orderNo: positionals[0]!.trim().toUpperCase() };
  }
  if (command === 'reject' || command === 'cancel') {
    if (positionals.length !== 1) throw new UsageError(`${command} takes exactly one order number`);
    const reason = values.reason?.trim();
    if (command === 'reject' && !reason) throw new UsageError('reject needs --reason "<why>" (the registrant sees it)');
    return { command, orderNo: positionals[0]!.trim().toUpperCase(), reason };
  }
  if (command === 'refunded') {
    if (positionals.length !== 1) throw new UsageError('refunded takes exactly one payment id (see `refunds`)');
    return { command, paymentId: positionals[0]!.trim() };
  }
  if (command === 'expire' || command === 'refunds') {
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    return { command };
  }
  throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
}

const HEADER = ['order no', 'e-mail', 'event', 'registration type', 'payment', 'approval'];
type Row = {
  orderNo: string;
  email: string;
  slug: string;
  type: string;
  payment: string;
  approval: string | null;
  createdAt: Date | string;
};

function printList(rows: Row[], total: number | undefined, limit: number, timeZone: string) {
  if (rows.length === 0) {
    console.log('no orders');
    return;
  }
  console.log(
    table(
      [...HEADER, `created (${timeZone})`],
      rows.map((r) => [
        r.orderNo,
        r.email,
        r.slug,
        r.type,
        r.payment,
        r.approval ?? '-',
        localTime(r.createdAt, timeZone),
      ]),
    ),
  );
  const more = total === undefined ? rows.length === limit : total > rows.length;
  console.log(
    `\n${!more ? `${rows.length} orders` : `showing ${rows.length}${total === undefined ? '' : ` of ${total}`} orders (newest first; --limit for more)`}`,
  );
}

const deadline = (at: Date | null) => (at ? `; to be paid by ${localTime(at, DEFAULT_TIMEZONE)}` : '');

type RefundRow = {
  paymentId: string;
  orderNo: string;
  email: string;
  eventSlug: string;
  method: string;
  currency: string;
  amountCents: number;
  reason: string | null;
  gatewayTradeNo: string | null;
  at: Date | string;
};

function printRefunds(rows: RefundRow[], timeZone: string) {
  if (rows.length === 0) {
    console.log('no refunds due');
    return;
  }
  console.log(
    table(
      [
        'payment id',
        'order no',
        'e-mail',
        'event',
        'method',
        'amount',
        'reason',
        'gateway trade no',
        `since (${timeZone})`,
      ],
      rows.map((r) => [
        r.paymentId,
        r.orderNo,
        r.email,
        r.eventSlug,
        r.method,
        formatMoney(r.amountCents, r.currency === 'USD' ? 'USD' : 'TWD'),
        r.reason ?? '-',
        r.gatewayTradeNo ?? '-',
        localTime(r.at, timeZone),
      ]),
    ),
  );
  console.log(
    `\n${rows.length === 1 ? '1 refund' : `${rows.length} refunds`} due; after paying one back: npm run orders -- refunded <payment id>`,
  );
}

const notApprovable = (orderNo: string, status: string | null) =>
  new CommandError(`${orderNo} cannot be approved: its approval status is ${status ?? 'none (it needs no approval)'}`);

await runCommand(USAGE, parse, {
  async db({ db }, args, config) {
    const now = new Date();
    const orderCtx = { now, pickupSecret: config.PICKUP_CODE_SECRET, paymentDays: config.PAYMENT_EXPIRES_DAYS };
    const actor = { kind: 'organiser' as const, id: operatorName() };
    if (args.command === 'list') {
      if (args.event) {
        const [event] = await db.select({ id: events.id }).from(events).where(eq(events.slug, args.event)).limit(1);
        if (!event) throw new CommandError(`no event with the slug ${args.event}`);
      }
      const where: SQL | undefined = and(
        args.event ? eq(events.slug, args.event) : undefined,
        args.status ? eq(orders.paymentStatus, args.status) : undefined,
      );
      const [total] = await db
        .select({ n: count() })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(where);
      const rows = await db
        .select({ order: orders, email: users.email, slug: events.slug })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .innerJoin(users, eq(users.id, orders.userId))
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.orderNo))
        .limit(args.limit);
      printList(
        rows.map((r) => ({
          orderNo: r.order.orderNo,
          email: r.email,
          slug: r.slug,
          type: r.order.registrationType,
          payment: r.order.paymentStatus,
          approval: r.order.approvalStatus,
          createdAt: r.order.createdAt,
        })),
        total?.n,
        args.limit,
        DEFAULT_TIMEZONE,
      );
    } else if (args.command === 'mark-paid') {
      const [before] = await db
        .select({ status: orders.paymentStatus })
        .from(orders)
        .where(eq(orders.orderNo, args.orderNo))
        .limit(1);
      if (!before) throw new CommandError(`no order ${args.orderNo}`);
      const result = await markPaid(db, args.orderNo, orderCtx, actor);
      console.log(
        result === 'already_paid'
          ? `${args.orderNo} was already paid; nothing changed`
          : `${args.orderNo}: ${before.status} → paid`,
      );
    } else if (args.command === 'approve') {
      const [order] = await db
        .select({ approval: orders.approvalStatus })
        .from(orders)
        .where(eq(orders.orderNo, args.orderNo))
        .limit(1);
      if (!order) throw new CommandError(`no order ${args.orderNo}`);
      if (order.approval !== 'pending_approval' && order.approval !== 'auditing')
        throw notApprovable(args.orderNo, order.approval);
      const updated = await decideOrder(db, args.orderNo, { type: 'approve' }, orderCtx, actor);
      console.log(`${args.orderNo}: ${order.approval} → approved${deadline(updated.paymentExpiresAt)}`);
    } else if (args.command === 'reject' || args.command === 'cancel') {
      const command =
        args.command === 'reject'
          ? ({ type: 'reject', reason: args.reason ?? '' } as const)
          : ({ type: 'cancel', reason: args.reason } as const);
      const updated = await decideOrder(db, args.orderNo, command, orderCtx, actor);
      console.log(`${args.orderNo}: → ${args.command === 'reject' ? 'rejected' : updated.paymentStatus}`);
    } else if (args.command === 'refunds') {
      printRefunds(await listRefundsDue(db), DEFAULT_TIMEZONE);
    } else if (args.command === 'refunded') {
      await markRefunded(db, args.paymentId, { now }, actor);
      console.log(`${args.paymentId}: refund_due → refunded`);
    } else {
      const n = await expireOverdueOrders(db, now);
      console.log(n === 1 ? '1 order is now overdue' : `${n} orders are now overdue`);
    }
  },

  async api(call, args) {
    const orderPath = (orderNo: string) => `/orders/${encodeURIComponent(orderNo)}`;
    if (args.command === 'list') {
      const query = new URLSearchParams({
        limit: String(args.limit),
        ...(args.event ? { event: args.event } : {}),
        ...(args.status ? { status: args.status } : {}),
      });
      const rows = (await call('GET', `/orders?${query}`)) as {
        order_no: string;
        email: string;
        event_slug: string;
        registration_type: string;
        payment_status: string;
        approval_status: string | null;
        created_at: string;
      }[];
      printList(
        rows.map((r) => ({
          orderNo: r.order_no,
          email: r.email,
          slug: r.event_slug,
          type: r.registration_type,
          payment: r.payment_status,
          approval: r.approval_status,
          createdAt: r.created_at,
        })),
        undefined,
        args.limit,
        DEFAULT_TIMEZONE,
      );
    } else if (args.command === 'mark-paid') {
      const { result } = (await call('POST', `${orderPath(args.orderNo)}/mark-paid`)) as { result: string };
      console.log(
        result === 'already_paid' ? `${args.orderNo} was already paid; nothing changed` : `${args.orderNo}: → paid`,
      );
    } else if (args.command === 'approve') {
      const { result } = (await call('POST', `${orderPath(args.orderNo)}/approve`)) as { result: string };
      if (result === 'already_approved') throw notApprovable(args.orderNo, 'approved');
      console.log(`${args.orderNo}: → approved`);
    } else if (args.command === 'reject' || args.command === 'cancel') {
      const { result } = (await call('POST', `${orderPath(args.orderNo)}/${args.command}`, {
        ...(args.reason ? { reason: args.reason } : {}),
      })) as { result: string };
      console.log(`${args.orderNo}: → ${result}`);
    } else if (args.command === 'refunds') {
      const rows = (await call('GET', '/refunds')) as {
        payment_id: string;
        order_no: string;
        email: string;
        event_slug: string;
        method: string;
        currency: string;
        amount_cents: number;
        reason: string | null;
        gateway_trade_no: string | null;
        at: string;
      }[];
      printRefunds(
        rows.map((r) => ({
          paymentId: r.payment_id,
          orderNo: r.order_no,
          email: r.email,
          eventSlug: r.event_slug,
          method: r.method,
          currency: r.currency,
          amountCents: r.amount_cents,
          reason: r.reason,
          gatewayTradeNo: r.gateway_trade_no,
          at: r.at,
        })),
        DEFAULT_TIMEZONE,
      );
    } else if (args.command === 'refunded') {
      await call('POST', `/payments/${encodeURIComponent(args.paymentId)}/refunded`);
      console.log(`${args.paymentId}: refund_due → refunded`);
    } else {
      const { expired } = (await call('POST', '/expire')) as { expired: number };
      console.log(expired === 1 ? '1 order is now overdue' : `${expired} orders are now overdue`);
    }
  },
});
