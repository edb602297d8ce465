/**
 * The portal's e-mails: which ones an order event calls for, and what each says in each language.
 * The facts come from the order as it is when the mail is queued; the variant (pay now, wait for
 * approval, confirmed) from the event row's own before/after statuses, so a mail queued late still
 * tells what happened then.
 */
import type { BadgeIdentity } from '@domain/badges';
import type { ApprovalStatus, OrderEventKind, PaymentStatus } from '@domain/order-lifecycle';
import { localePath, type Locale } from '@i18n/locales';
import {
  formatDateRange as formatRange,
  formatDateTime,
  formatDayRange as formatDays,
  formatMoney,
} from '@domain/format';
import { mt, type MessageKey } from './messages';
import type { Block, MailContent } from './render';

export const MAIL_TEMPLATES = [
  'order_placed',
  'transfer_declared',
  'payment_received',
  'badge_issued',
  'approval_granted',
  'registration_rejected',
  'payment_reminder',
  'order_expired',
  'badge_link',
  'included_badges',
  'transfer_returned',
  'order_canceled',
  'team_invitation',
  'invoice_issued',
  'invoice_voided',
  'invoice_allowance',
  'refund_made',
  'atm_account',
  'meeting_requested',
  'meeting_accepted',
  'meeting_declined',
  'meeting_cancelled',
  'meeting_changed',
  'meeting_reminder',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];
/** The e-invoice mails (issue 22): queued by the invoice pass when ezPay answers, not by order events. */
export type InvoiceMailTemplate = Extract<MailTemplate, `invoice_${string}`>;
/** The templates of the order mails (the meetings', the team's and the invoices' own are apart). */
export type OrderMailTemplate = Exclude<
  MailTemplate,
  InvoiceMailTemplate | 'badge_link' | 'team_invitation' | 'atm_account' | `meeting_${string}`
>;

/** What the order mails say about an order. */
export type OrderFacts = {
  orderId: string;
  orderNo: string;
  /** The registrant's e-mail (the recipient). */
  email: string;
  item: Record<Locale, string>;
  location: Record<Locale, string>;
  eventStart: Date;
  eventEnd: Date;
  /** The order's pages (orderPages of @domain/kinds/pages), without the locale prefix. */
  pages: { summary: string; pay: string; done: string; register: string };
  isBadge: boolean;
  amountCents: number;
  currency: string;
  paymentType: string | null;
  lastFiveDigits: string | null;
  remitter: string | null;
  paymentExpiresAt: Date | null;
  paidAt: Date | null;
  rejectedReason: string | null;
  invoiceTitle: string | null;
  unifiedBusinessNumber: string | null;
  badge: { identity: BadgeIdentity; nameEn: string; nameZh: string } | null;
  pickup: { firstDay: string; lastDay: string; opensAt: string; closesAt: string; place: Record<Locale, string> }[];
  /** The one-time badge links the order includes (Market, pitching), once issued: claim paths without the locale prefix. */
  includedLinks: { seq: number; path: string; identity: BadgeIdentity; expiresAt: Date }[];
};

/** The statuses an order event moved between (its row in order_events). */
export type EventFacts = {
  kind: OrderEventKind;
  /** What the payment was before the event (a cancellation tells what happens to the money by it). */
  paymentStatusBefore?: PaymentStatus | null;
  paymentStatusAfter: PaymentStatus;
  approvalStatusAfter: ApprovalStatus | null;
  /** The organiser's message on the event (a transfer sent back), as it was then. */
  message?: string | null;
  /** The organiser's reason for a cancellation, when they gave one. */
  reason?: string | null;
  /** A refund (issue 22): the cents refunded, and whether it is less than the whole payment. */
  refund?: { amountCents: number; partial: boolean } | null;
};

/** The mails an order event calls for (none for card attempts, declines, reviews, refund bookkeeping). */
export function templatesFor(
  event: EventFacts,
  order: Pick<OrderFacts, 'isBadge'> & Partial<Pick<OrderFacts, 'includedLinks'>>,
): OrderMailTemplate[] {
  // The event that settled an order with included badges (paid; free once approved or at once) sends its links.
  const settles =
    event.kind === 'paid' ||
    (event.kind === 'approved' && event.paymentStatusAfter === 'free') ||
    (event.kind === 'placed' && event.paymentStatusAfter === 'free' && event.approvalStatusAfter === null);
  const links: OrderMailTemplate[] = settles && order.includedLinks?.length ? ['included_badges'] : [];
  return [...baseTemplatesFor(event, order), ...links];
}

function baseTemplatesFor(event: EventFacts, order: Pick<OrderFacts, 'isBadge'>): OrderMailTemplate[] {
  switch (event.kind) {
    case 'placed':
      // A free badge is issued at once: the badge mail is its confirmation.
      return order.isBadge && event.paymentStatusAfter === 'free' ? ['badge_issued'] : ['order_placed'];
    case 'transfer_declared':
      return ['transfer_declared'];
    case 'paid':
      return order.isBadge ? ['payment_received', 'badge_issued'] : ['payment_received'];
    case 'approved':
      return ['approval_granted'];
    case 'rejected':
      return ['registration_rejected'];
    case 'expired':
      return ['order_expired'];
    case 'transfer_returned':
      return ['transfer_returned'];
    case 'canceled':
      return ['order_canceled'];
    case 'refunded':
      return ['refund_made'];
    default:
      return [];
  }
}

/** An absolute link to a portal page in a language. */
export type LinkTo = (locale: Locale, path: string) => string;
export const linkOn =
  (origin: string): LinkTo =>
  (locale, path) =>
    `${origin.replace(/\/$/, '')}/${localePath(locale)}${path}`;

export const fact = (l: Locale, key: MessageKey, value: string | null | undefined) => ({ label: mt(l, key), value });
const method = (l: Locale, type: string | null) =>
  type && ['credit_card', 'atm', 'TWD', 'USD'].includes(type) ? mt(l, `pay.type.${type}` as MessageKey) : null;
const amountOf = (o: OrderFacts, l: Locale) => formatMoney(o.amountCents, o.currency === 'USD' ? 'USD' : 'TWD', l);
const deadlineOf = (o: OrderFacts) => (o.paymentExpiresAt ? formatDateTime(o.paymentExpiresAt) : '');

/** The content of an order mail in one language. `event` gives the variant of placed and approved mails. */
export function orderMail(
  template: OrderMailTemplate,
  o: OrderFacts,
  event: Pick<
    EventFacts,
    'paymentStatusBefore' | 'paymentStatusAfter' | 'approvalStatusAfter' | 'message' | 'reason' | 'refund'
  >,
  link: LinkTo,
): (l: Locale) => MailContent {
  return (l) => {
    const v = { orderNo: o.orderNo, item: o.item[l], amount: amountOf(o, l), deadline: deadlineOf(o) };
    const orderNo = fact(l, 'fact.orderNo', o.orderNo);
    const item = fact(l, 'fact.item', o.item[l]);
    const when = o.isBadge ? null : fact(l, 'fact.when', formatRange(o.eventStart, o.eventEnd));
    const where = o.isBadge ? null : fact(l, 'fact.where', o.location[l]);
    const button = (key: MessageKey, path: string): Block => ({
      type: 'button',
      label: mt(l, key),
      url: link(l, path),
    });
    const facts = (...rows: ({ label: string; value: string | null | undefined } | null)[]): Block => ({
      type: 'facts',
      rows: rows.filter((r) => r !== null),
    });
    const p = (key: MessageKey): Block => ({ type: 'p', text: mt(l, key, v) });
    const note = (key: MessageKey): Block => ({ type: 'note', text: mt(l, key, v) });
    const say = (prefix: string, blocks: Block[]): MailContent => ({
      subject: mt(l, `${prefix}.subject` as MessageKey, v),
      heading: mt(l, `${prefix}.heading` as MessageKey, v),
      blocks,
    });
    /** What the registrant declared of their transfer. */
    const transferRows = [
      fact(l, 'fact.method', method(l, o.paymentType)),
      fact(l, 'fact.remitter', o.remitter),
      fact(l, 'fact.lastFive', o.lastFiveDigits),
      fact(l, 'fact.amount', v.amount),
    ];
    const payFacts = facts(orderNo, item, fact(l, 'fact.amount', v.amount), fact(l, 'fact.deadline', v.deadline));
    /** The mails about a registration: their body, what, when and where, and the way to it. */
    const aboutRegistration = (prefix: string) =>
      say(prefix, [
        p(`${prefix}.body` as MessageKey),
        facts(orderNo, item, when, where),
        button('button.registration', o.pages.summary),
      ]);
    /** The mails asking for the payment: their body, what it costs by when, the way to pay, then `more`. */
    const askToPay = (prefix: string, ...more: Block[]) =>
      say(prefix, [p(`${prefix}.body` as MessageKey), payFacts, button('button.pay', o.pages.pay), ...more]);

    switch (template) {
      case 'order_placed':
        if (event.approvalStatusAfter === 'pending_approval') return aboutRegistration('placed.approval');
        if (event.paymentStatusAfter === 'pending') return askToPay('placed.pay', note('placed.pay.lapse'));
        return aboutRegistration('placed.confirmed');
      case 'transfer_declared':
        return say('transfer', [
          p('transfer.body'),
          facts(orderNo, item, ...transferRows),
          note('transfer.correct'),
          button('button.order', o.pages.summary),
        ]);
      case 'payment_received':
        return say('paid', [
          p('paid.body'),
          facts(
            orderNo,
            item,
            fact(l, 'fact.amount', v.amount),
            fact(l, 'fact.method', method(l, o.paymentType)),
            fact(l, 'fact.paidAt', o.paidAt ? formatDateTime(o.paidAt) : null),
            fact(l, 'fact.invoiceTitle', o.invoiceTitle),
            fact(l, 'fact.ubn', o.unifiedBusinessNumber),
          ),
          button('button.order', o.pages.summary),
        ]);
      case 'badge_issued': {
        const identity = o.badge ? mt(l, `identity.${o.badge.identity}` as MessageKey) : '';
        const name = o.badge ? (l === 'zh-TW' && o.badge.nameZh ? o.badge.nameZh : o.badge.nameEn) : null;
        const blocks: Block[] = [
          { type: 'p', text: mt(l, 'badge.body', { identity }) },
          facts(orderNo, fact(l, 'fact.badgeType', identity), fact(l, 'fact.badgeName', name)),
          button('button.badge', o.pages.done),
        ];
        if (o.pickup.length)
          blocks.push({
            type: 'list',
            heading: mt(l, 'badge.pickup'),
            items: o.pickup.map((s) =>
              mt(l, 'badge.slot', {
                days: formatDays(s.firstDay, s.lastDay, l),
                hours: `${s.opensAt}–${s.closesAt}`,
                place: s.place[l],
              }),
            ),
          });
        return say('badge', blocks);
      }
      case 'approval_granted':
        if (event.paymentStatusAfter === 'pending') return askToPay('approved.pay');
        return aboutRegistration('approved.confirmed');
      case 'registration_rejected':
        return say('rejected', [
          p('rejected.body'),
          facts(orderNo, item, fact(l, 'fact.reason', o.rejectedReason)),
          button('button.registration', o.pages.summary),
        ]);
      case 'payment_reminder':
        return askToPay('reminder', note('reminder.transfer'));
      case 'included_badges': {
        const identity = o.includedLinks[0] ? mt(l, `identity.${o.includedLinks[0].identity}` as MessageKey) : '';
        const until = o.includedLinks[0] ? formatDateTime(o.includedLinks[0].expiresAt) : '';
        return {
          subject: mt(l, 'included.subject', { ...v, count: o.includedLinks.length }),
          heading: mt(l, 'included.heading', { count: o.includedLinks.length }),
          blocks: [
            { type: 'p', text: mt(l, 'included.body', { ...v, identity, count: o.includedLinks.length }) },
            {
              type: 'links',
              heading: mt(l, 'included.linksHeading'),
              items: o.includedLinks.map((x) => ({
                label: mt(l, 'included.link', { n: x.seq }),
                url: link(l, x.path),
              })),
            },
            facts(orderNo, item, fact(l, 'fact.badgeType', identity), fact(l, 'fact.validUntil', until)),
            note('included.once'),
            button('button.registration', o.pages.summary),
          ],
        };
      }
      case 'transfer_returned':
        // The organiser's own words, in the language they wrote them, then what to do and by when.
        return say('returned', [
          p('returned.body'),
          { type: 'p', text: event.message ?? '' },
          facts(orderNo, item, ...transferRows, fact(l, 'fact.deadline', v.deadline)),
          p('returned.pay'),
          button('button.payAgain', o.pages.pay),
        ]);
      case 'order_canceled': {
        // What happens to the money, by what the order was when the organiser canceled it.
        const before = event.paymentStatusBefore;
        const money: MessageKey =
          before === 'paid'
            ? o.paymentType === 'credit_card'
              ? 'canceled.money.refundCard'
              : 'canceled.money.refundTransfer'
            : before === 'checking'
              ? 'canceled.money.checking'
              : before === 'free' || o.amountCents === 0
                ? 'canceled.money.free'
                : 'canceled.money.unpaid';
        return say('canceled', [
          p('canceled.body'),
          facts(
            orderNo,
            item,
            fact(l, 'fact.reason', event.reason?.trim() || null),
            o.amountCents > 0 ? fact(l, 'fact.amount', v.amount) : null,
            o.amountCents > 0 ? fact(l, 'fact.method', method(l, o.paymentType)) : null,
          ),
          p(money),
          button('button.order', o.pages.summary),
        ]);
      }
      case 'refund_made': {
        // The money that went back, where it went, and (a partial refund) what it was part of.
        const cents = event.refund?.amountCents ?? o.amountCents;
        const refunded = formatMoney(cents, o.currency === 'USD' ? 'USD' : 'TWD', l);
        const w = { ...v, refunded };
        return {
          subject: mt(l, 'refund.subject', w),
          heading: mt(l, 'refund.heading', w),
          blocks: [
            {
              type: 'p',
              text: mt(l, o.paymentType === 'credit_card' ? 'refund.body.card' : 'refund.body.transfer', w),
            },
            facts(
              orderNo,
              item,
              fact(l, 'fact.refunded', refunded),
              fact(l, 'fact.paid', v.amount),
              fact(l, 'fact.method', method(l, o.paymentType)),
            ),
            ...(event.refund?.partial ? [{ type: 'note', text: mt(l, 'refund.partial', w) } as Block] : []),
            button('button.order', o.pages.summary),
          ],
        };
      }
      case 'order_expired':
        return say('expired', [
          p('expired.body'),
          facts(orderNo, item, fact(l, 'fact.deadline', v.deadline)),
          button('button.registerAgain', o.pages.register),
        ]);
    }
  };
}

/** An ATM virtual account handed out for an order (issue 22): where to transfer, how much, by when. */
export function atmAccountMail(
  o: OrderFacts,
  account: { bankCode: string; accountNo: string; expiresAt: Date },
  link: LinkTo,
): (l: Locale) => MailContent {
  return (l) => {
    const v = { orderNo: o.orderNo, item: o.item[l], amount: amountOf(o, l) };
    return {
      subject: mt(l, 'atm.subject', v),
      heading: mt(l, 'atm.heading', v),
      blocks: [
        { type: 'p', text: mt(l, 'atm.body', v) },
        {
          type: 'facts',
          rows: [
            fact(l, 'fact.orderNo', o.orderNo),
            fact(l, 'fact.bankCode', account.bankCode),
            fact(l, 'fact.account', account.accountNo),
            fact(l, 'fact.amount', v.amount),
            fact(l, 'fact.deadline', formatDateTime(account.expiresAt)),
          ],
        },
        { type: 'note', text: mt(l, 'atm.note', v) },
        { type: 'button', label: mt(l, 'button.order'), url: link(l, o.pages.summary) },
      ],
    };
  };
}

/** The free-badge link mail: the link in each language, for the e-mail it is issued to. */
export function badgeLinkMail(input: {
  email: string;
  identity: BadgeIdentity;
  expiresAt: Date;
  urls: Record<Locale, string>;
}): (l: Locale) => MailContent {
  return (l) => {
    const identity = mt(l, `identity.${input.identity}` as MessageKey);
    return {
      subject: mt(l, 'link.subject', { identity }),
      heading: mt(l, 'link.heading'),
      blocks: [
        { type: 'p', text: mt(l, 'link.body', { identity, email: input.email }) },
        { type: 'button', label: mt(l, 'button.getBadge'), url: input.urls[l] },
        {
          type: 'facts',
          rows: [fact(l, 'fact.badgeType', identity), fact(l, 'fact.validUntil', formatDateTime(input.expiresAt))],
        },
        { type: 'note', text: mt(l, 'link.once') },
      ],
    };
  };
}

/**
 * The invitation to the back office's team (issue 21): who invited, with which role, and where to
 * sign in (the back office; the role applies from the first sign-in with this e-mail).
 */
export function teamInvitationMail(input: {
  email: string;
  role: string;
  invitedBy: string;
  urls: Record<Locale, string>;
}): (l: Locale) => MailContent {
  return (l) => {
    const role = mt(l, `admin.role.${input.role}` as MessageKey);
    return {
      subject: mt(l, 'team.subject', { role }),
      heading: mt(l, 'team.heading'),
      blocks: [
        { type: 'p', text: mt(l, 'team.body', { role, invitedBy: input.invitedBy }) },
        { type: 'button', label: mt(l, 'button.backOffice'), url: input.urls[l] },
        {
          type: 'facts',
          rows: [
            fact(l, 'fact.role', role),
            fact(l, 'fact.roleDoes', mt(l, `admin.roleHint.${input.role}` as MessageKey)),
            fact(l, 'fact.signInWith', input.email),
          ],
        },
        { type: 'note', text: mt(l, 'team.note') },
      ],
    };
  };
}
