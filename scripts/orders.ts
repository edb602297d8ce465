/**
 * Operator commands for orders (until the back office exists).
 *
 *   npm run orders -- list [--event <slug>] [--status <status>] [--limit <n, default 100>]
 *   npm run orders -- mark-paid <orderNo>     confirm a transfer: paid, badge issued with its QR code
 *   npm run orders -- approve <orderNo>       approve an order pending approval or in audit
 *   npm run orders -- expire                  unpaid orders past their deadline become overdue
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
import { expireOverdueOrders, markPaid } from '@server/services/payments';
import { CommandError, localTime, runCommand, table, UsageError } from './lib';
import { DEFAULT_TIMEZONE } from '@lib/format';

const USAGE = `usage:
  npm run orders -- list [--event <slug>] [--status <${PAYMENT_STATUSES.join('|')}>] [--limit <n>]
  npm run orders -- mark-paid <orderNo>
  npm run orders -- approve <orderNo>
  npm run orders -- expire`;

type Args =
  | { command: 'list'; event: string | undefined; status: (typeof PAYMENT_STATUSES)[number] | undefined; limit: number }
  | { command: 'mark-paid' | 'approve'; orderNo: string }
  | { command: 'expire' };

function parse(): Args {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { event: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string', default: '100' } },
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
  if (command === 'expire') {
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

const notApprovable = (orderNo: string, status: string | null) =>
  new CommandError(`${orderNo} cannot be approved: its approval status is ${status ?? 'none (it needs no approval)'}`);

await runCommand(USAGE, parse, {
  async db({ db }, args, config) {
    const now = new Date();
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
      const result = await markPaid(db, args.orderNo, { now, pickupSecret: config.PICKUP_CODE_SECRET });
      console.log(
        result === 'already_paid'
          ? `${args.orderNo} was already paid; nothing changed`
          : `${args.orderNo}: ${before.status} → paid`,
      );
    } else if (args.command === 'approve') {
      const [order] = await db
        .select({ id: orders.id, approval: orders.approvalStatus })
        .from(orders)
        .where(eq(orders.orderNo, args.orderNo))
        .limit(1);
      if (!order) throw new CommandError(`no order ${args.orderNo}`);
      if (order.approval !== 'pending_approval' && order.approval !== 'auditing')
        throw notApprovable(args.orderNo, order.approval);
      // Guarded: only from the state just read, so two operators cannot both "approve".
      const updated = await db
        .update(orders)
        .set({ approvalStatus: 'approved', updatedAt: now })
        .where(and(eq(orders.id, order.id), eq(orders.approvalStatus, order.approval)))
        .returning({ id: orders.id });
      if (updated.length === 0) throw new CommandError(`${args.orderNo} changed meanwhile; run the command again`);
      console.log(`${args.orderNo}: ${order.approval} → approved`);
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
    } else {
      const { expired } = (await call('POST', '/expire')) as { expired: number };
      console.log(expired === 1 ? '1 order is now overdue' : `${expired} orders are now overdue`);
    }
  },
});
