/**
 * The mail outbox (decision 012), in two idempotent steps:
 *
 * 1. Queue: an order event (claimed by `processOrderEvents`, decision 011) becomes the e-mails it
 *    calls for, rendered then and inserted in the claiming transaction under a unique key
 *    (`order-event:{id}:{template}`): the event is marked handled with its mails or not at all, and
 *    the same event twice queues nothing new. Time-based reminders and free-badge links use keys
 *    of their own (`payment-reminder:{order}:{deadline}`, `badge-link:{code}`).
 * 2. Deliver: a pending mail is claimed (`FOR UPDATE SKIP LOCKED`) for a lease, sent outside any
 *    transaction, then marked sent; a failure is retried with backoff; a worker that dies mid-send
 *    leaves the mail pending, and it is sent again when the lease ends (at least once).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { linkTypeOf, type BadgeIdentity } from '@domain/badges';
import { isBadgeRegistrationType } from '@domain/kinds';
import { orderPages } from '@domain/kinds/pages';
import type { Locale } from '@i18n/locales';
import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import { withOrderOwner } from '../db/order-joins';
import { badges, emails, events, orders, receipts, registrations, users } from '../db/schema';
import { listPickupSlots } from '../badges/pickup-schedule';
import { retryDelayMs, type OrderEvent } from '../orders/order-events';
import { includedBadgeLinks } from '../badges/included-badges';
import { renderMail, type MailContent, type MailLocale } from './render';
import {
  badgeLinkMail,
  linkOn,
  orderMail,
  teamInvitationMail,
  templatesFor,
  type EventFacts,
  type MailTemplate,
  type OrderFacts,
} from './templates';
import type { MailAttachment, MailTransport } from './transport';

export type EmailRow = typeof emails.$inferSelect;

/** What queueing needs from the configuration. */
export type MailSettings = {
  /** SITE_URL: the links of every mail point there when set. */
  siteUrl?: string | undefined;
  /** Links of orders placed without a known origin: http://localhost:PORT in development. */
  defaultOrigin: string;
  /** MAIL_FROM: its domain names the Message-IDs. */
  from: string;
};

/** The mail settings of a configuration. */
export const mailSettings = (config: Pick<Config, 'SITE_URL' | 'PORT' | 'MAIL_FROM'>): MailSettings => ({
  siteUrl: config.SITE_URL?.replace(/\/$/, ''),
  defaultOrigin: `http://localhost:${config.PORT}`,
  from: config.MAIL_FROM,
});

/** How long a claimed mail is left to its worker before another may send it again. */
export const SEND_LEASE_MS = 2 * 60_000;
const DAY = 24 * 60 * 60 * 1000;

const messageIdFor = (id: string, from: string) => `<${id}@${/@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'tccf.invalid'}>`;

/** Renders and queues one mail; answers false when a mail with this key is queued already. */
export async function queueEmail(
  db: Db | Tx,
  settings: Pick<MailSettings, 'from'>,
  mail: {
    key: string;
    template: MailTemplate;
    recipient: string;
    locale: MailLocale;
    content: (l: Locale) => MailContent;
    orderId?: string | null;
    orderEventId?: number | null;
    /** Files sent with it (a calendar file), content base64. */
    attachments?: MailAttachment[] | null;
    now: Date;
  },
): Promise<boolean> {
  const id = randomUUID();
  const rendered = renderMail(mail.content, mail.locale, mail.recipient);
  const inserted = await db
    .insert(emails)
    .values({
      id,
      key: mail.key,
      orderEventId: mail.orderEventId ?? null,
      orderId: mail.orderId ?? null,
      template: mail.template,
      recipient: mail.recipient,
      locale: rendered.locale,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId: messageIdFor(id, settings.from),
      attachments: mail.attachments?.length ? mail.attachments : null,
      availableAt: mail.now,
      createdAt: mail.now,
    })
    .onConflictDoNothing()
    .returning({ id: emails.id });
  return inserted.length > 0;
}

/** The facts the order mails tell, as the order is now; undefined for an unknown order. */
export async function loadOrderFacts(
  db: Db | Tx,
  orderId: string,
): Promise<{ facts: OrderFacts; locale: MailLocale; siteOrigin: string | null } | undefined> {
  const [row] = await withOrderOwner(
    db
      .select({ order: orders, event: events, email: users.email, receipt: receipts, badge: badges })
      .from(orders)
      .$dynamic(),
  )
    .leftJoin(receipts, eq(receipts.orderId, orders.id))
    .leftJoin(badges, eq(badges.orderId, orders.id))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return undefined;
  const { order, event, receipt, badge } = row;
  const isBadge = isBadgeRegistrationType(order.registrationType);
  // The schedule of the order's edition (an order of a past edition keeps its own).
  const pickup = isBadge ? await listPickupSlots(db, event.editionId) : [];
  const form = (await formIdentity(db, order.id, isBadge)) ?? 'PROFESSIONAL';
  const pages = orderPages({ orderId: order.id, eventSlug: event.slug, registrationType: order.registrationType });
  return {
    locale: order.locale ?? null,
    siteOrigin: order.siteOrigin,
    facts: {
      orderId: order.id,
      orderNo: order.orderNo,
      email: row.email,
      item: { en: event.nameEn, 'zh-TW': event.nameZh || event.nameEn },
      location: { en: event.locationEn, 'zh-TW': event.locationZh || event.locationEn },
      eventStart: event.startTime,
      eventEnd: event.endAt,
      pages,
      isBadge,
      amountCents: order.amountCents,
      currency: order.currency,
      paymentType: order.paymentType,
      lastFiveDigits: order.lastFiveDigits,
      remitter: order.remitter,
      paymentExpiresAt: order.paymentExpiresAt,
      paidAt: order.paidAt,
      rejectedReason: order.rejectedReason,
      invoiceTitle: receipt?.invoiceTitle ?? null,
      unifiedBusinessNumber: receipt?.unifiedBusinessNumber ?? null,
      badge: badge
        ? { identity: badge.identity, nameEn: badge.nameEn, nameZh: badge.nameZh }
        : isBadge
          ? { identity: form, nameEn: '', nameZh: '' }
          : null,
      pickup: pickup.map((s) => ({
        firstDay: s.firstDay,
        lastDay: s.lastDay,
        opensAt: s.opensAt,
        closesAt: s.closesAt,
        place: { en: s.placeEn, 'zh-TW': s.placeZh || s.placeEn },
      })),
      includedLinks: (await includedBadgeLinks(db, order.id)).map((x) => ({
        seq: x.seq,
        identity: x.identity as BadgeIdentity,
        expiresAt: x.expiresAt,
        path: `/get-badge/${linkTypeOf(x.identity as BadgeIdentity)}/${x.code}`,
      })),
    },
  };
}

/** The badge identity of a badge order's form (the badge row may not exist yet). */
async function formIdentity(db: Db | Tx, orderId: string, isBadge: boolean): Promise<BadgeIdentity | undefined> {
  if (!isBadge) return undefined;
  const [row] = await db
    .select({ form: registrations.form })
    .from(registrations)
    .where(eq(registrations.orderId, orderId))
    .limit(1);
  return (row?.form as { identity?: BadgeIdentity } | undefined)?.identity;
}

export const originFor = (settings: MailSettings, siteOrigin: string | null) =>
  settings.siteUrl ?? siteOrigin ?? settings.defaultOrigin;

/**
 * The `processOrderEvents` handler: queues the mails an order event calls for, in the claiming
 * transaction (`tx`, a savepoint of it). Queued already (the event handled twice): nothing new.
 */
export function queueEventMails(settings: MailSettings, now: () => Date = () => new Date()) {
  return async (event: OrderEvent, tx: Tx): Promise<void> => {
    const loaded = await loadOrderFacts(tx, event.orderId);
    if (!loaded) return;
    const { message, reason, amountCents, partial } = (event.payload ?? {}) as {
      message?: unknown;
      reason?: unknown;
      amountCents?: unknown;
      partial?: unknown;
    };
    const facts: EventFacts = {
      kind: event.kind,
      paymentStatusBefore: event.paymentStatusBefore,
      paymentStatusAfter: event.paymentStatusAfter,
      approvalStatusAfter: event.approvalStatusAfter,
      message: typeof message === 'string' ? message : null,
      reason: typeof reason === 'string' ? reason : null,
      refund:
        event.kind === 'refunded' && typeof amountCents === 'number'
          ? { amountCents, partial: partial === true }
          : null,
    };
    const link = linkOn(originFor(settings, loaded.siteOrigin));
    for (const template of templatesFor(facts, loaded.facts)) {
      if (template === 'payment_reminder') continue;
      await queueEmail(tx, settings, {
        key: `order-event:${event.id}:${template}`,
        template,
        recipient: loaded.facts.email,
        locale: loaded.locale,
        content: orderMail(template, loaded.facts, facts, link),
        orderId: event.orderId,
        orderEventId: event.id,
        now: now(),
      });
    }
  };
}

/**
 * Payment reminders, one day before the deadline: each unpaid order (payable: no approval
 * pending) whose deadline is within 24 h gets one reminder per deadline, if it already existed a
 * day before that deadline (an order placed with less than a day to pay has just been told it).
 * Answers how many were queued.
 */
export async function queuePaymentReminders(db: Db, settings: MailSettings, now: Date): Promise<number> {
  // One key per order and deadline; the same expression finds the reminders already queued.
  const key = sql<string>`'payment-reminder:' || ${orders.id} || ':' || (extract(epoch from ${orders.paymentExpiresAt}) * 1000)::bigint`;
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: orders.id, key })
      .from(orders)
      .where(
        and(
          eq(orders.paymentStatus, 'pending'),
          gt(orders.paymentExpiresAt, now),
          lte(orders.paymentExpiresAt, new Date(now.getTime() + DAY)),
          or(isNull(orders.approvalStatus), eq(orders.approvalStatus, 'approved')),
          sql`coalesce(${orders.approvedAt}, ${orders.createdAt}) <= ${orders.paymentExpiresAt} - interval '1 day'`,
          sql`not exists (select 1 from ${emails} where ${emails.key} = ${key})`,
        ),
      )
      .for('update', { of: orders, skipLocked: true })
      .limit(100);
    let queued = 0;
    for (const order of due) {
      const loaded = await loadOrderFacts(tx, order.id);
      if (!loaded) continue;
      const ok = await queueEmail(tx, settings, {
        key: order.key,
        template: 'payment_reminder',
        recipient: loaded.facts.email,
        locale: loaded.locale,
        content: orderMail(
          'payment_reminder',
          loaded.facts,
          { paymentStatusAfter: 'pending', approvalStatusAfter: null },
          linkOn(originFor(settings, loaded.siteOrigin)),
        ),
        orderId: order.id,
        now,
      });
      if (ok) queued++;
    }
    return queued;
  });
}

/**
 * Queues the mail of a free-badge link, in both languages (nothing tells the recipient's); in the
 * links' own transaction when given one (`tx`), so a batch and its mails are written together.
 */
export function queueBadgeLinkMail(
  db: Db | Tx,
  settings: Pick<MailSettings, 'from'>,
  link: { code: string; email: string; identity: BadgeIdentity; expiresAt: Date; urls: Record<Locale, string> },
  now: Date,
): Promise<boolean> {
  return queueEmail(db, settings, {
    key: `badge-link:${link.code}`,
    template: 'badge_link',
    recipient: link.email,
    locale: null,
    content: badgeLinkMail(link),
    now,
  });
}

/**
 * Queues the invitation to the back office's team, in the inviter's language, in the team
 * change's transaction (`tx`); `key` names the invitation (its audit entry), so each is sent once.
 */
export function queueTeamInvitation(
  db: Db | Tx,
  settings: Pick<MailSettings, 'from'>,
  invitation: {
    key: string;
    email: string;
    role: string;
    invitedBy: string;
    locale: Locale;
    urls: Record<Locale, string>;
  },
  now: Date,
): Promise<boolean> {
  return queueEmail(db, settings, {
    key: `team-invitation:${invitation.key}`,
    template: 'team_invitation',
    recipient: invitation.email,
    locale: invitation.locale,
    content: teamInvitationMail(invitation),
    now,
  });
}

/**
 * Delivers up to `limit` due mails, one at a time. Each is claimed in a short transaction that
 * moves its `available_at` a lease ahead and counts the attempt; the send happens outside any
 * transaction (a slow SMTP server holds no lock and no connection); success marks it sent, a
 * failure schedules the retry (1 min, 2, 4 … 6 h). A worker that dies mid-send leaves the mail
 * pending until the lease ends.
 */
export async function deliverEmails(
  db: Db,
  transport: MailTransport,
  options: { now: Date; limit?: number; onError?: (mail: EmailRow, error: unknown) => void },
): Promise<{ sent: number; failed: number }> {
  const { now } = options;
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < (options.limit ?? 20); i++) {
    const mail = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(emails)
        .where(and(eq(emails.status, 'pending'), lte(emails.availableAt, now)))
        .orderBy(asc(emails.availableAt), asc(emails.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return undefined;
      const [claimed] = await tx
        .update(emails)
        .set({ attempts: row.attempts + 1, availableAt: new Date(now.getTime() + SEND_LEASE_MS) })
        .where(eq(emails.id, row.id))
        .returning();
      return claimed;
    });
    if (!mail) break;
    try {
      await transport.send(mail);
      await db
        .update(emails)
        .set({ status: 'sent', sentAt: now, transport: transport.kind, lastError: null })
        .where(and(eq(emails.id, mail.id), eq(emails.status, 'pending')));
      sent++;
    } catch (error) {
      await db
        .update(emails)
        .set({
          lastError: String((error as Error)?.message ?? error).slice(0, 1000),
          availableAt: new Date(now.getTime() + retryDelayMs(mail.attempts)),
        })
        .where(and(eq(emails.id, mail.id), eq(emails.status, 'pending')));
      options.onError?.(mail, error);
      failed++;
    }
  }
  return { sent, failed };
}
