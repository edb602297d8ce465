/**
 * The background worker of a running portal: every few seconds, one pass of the outbox (decision
 * 012); every 30 s, unpaid orders past their deadline; every 10 minutes, housekeeping (uploads
 * never attached to an order, expired rate-limit windows). While the process is busy answering
 * requests, a pass waits up to 10 s (decision 077).
 * One pass at a time per process, one claim at a time within it; several processes are safe (the
 * claims skip rows another holds). An error is logged and the next pass tries again: it never
 * reaches the process.
 */
import { eq } from 'drizzle-orm';
import { errorSummary } from '@domain/error-summary';
import { databaseHealth, type Db, type Tx } from '../db/client';
import { events, orders } from '../db/schema';
import { answeredRequests, countOrderEvent } from '../ops/metrics';
import { processOrderEvents } from '../orders/order-events';
import { expireOverdueOrders } from '../orders/order-state';
import { expireVirtualAccounts } from '../payments/vacc';
import { deleteUnattachedUploads } from '../files/files';
import type { RateLimiter } from '../security/rate-limit';
import type { FileStorage } from '../files/storage';
import { deliverEmails, queueEventMails, queuePaymentReminders, type MailSettings } from '../mail/outbox';
import type { MailTransport } from '../mail/transport';
import type { EzpayClient } from '../invoices/ezpay';
import { invoicePass } from '../invoices/invoices';
import { expireMeetingRequests, recordNoShows } from '../meetings/meetings';
import { queueMeetingReminders } from '../meetings/meeting-mails';

type Log = (level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;

export type MailWorkerOptions = {
  db: Db;
  transport: MailTransport;
  settings: MailSettings;
  log: Log;
  now?: () => Date;
  /** Time between passes (2 s). */
  intervalMs?: number;
  /** Time between sweeps of unpaid orders past their deadline (their "expired" mails), 30 s. */
  expireEveryMs?: number;
  /** Housekeeping, every `everyMs` (10 minutes); none when absent. */
  housekeeping?: HousekeepingOptions;
  /** E-invoices (issue 22): each pass issues, voids and credits what is due at ezPay; none when absent. */
  invoices?: EzpayClient;
  /** When a pass gives way to requests (LoadGauge); the default, `requestLoad()`, counts this process's answers. */
  load?: LoadGauge;
};

/**
 * Whether the process is busy answering requests right now. While it is (a registration burst), a
 * pass waits, up to `maxDeferMs`: registrations are answered first, their mails follow seconds
 * later (decision 077).
 */
export type LoadGauge = { busy: () => boolean; maxDeferMs: number };

/** Busy: at least this many requests a second answered since the last look… */
const BUSY_PER_SECOND = 100;
/** …and at least this many (a few requests in a short interval are no rush). */
const BUSY_AT_LEAST = 20;

/** The default gauge: the requests this process answered since it last looked (metrics' count). */
export function requestLoad(
  maxDeferMs = 10_000,
  answered: () => number = answeredRequests,
  clock: () => number = () => performance.now(),
): LoadGauge {
  let lastCount = answered();
  let lastAt = clock();
  return {
    maxDeferMs,
    busy() {
      const count = answered();
      const at = clock();
      const requests = count - lastCount;
      const seconds = (at - lastAt) / 1000;
      lastCount = count;
      lastAt = at;
      return requests >= BUSY_AT_LEAST && requests >= BUSY_PER_SECOND * seconds;
    },
  };
}

export type HousekeepingOptions = {
  /** Where uploads are stored; those no order refers to `unattachedHours` after upload are deleted. */
  storage: FileStorage;
  unattachedHours: number;
  /** Its expired windows are forgotten (the PostgreSQL store's rows). */
  rateLimiter?: RateLimiter;
  everyMs?: number;
};

/**
 * One housekeeping pass: uploads never attached (claimed with SKIP LOCKED, so instances share the
 * work), then expired rate-limit windows. Tests call it directly.
 */
export async function housekeepingPass(
  options: { db: Db; log: Log; now?: () => Date } & HousekeepingOptions,
): Promise<{ uploads: number; rateLimitWindows: number }> {
  const now = options.now ?? (() => new Date());
  const uploads = await deleteUnattachedUploads(options.db, options.storage, {
    olderThan: new Date(now().getTime() - options.unattachedHours * 3_600_000),
    log: (message, data) => options.log('warn', message, data),
  });
  if (uploads) options.log('info', 'uploads never attached to an order deleted', { count: uploads });
  const rateLimitWindows = (await options.rateLimiter?.sweep()) ?? 0;
  return { uploads, rateLimitWindows };
}

/** Most order events and mails one pass handles, so a backlog never starves the next pass. */
const PER_PASS = 50;

/** The event type (kind of registration) of an order, from its row: the label of its metrics. */
async function eventTypeOf(tx: Tx, orderId: string): Promise<string> {
  const [row] = await tx
    .select({ type: events.type })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(orders.id, orderId))
    .limit(1);
  return row?.type ?? 'unknown';
}

/**
 * One pass: order events → queued mails, the payment reminders that are due, then delivery.
 * An order placed or paid is counted in the metrics (decision 040) once its event is handled:
 * after the commit, by the one instance that claimed it, so the instances' counts add up.
 * Tests call it directly (and the steps it is made of).
 */
export async function mailPass(options: Omit<MailWorkerOptions, 'intervalMs' | 'expireEveryMs'>) {
  const now = options.now ?? (() => new Date());
  const mails = queueEventMails(options.settings, now);
  let handled = 0;
  for (let i = 0; i < PER_PASS; i++) {
    let counted: { kind: string; eventType: string } | undefined;
    const result = await processOrderEvents(
      options.db,
      async (event, tx) => {
        await mails(event, tx);
        if (event.kind === 'placed' || event.kind === 'paid')
          counted = { kind: event.kind, eventType: await eventTypeOf(tx, event.orderId) };
      },
      { now: now(), limit: 1 },
    );
    if (result.failed) options.log('warn', 'order event not turned into e-mails; retried later');
    if (!result.processed && !result.failed) break;
    if (result.processed && counted) countOrderEvent(counted.kind, counted.eventType);
    handled += result.processed;
  }
  const reminders = await queuePaymentReminders(options.db, options.settings, now());
  // Market meetings (issue 23): requests past their expiry free their slot; the day-before reminders.
  await expireMeetingRequests(options.db, now());
  // A meeting whose slot ended without a table scan is a no-show.
  await recordNoShows(options.db, now());
  await queueMeetingReminders(
    options.db,
    { from: options.settings.from, origin: options.settings.siteUrl ?? options.settings.defaultOrigin },
    now(),
  );
  const delivered = await deliverEmails(options.db, options.transport, {
    now: now(),
    limit: PER_PASS,
    onError: (mail, error) =>
      options.log('warn', 'e-mail not sent; retried later', {
        email: mail.id,
        template: mail.template,
        attempts: mail.attempts,
        error: String((error as Error)?.message ?? error),
      }),
  });
  return { events: handled, reminders, ...delivered };
}

/** Starts the worker; `stop()` ends it after the pass in progress. */
export function startMailWorker(options: MailWorkerOptions) {
  const now = options.now ?? (() => new Date());
  const expireEvery = options.expireEveryMs ?? 30_000;
  const housekeepEvery = options.housekeeping?.everyMs ?? 600_000;
  let lastExpiry = 0;
  // The first housekeeping a minute after start, not while the server warms up.
  let lastHousekeeping = Date.now() - housekeepEvery + 60_000;
  let running: Promise<void> | undefined;
  let stopped = false;

  const availability = databaseHealth(options.db)?.availability;
  const pass = async () => {
    // The database is away (decision 041): its probe says when it is back; no pass meanwhile.
    if (availability?.down()) return;
    try {
      if (Date.now() - lastExpiry >= expireEvery) {
        lastExpiry = Date.now();
        // Unpaid orders past their deadline become overdue without waiting for a visitor; their
        // "order expired" mails come from the events this writes.
        await expireOverdueOrders(options.db, now());
        // ATM virtual accounts past their deadline no longer take payments (issue 22).
        await expireVirtualAccounts(options.db, now());
      }
      if (options.invoices)
        await invoicePass({
          db: options.db,
          client: options.invoices,
          now: now(),
          mail: options.settings,
          log: (message, data) => options.log('warn', message, data),
        });
      await mailPass(options);
      if (options.housekeeping && Date.now() - lastHousekeeping >= housekeepEvery) {
        lastHousekeeping = Date.now();
        await housekeepingPass({ db: options.db, log: options.log, now, ...options.housekeeping });
      }
    } catch (error) {
      availability?.report(error);
      // The summary only: a failed query's message holds its parameters (addresses, names).
      options.log('error', 'mail worker pass failed; trying again', errorSummary(error));
    }
  };
  const load = options.load ?? requestLoad();
  let deferredSince: number | undefined;
  const tick = () => {
    if (stopped || running) return;
    if (load.busy()) {
      deferredSince ??= Date.now();
      if (Date.now() - deferredSince < load.maxDeferMs) return;
    }
    deferredSince = undefined;
    running = pass().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, options.intervalMs ?? 2000);
  // The worker never keeps the process alive on its own.
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      options.transport.close();
    },
  };
}
