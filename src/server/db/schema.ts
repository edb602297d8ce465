import { sql } from 'drizzle-orm';
import { BADGE_IDENTITIES } from '@domain/badges';
import { EVENT_ACTIONS, EVENT_STATUSES, type EventAddress } from '@domain/event-catalogue';
import { CURRENCIES } from '@domain/money';
import {
  ACTORS,
  APPROVAL_STATUSES,
  LIVE_STATUSES,
  ORDER_EVENT_KINDS,
  PAYMENT_RECORD_STATUSES,
  PAYMENT_STATUSES,
} from '@domain/order-lifecycle';
import { PAYMENT_TYPES } from '@domain/payments';
import { LINE_OUTCOMES } from '@domain/reconciliation';
import { BADGE_REGISTRATION_TYPES, MULTI_ENTRY_REGISTRATION_TYPES } from '@domain/kinds';
import { EVENT_TYPES, REGISTRATION_TYPES } from '@domain/kinds/types';
import { LOCALES } from '@i18n/locales';
import { ROLES } from '@domain/roles';
import { ACTIVE_MEETING_STATUSES, MEETING_ATTENDANCES, MEETING_STATUSES } from '@domain/meetings';
import {
  CARRIER_TYPES,
  INVOICE_STATUSES,
  type CarrierType,
  type InvoiceKind,
  type InvoiceStatus,
} from '@domain/invoices';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/*
 * One schema for the whole roadmap (DESIGN §5). Enumerations are text columns with CHECK
 * constraints rather than pg enums: widening a CHECK is one migration, and the values stay
 * readable in dumps. Rules that must hold under concurrency are constraints here (DESIGN D12).
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const created = () => ts('created_at').notNull().defaultNow();
const updated = () => ts('updated_at').notNull().defaultNow();

export { APPROVAL_STATUSES, BADGE_IDENTITIES, EVENT_TYPES, PAYMENT_STATUSES, PAYMENT_TYPES, REGISTRATION_TYPES };

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
const inList = (column: string, values: readonly string[]) => sql.raw(`${column} in (${quoted(values)})`);
/** "The order counts" (domain LIVE_STATUSES), for the partial unique indexes. */
/**
 * An edition column as a key of the one-badge indexes (decision 068): badges of events without an
 * edition (rows older than editions) share one bucket instead of escaping the rule as NULLs would.
 */
export const NO_EDITION_KEY = '00000000-0000-0000-0000-000000000000';
const editionKey = (column: 'badge_edition_id' | 'edition_id') =>
  sql.raw(`coalesce(${column}, '${NO_EDITION_KEY}'::uuid)`);
const live = sql.raw(`payment_status in (${quoted(LIVE_STATUSES)})`);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The identity service's subject claim. */
    subject: text('subject').notNull().unique(),
    email: text('email').notNull(),
    name: text('name'),
    /**
     * Unused since migration 0010: the organiser role belongs to an e-mail (`organisers`,
     * ORGANISER_EMAILS). Kept until no running instance reads it (migrations widen, then narrow).
     */
    role: text('role').notNull().default('registrant'),
    /**
     * Bumped by triggers whenever something the user's pages show changes (their orders, payments,
     * receipts, registrations, works; their name or e-mail): the key of the rendered-page cache
     * (decision 032). Never written by application code.
     */
    dataVersion: bigint('data_version', { mode: 'number' }).notNull().default(0),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('users_email_idx').on(sql`lower(${t.email})`),
    check('users_role_check', inList('role', ['registrant', 'organiser'])),
  ],
);

/**
 * The organisers granted by `npm run organisers -- add <email>` (the back office, issue 11),
 * besides those of ORGANISER_EMAILS: the role belongs to the e-mail, so it can be granted before
 * the person first signs in, and it is read on every back-office request.
 */
export const organisers = pgTable(
  'organisers',
  {
    /** Lower-cased e-mail. */
    email: text('email').primaryKey(),
    /** Who granted it (the operator's name, or an organiser's e-mail). */
    grantedBy: text('granted_by').notNull(),
    /** The team member's role (issue 21, `@domain/roles`); ORGANISER_EMAILS are admins. */
    role: text('role', { enum: ROLES }).notNull().default('admin'),
    createdAt: created(),
  },
  (t) => [
    check('organisers_email_check', sql`${t.email} = lower(${t.email}) and ${t.email} like '%_@_%'`),
    check('organisers_role_check', inList('role', ROLES)),
  ],
);

/**
 * The back office's audit trail (issue 21): who did what, when, to whom — team changes today;
 * other capabilities write theirs through the one helper (src/server/audit). Order actions keep
 * their own trail (`order_events`), event changes theirs (`event_changes`).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    /** Who did it: the team member's e-mail, or the operator's name (`npm run organisers`). */
    actor: text('actor').notNull(),
    /** What was done, `<capability>.<verb>` (e.g. `team.invited`). */
    action: text('action').notNull(),
    /** What it was done to (an e-mail, an id…). */
    subject: text('subject').notNull(),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('audit_log_action_idx').on(t.action, t.id), index('audit_log_subject_idx').on(t.subject, t.id)],
);

/**
 * An edition of the fair (issue 21, e.g. "TCCF 2027"): it groups its events and the edition's
 * settings; one is current (the public pages show it). Its settings live in their own columns
 * and tables keyed by the edition (pick-up schedule, invoices, meetings…).
 */
export const editions = pgTable(
  'editions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Never reused (e.g. `tccf-2027`). */
    slug: text('slug').notNull().unique(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull(),
    /** The edition the public pages show: exactly one at most (partial unique index). */
    isCurrent: boolean('is_current').notNull().default(false),
    timeZone: text('time_zone').notNull().default('Asia/Taipei'),
    /** The venue map link of the badge page (decision 049); null: VENUE_MAP_URL. */
    venueMapUrl: text('venue_map_url'),
    /** The badge-rights image of the badge page (an `edition_image` upload); null: the portal's default. */
    badgeRightsFileId: uuid('badge_rights_file_id').references((): AnyPgColumn => files.id, {
      onDelete: 'set null',
    }),
    /** Where registrants write to; null: none shown. */
    contactEmail: text('contact_email'),
    /** Transfer instructions of the pay page (decision 049); each null: its BANK_* default. */
    bankName: text('bank_name'),
    bankNameZh: text('bank_name_zh'),
    bankCode: text('bank_code'),
    bankAccountName: text('bank_account_name'),
    bankAccountNameZh: text('bank_account_name_zh'),
    bankAccountNumber: text('bank_account_number'),
    bankSwiftCode: text('bank_swift_code'),
    /** ATM transfers through NewebPay virtual accounts (VACC, issue 22); null: ATM_VIRTUAL_ACCOUNTS decides. */
    atmEnabled: boolean('atm_enabled'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('editions_one_current_idx')
      .on(t.isCurrent)
      .where(sql`${t.isCurrent}`),
  ],
);

/**
 * The history of an edition's settings (decision 049): one row per save, with who saved it and
 * each changed field's value before and after (as `event_changes`), and the edition's creation.
 */
export const editionChanges = pgTable(
  'edition_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    /** The organiser's e-mail. */
    changedBy: text('changed_by').notNull(),
    /** `created`, `updated`, `made_current`, `schedule_replaced`. */
    action: text('action').notNull().default('updated'),
    changes: jsonb('changes').notNull(),
    createdAt: created(),
  },
  (t) => [index('edition_changes_edition_idx').on(t.editionId, t.id)],
);

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    /** The edition the event belongs to (issue 21); null only for rows older than editions. */
    editionId: uuid('edition_id').references(() => editions.id),
    type: text('type', { enum: EVENT_TYPES }).notNull(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull(),
    descriptionEn: text('description_en').notNull().default(''),
    descriptionZh: text('description_zh').notNull().default(''),
    locationEn: text('location_en').notNull().default(''),
    locationZh: text('location_zh').notNull().default(''),
    startTime: ts('start_time').notNull(),
    endAt: ts('end_at').notNull(),
    registerStartAt: ts('register_start_at').notNull(),
    registerEndAt: ts('register_end_at').notNull(),
    formModifyExpiresAt: ts('form_modify_expires_at'),
    priceCentsTwd: integer('price_cents_twd').notNull().default(0),
    priceCentsUsd: integer('price_cents_usd').notNull().default(0),
    /** List price shown struck through next to a promotional price (Market online). */
    originalPriceCentsTwd: integer('original_price_cents_twd'),
    /** Seats; null = unlimited. `seatsTaken` is changed only by guarded updates. */
    capacity: integer('capacity'),
    seatsTaken: integer('seats_taken').notNull().default(0),
    requiresApproval: boolean('requires_approval').notNull().default(false),
    /**
     * Registration types the event offers beyond its kind's default (Market: MARKET_DOMESTIC and
     * MARKET_INTERNATIONAL for physical participation types 3 and 4); null: the default only.
     */
    offeredRegistrationTypes: text('offered_registration_types').array(),
    /** Free badges each paid (or approved free) order includes, as one-time links; null: the kind's default. */
    includedBadges: integer('included_badges'),
    /** Draft (back office only), published, or archived (out of the public lists); decision 054. */
    status: text('status', { enum: EVENT_STATUSES }).notNull().default('published'),
    /** The venue's postal address in each language; null: the edition's venue (events held in person). */
    addressEn: jsonb('address_en').$type<EventAddress>(),
    addressZh: jsonb('address_zh').$type<EventAddress>(),
    /** The live stream of an online event; null: its live page says "Coming soon...". */
    liveStreamUrl: text('live_stream_url'),
    /** The event's image (an `event_image` upload), served resized; null: the seed's or the conference's. */
    imageFileId: uuid('image_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('events_type_check', inList('type', EVENT_TYPES)),
    check('events_status_check', inList('status', EVENT_STATUSES)),
    check(
      'events_seats_check',
      sql`${t.seatsTaken} >= 0 and (${t.capacity} is null or ${t.seatsTaken} <= ${t.capacity})`,
    ),
    check('events_window_check', sql`${t.registerStartAt} <= ${t.registerEndAt} and ${t.startTime} <= ${t.endAt}`),
  ],
);

/**
 * The back office's changes to an event's settings (capacity, registration window, form deadline,
 * prices): one row per save, with who saved it and each changed field's value before and after
 * (`{"capacity": {"before": 200, "after": 150}}`; dates as ISO strings, prices in cents).
 */
export const eventChanges = pgTable(
  'event_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The organiser's e-mail. */
    changedBy: text('changed_by').notNull(),
    /** What happened: fields changed (`updated`), or the event created, duplicated, published… */
    action: text('action', { enum: EVENT_ACTIONS }).notNull().default('updated'),
    changes: jsonb('changes').notNull(),
    createdAt: created(),
  },
  (t) => [
    index('event_changes_event_idx').on(t.eventId, t.id),
    check('event_changes_action_check', inList('action', EVENT_ACTIONS)),
  ],
);

export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    purpose: text('purpose').notNull(),
    createdAt: created(),
  },
  // By owner and time: the daily upload quota; by time: the sweep of files never attached.
  (t) => [index('files_owner_idx').on(t.ownerId, t.createdAt), index('files_created_idx').on(t.createdAt)],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Human-facing and gateway-facing number (MerchantOrderNo: [A-Za-z0-9_], ≤ 30). */
    orderNo: text('order_no').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    registrationType: text('registration_type', { enum: REGISTRATION_TYPES }).notNull(),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull(),
    approvalStatus: text('approval_status', { enum: APPROVAL_STATUSES }),
    paymentExpiresAt: ts('payment_expires_at'),
    /** The currency being paid in (TWD unless a USD transfer was declared) and the amount due in it. */
    currency: text('currency').$type<(typeof CURRENCIES)[number]>().notNull().default('TWD'),
    /** Items charged: 1 for a badge or event, the number of works for pitching. */
    quantity: integer('quantity').notNull().default(1),
    amountCents: integer('amount_cents').notNull().default(0),
    /** Prices fixed when the order was placed (domain pricing); never re-read from the event. */
    unitPriceTwdCents: integer('unit_price_twd_cents').notNull().default(0),
    unitPriceUsdCents: integer('unit_price_usd_cents'),
    totalTwdCents: integer('total_twd_cents').notNull().default(0),
    /** Null: the order cannot be paid in USD. */
    totalUsdCents: integer('total_usd_cents'),
    /** How the registrant chose to pay (pay page), and the transfer they declared. */
    paymentType: text('payment_type', { enum: PAYMENT_TYPES }),
    remitter: text('remitter'),
    senderBank: text('sender_bank'),
    lastFiveDigits: text('last_five_digits'),
    /**
     * The organiser's message when a declared transfer was sent back (return_transfer, decision
     * 025): shown to the registrant while the order is unpaid again; the declared details stay.
     */
    transferReturnedMessage: text('transfer_returned_message'),
    /** Card attempts so far: each gets its own MerchantOrderNo (`{orderNo}_{n}`), as the gateway requires. */
    cardAttempts: integer('card_attempts').notNull().default(0),
    approvedAt: ts('approved_at'),
    rejectedReason: text('rejected_reason'),
    /** Whether this order holds one of the event's seats (released when overdue or canceled). */
    holdsSeat: boolean('holds_seat').notNull().default(false),
    /** Lower-cased applicant e-mail on badge orders: one live badge order per e-mail and edition. */
    badgeEmailKey: text('badge_email_key'),
    /**
     * Badge orders: their event's edition, set when placed (decision 068): the one-badge rule is
     * per edition, and the unique indexes below need it in the row. Null on other orders, and on
     * badge orders of an event without an edition (those share one bucket: see `editionKey`).
     */
    badgeEditionId: uuid('badge_edition_id').references(() => editions.id),
    paidAt: ts('paid_at'),
    /** The language the registrant placed the order in (its e-mails); null: unknown, both languages. */
    locale: text('locale', { enum: LOCALES }),
    /** The portal origin the order was placed on (links in e-mails when SITE_URL is unset). */
    siteOrigin: text('site_origin'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_event_idx').on(t.eventId),
    // One live registration per user and event; overdue and canceled orders do not count.
    // (Pitching takes several entries per user and event: its limits are per work, below.)
    uniqueIndex('orders_user_event_live_idx')
      .on(t.userId, t.eventId)
      .where(sql`${live} and ${sql.raw(`registration_type not in (${quoted(MULTI_ENTRY_REGISTRATION_TYPES)})`)}`),
    // One e-mail, one badge (spec §1) per edition (decision 068): a live badge order per user and
    // per e-mail in each edition, whatever the badge event; concurrent applications race on these
    // indexes, not on application code.
    uniqueIndex('orders_one_badge_per_user_idx')
      .on(editionKey('badge_edition_id'), t.userId)
      .where(sql`${inList('registration_type', BADGE_REGISTRATION_TYPES)} and ${live}`),
    uniqueIndex('orders_one_badge_per_email_idx')
      .on(editionKey('badge_edition_id'), t.badgeEmailKey)
      .where(sql`${t.badgeEmailKey} is not null and ${live}`),
    check('orders_registration_type_check', inList('registration_type', REGISTRATION_TYPES)),
    check('orders_payment_status_check', inList('payment_status', PAYMENT_STATUSES)),
    check(
      'orders_approval_status_check',
      sql`approval_status is null or ${inList('approval_status', APPROVAL_STATUSES)}`,
    ),
    check('orders_currency_check', inList('currency', CURRENCIES)),
    check('orders_amount_check', sql`${t.amountCents} >= 0`),
    check(
      'orders_prices_check',
      sql`${t.unitPriceTwdCents} >= 0 and ${t.totalTwdCents} >= 0 and coalesce(${t.totalUsdCents}, 0) >= 0`,
    ),
    check('orders_payment_type_check', sql`payment_type is null or ${inList('payment_type', PAYMENT_TYPES)}`),
    check('orders_last_five_check', sql`${t.lastFiveDigits} is null or ${t.lastFiveDigits} ~ '^[0-9]{5}$'`),
    check('orders_locale_check', sql`locale is null or ${inList('locale', LOCALES)}`),
  ],
);

/**
 * The money side of an order, one row per card attempt or confirmed payment, each with its own
 * status: started → declined | paid; a charge that cannot settle its order (already paid, since
 * closed) is recorded as refund_due until the organiser marks it refunded.
 */
export const orderPayments = pgTable(
  'order_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    method: text('method', { enum: PAYMENT_TYPES }).notNull(),
    /** Card attempts: the attempt number and the gateway's MerchantOrderNo (`{orderNo}_{attempt}`). */
    attempt: integer('attempt'),
    merchantOrderNo: text('merchant_order_no').unique(),
    currency: text('currency').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: PAYMENT_RECORD_STATUSES }).notNull(),
    gatewayTradeNo: text('gateway_trade_no'),
    gatewayStatus: text('gateway_status'),
    gatewayMessage: text('gateway_message'),
    gatewayAt: ts('gateway_at'),
    /** Why money is owed back (refund_due): duplicate_charge, order_superseded, order_canceled… */
    refundReason: text('refund_reason'),
    paidAt: ts('paid_at'),
    refundedAt: ts('refunded_at'),
    /** The refund's reference in the gateway's merchant console or the bank (recorded with `refunded`). */
    refundReference: text('refund_reference'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('order_payments_order_idx').on(t.orderId, t.createdAt),
    index('order_payments_refund_due_idx')
      .on(t.status)
      .where(sql`status = 'refund_due'`),
    check('order_payments_method_check', inList('method', PAYMENT_TYPES)),
    check('order_payments_status_check', inList('status', PAYMENT_RECORD_STATUSES)),
    check('order_payments_currency_check', inList('currency', CURRENCIES)),
    check('order_payments_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/**
 * Every refund call for a payment and its answer (issue 22, decision 056): the gateway's card
 * cancel-authorisation or refund (`cancel` / `refund`), or a refund done outside the portal and
 * recorded with its reference (`manual`). `pending` while the gateway is being asked (one at a
 * time per payment: partial unique index); `succeeded` rows are the money that went back.
 */
export const REFUND_KINDS = ['cancel', 'refund', 'manual'] as const;
export const REFUND_OUTCOMES = ['pending', 'succeeded', 'refused', 'failed'] as const;
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => orderPayments.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: REFUND_KINDS }).notNull(),
    outcome: text('outcome', { enum: REFUND_OUTCOMES }).notNull(),
    reason: text('reason'),
    /** The refund's reference (manual refunds). */
    reference: text('reference'),
    actor: text('actor', { enum: ACTORS }).notNull(),
    actorId: text('actor_id'),
    gatewayStatus: text('gateway_status'),
    gatewayMessage: text('gateway_message'),
    gatewayTradeNo: text('gateway_trade_no'),
    createdAt: created(),
    answeredAt: ts('answered_at'),
  },
  (t) => [
    index('payment_refunds_payment_idx').on(t.paymentId, t.createdAt),
    index('payment_refunds_order_idx').on(t.orderId, t.createdAt),
    uniqueIndex('payment_refunds_one_pending_idx')
      .on(t.paymentId)
      .where(sql`outcome = 'pending'`),
    check('payment_refunds_kind_check', inList('kind', REFUND_KINDS)),
    check('payment_refunds_outcome_check', inList('outcome', REFUND_OUTCOMES)),
    check('payment_refunds_actor_check', inList('actor', ACTORS)),
    check('payment_refunds_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/**
 * ATM virtual accounts (NewebPay MPG VACC, issue 22): the account the gateway handed out for one
 * MPG trade of an order (`{orderNo}_{attempt}`), its bank code, number and deadline; paid when
 * the gateway's notification says so, expired after the deadline.
 */
export const VIRTUAL_ACCOUNT_STATUSES = ['issued', 'paid', 'expired'] as const;
export const virtualAccounts = pgTable(
  'virtual_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    merchantOrderNo: text('merchant_order_no').notNull().unique(),
    amountCents: integer('amount_cents').notNull(),
    bankCode: text('bank_code'),
    accountNo: text('account_no'),
    expiresAt: ts('expires_at'),
    gatewayTradeNo: text('gateway_trade_no'),
    status: text('status', { enum: VIRTUAL_ACCOUNT_STATUSES }).notNull().default('issued'),
    paidAt: ts('paid_at'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('virtual_accounts_order_idx').on(t.orderId, t.createdAt),
    check('virtual_accounts_status_check', inList('status', VIRTUAL_ACCOUNT_STATUSES)),
  ],
);

/**
 * Every transition of every order (domain ORDER_EVENT_KINDS): the audit trail, and the outbox
 * that e-mails and the back office read. A worker claims unprocessed rows with
 * `FOR UPDATE SKIP LOCKED` and sets `processed_at`.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ORDER_EVENT_KINDS }).notNull(),
    actor: text('actor', { enum: ACTORS }).notNull(),
    /** The user, or the operator's name, behind the actor (null for the gateway and the system). */
    actorId: text('actor_id'),
    paymentStatusBefore: text('payment_status_before', { enum: PAYMENT_STATUSES }),
    paymentStatusAfter: text('payment_status_after', { enum: PAYMENT_STATUSES }).notNull(),
    approvalStatusBefore: text('approval_status_before', { enum: APPROVAL_STATUSES }),
    approvalStatusAfter: text('approval_status_after', { enum: APPROVAL_STATUSES }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: created(),
    processedAt: ts('processed_at'),
    /** Outbox delivery: failed tries so far, the last error, and when to try again. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    availableAt: ts('available_at').notNull().defaultNow(),
  },
  (t) => [
    index('order_events_order_idx').on(t.orderId, t.id),
    index('order_events_unprocessed_idx')
      .on(t.availableAt, t.id)
      .where(sql`processed_at is null`),
    check('order_events_kind_check', inList('kind', ORDER_EVENT_KINDS)),
    check('order_events_actor_check', inList('actor', ACTORS)),
  ],
);

/**
 * Gateway callbacks: the audit trail for reconciliation. A verified post (its TradeSha matched) is
 * kept whole; one that failed verification is kept as a bounded excerpt with its size and reason,
 * and only up to a rate per client address (RATE_LIMIT_PAYMENT_REJECTS): anyone can post there.
 */
export const paymentNotifications = pgTable('payment_notifications', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
  source: text('source').notNull(),
  accepted: boolean('accepted').notNull(),
  reason: text('reason'),
  payload: jsonb('payload').notNull(),
  /** Whether the post's TradeSha verified (false: payload is a truncated excerpt). */
  verified: boolean('verified').notNull().default(false),
  /** Bytes of the posted protocol fields, as received. */
  size: integer('size'),
  /** Who posted it (the gateway's server, the paying browser, or whoever forged it). */
  clientAddress: text('client_address'),
  createdAt: created(),
});

/**
 * Rate-limit counters when they are kept in PostgreSQL (decision 021): one row per key and fixed
 * window, incremented by one atomic upsert, so every instance counts together. Rows past
 * `expires_at` are deleted by the background worker.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    hits: integer('hits').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_expires_idx').on(t.expiresAt)],
);

export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** personal = two-part (二聯式), company = three-part (三聯式). */
    kind: text('kind').$type<'personal' | 'company'>().notNull().default('personal'),
    invoiceTitle: text('invoice_title'),
    unifiedBusinessNumber: text('unified_business_number'),
    /** Where the e-invoice goes (issue 22): ezPay member carrier (the e-mail), mobile barcode, citizen certificate, donated, none (company). */
    carrierType: text('carrier_type').$type<CarrierType>().notNull().default('ezpay'),
    carrierNumber: text('carrier_number'),
    loveCode: text('love_code'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('receipts_kind_check', inList('kind', ['personal', 'company'])),
    check('receipts_carrier_type_check', inList('carrier_type', CARRIER_TYPES)),
    check('receipts_ubn_check', sql`${t.unifiedBusinessNumber} is null or ${t.unifiedBusinessNumber} ~ '^[0-9]{8}$'`),
  ],
);

/** The badge ("demonstration" on the wire). One per user and one per e-mail in each edition (decision 068). */
export const badges = pgTable(
  'badges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    emailKey: text('email_key').notNull(),
    /** Its order's `badge_edition_id`: the edition of the badge event (null: an event without one). */
    editionId: uuid('edition_id').references(() => editions.id),
    orderId: uuid('order_id')
      .notNull()
      .unique()
      .references(() => orders.id),
    identity: text('identity', { enum: BADGE_IDENTITIES }).notNull(),
    nameZh: text('name_zh').notNull().default(''),
    nameEn: text('name_en').notNull(),
    companyNameZh: text('company_name_zh').notNull().default(''),
    companyNameEn: text('company_name_en').notNull().default(''),
    personalPhotoFileId: uuid('personal_photo_file_id').references(() => files.id),
    pickupCode: text('pickup_code').notNull().unique(),
    pickedUpAt: ts('picked_up_at'),
    /** The organiser (e-mail) and the desk that handed the badge out (badge desk, issue 11). */
    pickedUpBy: text('picked_up_by'),
    pickedUpDesk: text('picked_up_desk'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('badges_edition_user_idx').on(editionKey('edition_id'), t.userId),
    uniqueIndex('badges_edition_email_idx').on(editionKey('edition_id'), t.emailKey),
    check('badges_identity_check', inList('identity', BADGE_IDENTITIES)),
  ],
);

/**
 * A batch of one-time free-badge links an organiser made in one go (the back office, or
 * `npm run badge-link`): `size` links of one identity, either anonymous or one per e-mail address
 * (each bound to its address and e-mailed to it), with one expiry, and who made them.
 */
export const badgeLinkBatches = pgTable(
  'badge_link_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identity: text('identity', { enum: BADGE_IDENTITIES }).notNull(),
    size: integer('size').notNull(),
    /** Whether the links are bound to (and were e-mailed to) addresses. */
    emailed: boolean('emailed').notNull().default(false),
    /** The organiser's note (who the links are for), shown with the batch. */
    note: text('note').notNull().default(''),
    expiresAt: ts('expires_at').notNull(),
    /** The organiser's e-mail (back office), or the operator's name (command). */
    createdBy: text('created_by').notNull(),
    createdAt: created(),
  },
  (t) => [
    index('badge_link_batches_created_idx').on(t.createdAt),
    check('badge_link_batches_identity_check', inList('identity', BADGE_IDENTITIES)),
    check('badge_link_batches_size_check', sql`${t.size} > 0`),
  ],
);

export const BADGE_PICKUP_OUTCOMES = ['picked_up', 'already_picked_up', 'refused'] as const;

/**
 * Every pick-up a badge desk sent (issue 11), the audit record of the desk: its id is made by the
 * desk, so a pick-up queued offline and sent again is recorded once. `already_picked_up` is a
 * conflict (another desk came first; the badge keeps the first pick-up), `refused` an order that
 * was not issued.
 */
export const badgePickups = pgTable(
  'badge_pickups',
  {
    id: uuid('id').primaryKey(),
    badgeId: uuid('badge_id')
      .notNull()
      .references(() => badges.id, { onDelete: 'cascade' }),
    outcome: text('outcome', { enum: BADGE_PICKUP_OUTCOMES }).notNull(),
    /** Why a refused pick-up was refused (domain DeskRefusal). */
    refusal: text('refusal'),
    organiser: text('organiser').notNull(),
    desk: text('desk').notNull(),
    /** When the desk handed the badge out (its clock; offline pick-ups reach the server later). */
    pickedUpAt: ts('picked_up_at').notNull(),
    /** When the server recorded it. */
    recordedAt: ts('recorded_at').notNull().defaultNow(),
  },
  (t) => [
    index('badge_pickups_badge_idx').on(t.badgeId, t.recordedAt),
    check('badge_pickups_outcome_check', inList('outcome', BADGE_PICKUP_OUTCOMES)),
  ],
);

/** One-time free-badge links: made by organisers, or included in an order (Market: 4 per order). */
export const badgeLinks = pgTable(
  'badge_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull().unique(),
    identity: text('identity', { enum: BADGE_IDENTITIES }).notNull(),
    email: text('email'),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    usedBy: uuid('used_by').references(() => users.id),
    /** The order whose included badges these are (null: made by an organiser), and which of them (1…n). */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    orderSeq: integer('order_seq'),
    /** The organiser's batch the link was made in (null: an order's included link, or made before batches). */
    batchId: uuid('batch_id').references(() => badgeLinkBatches.id),
    /** Withdrawn by an organiser before anyone used it: the claim refuses it (`link_revoked`). */
    revokedAt: ts('revoked_at'),
    revokedBy: text('revoked_by'),
    /**
     * The edition whose badge the link gives (the current one when made; an order's included link:
     * the order's event's). A link of another edition than the current one gives no badge
     * (`link_past_edition`); null: made before editions (any).
     */
    editionId: uuid('edition_id').references(() => editions.id),
    createdAt: created(),
  },
  (t) => [
    // Issuing an order's badges twice (a retried transition) cannot make more than it includes.
    uniqueIndex('badge_links_order_seq_idx').on(t.orderId, t.orderSeq),
    index('badge_links_batch_idx').on(t.batchId),
    check('badge_links_order_check', sql`(${t.orderId} is null) = (${t.orderSeq} is null)`),
    // A link is used or revoked, never both: the claim and the revocation race on guarded updates.
    check('badge_links_used_or_revoked_check', sql`${t.usedAt} is null or ${t.revokedAt} is null`),
    check('badge_links_revoked_check', sql`(${t.revokedAt} is null) = (${t.revokedBy} is null)`),
  ],
);

/** The form behind an order: applicant info, Market exhibitor form, pitching form. */
export const registrations = pgTable('registrations', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  form: jsonb('form').$type<Record<string, unknown>>().notNull().default({}),
  contact: jsonb('contact').$type<Record<string, unknown>>(),
  /**
   * Market: the exhibitor is shown in the public exhibitor directory once its order is complete
   * (issue 23); false when it opted out on its contact page.
   */
  directoryListed: boolean('directory_listed').notNull().default(true),
  createdAt: created(),
  updatedAt: updated(),
});

/** Works (content items) chosen for Market and pitching orders. */
export const orderContents = pgTable(
  'order_contents',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    contentId: text('content_id').notNull(),
    /** A snapshot of the work when the order was placed (the content site may change it later). */
    title: text('title').notNull().default(''),
    titleZh: text('title_zh').notNull().default(''),
    genre: text('genre'),
    categoryId: integer('category_id'),
    /** A work entered in the pitching, and whether its order still counts (false once overdue or canceled). */
    pitching: boolean('pitching').notNull().default(false),
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.contentId] }),
    // A work is in at most one live pitching registration (spec §8 error code 1), race-free.
    uniqueIndex('order_contents_pitching_work_idx')
      .on(t.contentId)
      .where(sql`${t.pitching} and ${t.live}`),
  ],
);

/**
 * The pitching applicant unit (the signed-in account): how many works its live pitching
 * registrations hold. Changed only in the transaction that places or closes an entry; the CHECK
 * makes the 5-work limit a database rule that concurrent submissions cannot get around.
 */
export const pitchingApplicants = pgTable(
  'pitching_applicants',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id),
    worksUsed: integer('works_used').notNull().default(0),
    updatedAt: updated(),
  },
  (t) => [check('pitching_applicants_works_check', sql`${t.worksUsed} >= 0 and ${t.worksUsed} <= 5`)],
);

/**
 * The dev content site's works (the embedded default of the content site, `/dev-content`): what a
 * signed-in user uploaded there, keyed by the identity service's subject. The real content site
 * keeps its own; the portal only reads works through the content source.
 */
export const devContentWorks = pgTable(
  'dev_content_works',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerSubject: text('owner_subject').notNull(),
    ownerEmail: text('owner_email').notNull(),
    /** piece | project */
    genre: text('genre').notNull(),
    categoryId: integer('category_id').notNull(),
    titleEn: text('title_en').notNull(),
    titleZh: text('title_zh').notNull(),
    priceCentsTwd: integer('price_cents_twd').notNull().default(0),
    priceCentsUsd: integer('price_cents_usd').notNull().default(0),
    createdAt: created(),
  },
  (t) => [
    index('dev_content_works_owner_idx').on(t.ownerSubject, t.id),
    check('dev_content_works_genre_check', inList('genre', ['piece', 'project'])),
    check('dev_content_works_category_check', sql`${t.categoryId} between 1 and 16`),
    check('dev_content_works_price_check', sql`${t.priceCentsTwd} >= 0 and ${t.priceCentsUsd} >= 0`),
  ],
);

/**
 * Badge pick-up schedule of the edition (spec §9): which days, hours and place the badge exchange
 * desk is open. Data of the edition, seeded inside its dates; days are Taipei calendar dates.
 */
export const pickupSlots = pgTable(
  'pickup_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The edition whose schedule this is (issue 21); the public schedule is the current edition's. */
    editionId: uuid('edition_id').references(() => editions.id),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull(),
    /** Opening hours, Taipei time, `HH:MM`. */
    opensAt: text('opens_at').notNull(),
    closesAt: text('closes_at').notNull(),
    placeEn: text('place_en').notNull(),
    placeZh: text('place_zh').notNull(),
    createdAt: created(),
  },
  (t) => [
    index('pickup_slots_first_day_idx').on(t.firstDay),
    index('pickup_slots_edition_idx').on(t.editionId),
    check('pickup_slots_days_check', sql`${t.firstDay} <= ${t.lastDay}`),
    check(
      'pickup_slots_hours_check',
      sql`${t.opensAt} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.closesAt} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.opensAt} < ${t.closesAt}`,
    ),
  ],
);

/**
 * Bank statement column mappings (decision 026), one per statement format (the header row's
 * column names, or the number of columns of a file without names), for the whole site: the next
 * import of the same format preselects it, whoever imports.
 */
export const bankStatementMappings = pgTable('bank_statement_mappings', {
  signature: text('signature').primaryKey(),
  /** The domain's StatementMapping. */
  mapping: jsonb('mapping').notNull(),
  encoding: text('encoding').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: updated(),
});

export const BANK_LINE_KINDS = ['credit', 'debit', 'unreadable'] as const;

/** One bank statement file an organiser imported (transfers screen). */
export const bankImports = pgTable(
  'bank_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileName: text('file_name').notNull(),
    encoding: text('encoding').notNull(),
    mapping: jsonb('mapping').notNull(),
    /** The organiser's e-mail. */
    importedBy: text('imported_by').notNull(),
    createdAt: created(),
  },
  (t) => [index('bank_imports_created_idx').on(t.createdAt)],
);

/**
 * The lines of an imported statement and what became of each: matched (to be confirmed),
 * ambiguous, unmatched, already imported (the same line came with an earlier file), a debit,
 * unreadable, or paid (the order it paid, through the order core, and its payment record). A
 * line's fingerprint (a hash of its normalised content and occurrence, domain lineKeys) is
 * unique, so a line imported twice is recognised even when two organisers import at once.
 */
export const bankImportLines = pgTable(
  'bank_import_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    importId: uuid('import_id')
      .notNull()
      .references(() => bankImports.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    /** Null for unreadable lines and for lines imported before (see duplicateOf). */
    fingerprint: text('fingerprint').unique(),
    duplicateOf: uuid('duplicate_of'),
    kind: text('kind', { enum: BANK_LINE_KINDS }).notNull(),
    bookedOn: date('booked_on', { mode: 'string' }),
    amountCents: integer('amount_cents'),
    currency: text('currency'),
    accountLastFive: text('account_last_five'),
    memo: text('memo').notNull().default(''),
    cells: jsonb('cells').$type<string[]>().notNull(),
    outcome: text('outcome', { enum: LINE_OUTCOMES }).notNull(),
    reason: text('reason'),
    /** matched: the order; ambiguous: the choices; unmatched: a near order (hint). Order ids. */
    candidates: jsonb('candidates').notNull().default([]),
    paidOrderId: uuid('paid_order_id').references(() => orders.id),
    orderPaymentId: uuid('order_payment_id')
      .unique()
      .references(() => orderPayments.id),
    paidBy: text('paid_by'),
    paidAt: ts('paid_at'),
  },
  (t) => [
    index('bank_import_lines_import_idx').on(t.importId, t.lineNo),
    index('bank_import_lines_open_idx')
      .on(t.outcome)
      .where(sql`outcome in ('matched', 'ambiguous', 'unmatched')`),
    check('bank_import_lines_kind_check', inList('kind', BANK_LINE_KINDS)),
    check('bank_import_lines_outcome_check', inList('outcome', LINE_OUTCOMES)),
    check('bank_import_lines_currency_check', sql`currency is null or ${inList('currency', CURRENCIES)}`),
    check('bank_import_lines_paid_check', sql`(outcome = 'paid') = (paid_order_id is not null)`),
    check(
      'bank_import_lines_credit_check',
      sql`kind = 'unreadable' or (booked_on is not null and amount_cents > 0 and currency is not null)`,
    ),
  ],
);

export const EMAIL_STATUSES = ['pending', 'sent'] as const;
export const EMAIL_TRANSPORTS = ['smtp', 'outbox'] as const;

/**
 * The mail outbox (decision 012): every e-mail the portal sends, rendered when it is queued (in
 * the registrant's language of the time) and delivered by the mail worker. `key` makes queueing
 * idempotent (`order-event:{id}:{template}`, `payment-reminder:{order}:{deadline}`,
 * `badge-link:{code}`); a pending row is claimed with `FOR UPDATE SKIP LOCKED` for a lease
 * (`available_at`), so a crash mid-send leaves it pending and it is sent again after the lease.
 * With the database outbox transport (no SMTP_URL) a sent mail stays here for the dev mailbox.
 */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull().unique(),
    /** The order event the mail tells about (null: a reminder or a badge link). */
    orderEventId: bigint('order_event_id', { mode: 'number' }).references(() => orderEvents.id, {
      onDelete: 'set null',
    }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    /** The language of the mail; null: both languages. */
    locale: text('locale', { enum: LOCALES }),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** The RFC 5322 Message-ID, fixed when queued: a re-sent mail keeps it, so clients can tell. */
    messageId: text('message_id').notNull(),
    /** Files sent with the mail (a calendar file, base64); null: none. */
    attachments: jsonb('attachments').$type<{ filename: string; contentType: string; content: string }[]>(),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('pending'),
    /** Where it went once sent: an SMTP server, or the database outbox (dev mailbox). */
    transport: text('transport', { enum: EMAIL_TRANSPORTS }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Pending: not claimed before this time (the retry backoff, or the lease of a send in progress). */
    availableAt: ts('available_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('emails_order_event_template_idx').on(t.orderEventId, t.template),
    index('emails_pending_idx')
      .on(t.availableAt)
      .where(sql`status = 'pending'`),
    index('emails_created_idx').on(t.createdAt),
    check('emails_status_check', inList('status', EMAIL_STATUSES)),
    check('emails_transport_check', sql`transport is null or ${inList('transport', EMAIL_TRANSPORTS)}`),
    check('emails_locale_check', sql`locale is null or ${inList('locale', LOCALES)}`),
    check('emails_sent_check', sql`(status = 'sent') = (sent_at is not null)`),
  ],
);

/**
 * The portal's own sessions after an OpenID Connect sign-in (decision 019). The cookie carries a
 * signed token naming a row; every authenticated request reads the row, so ending a session (log
 * out) ends it on every instance at once. `expires_at` slides forward while the session is used,
 * never past `absolute_expires_at`.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: created(),
    /** Idle expiry: moved forward on activity (at most every few minutes), capped by the absolute one. */
    expiresAt: ts('expires_at').notNull(),
    absoluteExpiresAt: ts('absolute_expires_at').notNull(),
    /** When the last credential of this session was issued. */
    refreshedAt: ts('refreshed_at').notNull().defaultNow(),
    /** Set by log out: the session is over, whatever its expiry says. */
    revokedAt: ts('revoked_at'),
    /**
     * The provider's tokens (access, refresh, expiry), AES-256-GCM encrypted with a key derived
     * from SESSION_SECRET: forwarded to the content site on the user's behalf.
     */
    providerTokens: text('provider_tokens'),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_absolute_expires_idx').on(t.absoluteExpiresAt),
    check('sessions_expiry_check', sql`expires_at <= absolute_expires_at`),
  ],
);

// ---- Market meetings (issue 23, decision 059) ------------------------------------------------

const activeMeeting = sql.raw(`status in (${quoted(ACTIVE_MEETING_STATUSES)})`);

/**
 * The business meeting centre's set-up of an edition (organiser, right `edition`): the meeting
 * days (Taipei dates), the daily hours (`HH:MM`), the slot length, and the rules of booking: at
 * most `pendingCap` pending requests per buyer, `dailyCap` meetings per buyer and day, cancel up
 * to `cancelCutoffHours` before the start, a request expires `requestExpiryHours` after it is made.
 */
export const meetingSettings = pgTable(
  'meeting_settings',
  {
    editionId: uuid('edition_id')
      .primaryKey()
      .references(() => editions.id, { onDelete: 'cascade' }),
    days: date('days', { mode: 'string' }).array().notNull(),
    opensAt: text('opens_at').notNull(),
    closesAt: text('closes_at').notNull(),
    slotMinutes: integer('slot_minutes').notNull().default(30),
    pendingCap: integer('pending_cap').notNull().default(5),
    dailyCap: integer('daily_cap').notNull().default(8),
    cancelCutoffHours: integer('cancel_cutoff_hours').notNull().default(24),
    requestExpiryHours: integer('request_expiry_hours').notNull().default(48),
    updatedBy: text('updated_by').notNull(),
    updatedAt: updated(),
  },
  (t) => [
    check(
      'meeting_settings_hours_check',
      sql`${t.opensAt} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.closesAt} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.opensAt} < ${t.closesAt}`,
    ),
    check('meeting_settings_slot_check', sql`${t.slotMinutes} between 5 and 240`),
    check(
      'meeting_settings_caps_check',
      sql`${t.pendingCap} >= 1 and ${t.dailyCap} >= 1 and ${t.cancelCutoffHours} >= 0 and ${t.requestExpiryHours} >= 1`,
    ),
  ],
);

/** The tables of the business meeting centre (商洽中心) of an edition, by name. */
export const meetingTables = pgTable(
  'meeting_tables',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A table taken out of use keeps its past meetings but gets no new ones. */
    active: boolean('active').notNull().default(true),
    createdAt: created(),
  },
  (t) => [uniqueIndex('meeting_tables_name_idx').on(t.editionId, t.name)],
);

/** The time slots of an edition's meeting days (made from the settings; a slot with meetings stays). */
export const meetingSlots = pgTable(
  'meeting_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** The Taipei date of the slot (the per-day cap and the day view). */
    day: date('day', { mode: 'string' }).notNull(),
    /** False once the settings no longer make it (kept for the meetings it has). */
    open: boolean('open').notNull().default(true),
  },
  (t) => [
    uniqueIndex('meeting_slots_start_idx').on(t.editionId, t.startsAt),
    check('meeting_slots_time_check', sql`${t.startsAt} < ${t.endsAt}`),
  ],
);

/**
 * An exhibitor's meeting preferences (its Market registration): how many tables it needs, whether
 * requests are accepted at once. Absent: one table, requests wait for the exhibitor.
 */
export const meetingExhibitors = pgTable(
  'meeting_exhibitors',
  {
    registrationId: uuid('registration_id')
      .primaryKey()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    tablesNeeded: integer('tables_needed').notNull().default(1),
    autoAccept: boolean('auto_accept').notNull().default(false),
    updatedAt: updated(),
  },
  (t) => [check('meeting_exhibitors_tables_check', sql`${t.tablesNeeded} between 1 and 10`)],
);

/** Slots an exhibitor is not available for (default: available for all). */
export const meetingUnavailable = pgTable(
  'meeting_unavailable',
  {
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => meetingSlots.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.registrationId, t.slotId] })],
);

/**
 * A meeting request of a buyer (a badge holder) with an exhibitor (a Market registration) in one
 * slot: requested → accepted | declined | cancelled | expired; accepted → cancelled. While it is
 * active (requested or accepted) it holds the exhibitor's slot (unique index) and its people
 * (`meeting_people`); an accepted meeting holds a table (unique index). `sequence` is the
 * calendar file's SEQUENCE, bumped on every change.
 */
export const meetings = pgTable(
  'meetings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id),
    exhibitorId: uuid('exhibitor_id')
      .notNull()
      .references(() => registrations.id),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => meetingSlots.id),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: MEETING_STATUSES }).notNull().default('requested'),
    message: text('message').notNull().default(''),
    tableId: uuid('table_id').references(() => meetingTables.id),
    sequence: integer('sequence').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    decidedAt: ts('decided_at'),
    /** Who cancelled or declined (a user's e-mail, or `system`). */
    closedBy: text('closed_by'),
    attendance: text('attendance', { enum: MEETING_ATTENDANCES }),
    attendanceAt: ts('attendance_at'),
    attendanceBy: text('attendance_by'),
    /** The language the buyer booked in (its e-mails). */
    locale: text('locale', { enum: LOCALES }),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    // An exhibitor's slot is taken once; a table holds one meeting per slot.
    uniqueIndex('meetings_exhibitor_slot_idx').on(t.exhibitorId, t.slotId).where(activeMeeting),
    uniqueIndex('meetings_table_slot_idx')
      .on(t.tableId, t.slotId)
      .where(sql`${t.tableId} is not null and ${activeMeeting}`),
    index('meetings_buyer_idx').on(t.buyerId, t.status),
    index('meetings_slot_idx').on(t.slotId),
    check('meetings_status_check', inList('status', MEETING_STATUSES)),
    check('meetings_message_check', sql`char_length(${t.message}) <= 500`),
    check('meetings_attendance_check', sql`attendance is null or ${inList('attendance', MEETING_ATTENDANCES)}`),
    check('meetings_locale_check', sql`locale is null or ${inList('locale', LOCALES)}`),
  ],
);

/**
 * The people of the active meetings, one row per person and slot: a person (buyer, or the
 * exhibitor's owner) is never in two meetings at once (primary key). Rows go with the meeting's
 * end (declined, cancelled, expired), in the same transaction.
 */
export const meetingPeople = pgTable(
  'meeting_people',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => meetingSlots.id),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.slotId] }), index('meeting_people_meeting_idx').on(t.meetingId)],
);

/**
 * The tables an accepted meeting holds (decision 064): as many as its exhibitor's delegation
 * needs (`meeting_exhibitors.tables_needed`, taken when it is accepted), all or none. A table
 * holds one meeting per slot (primary key), whichever meeting names it first; `meetings.table_id`
 * is the first of them by name (the one the calendar file and the mails name first). Rows go with
 * the meeting's end (cancelled) or move with it, in the same transaction.
 */
export const meetingTableHolds = pgTable(
  'meeting_table_holds',
  {
    tableId: uuid('table_id')
      .notNull()
      .references(() => meetingTables.id),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => meetingSlots.id),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tableId, t.slotId] }), index('meeting_table_holds_meeting_idx').on(t.meetingId)],
);

/**
 * E-invoices (issue 22, decision 051): one per paid order (order_id unique; its order number is
 * the MerchantOrderNo, ezPay's idempotency key). The row is also the issue's queue: `pending` or
 * `failed` rows whose `next_attempt_at` has come are claimed by the invoice pass (a lease moves
 * `next_attempt_at` ahead while the call is made).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: 'cascade' }),
    editionId: uuid('edition_id').references(() => editions.id),
    status: text('status').$type<InvoiceStatus>().notNull().default('pending'),
    kind: text('kind').$type<InvoiceKind>().notNull(),
    /** The MerchantOrderNo sent to ezPay (the order number). */
    merchantOrderNo: text('merchant_order_no').notNull().unique(),
    buyerName: text('buyer_name').notNull(),
    buyerUbn: text('buyer_ubn'),
    buyerEmail: text('buyer_email').notNull(),
    carrierType: text('carrier_type').$type<CarrierType>().notNull(),
    carrierNumber: text('carrier_number'),
    loveCode: text('love_code'),
    /** The item's name (the edition's invoice settings, in the order's language). */
    itemName: text('item_name').notNull(),
    /** Whole TWD, tax included; `tax` of it. */
    amountTwd: integer('amount_twd').notNull(),
    tax: integer('tax').notNull(),
    /** What is left after allowances (whole TWD). */
    remainingTwd: integer('remaining_twd').notNull(),
    number: text('number'),
    randomCode: text('random_code'),
    invoiceTransNo: text('invoice_trans_no'),
    issuedAt: ts('issued_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('invoices_status_check', inList('status', INVOICE_STATUSES)),
    check('invoices_kind_check', inList('kind', ['b2c', 'b2b'])),
    index('invoices_due_idx').on(t.status, t.nextAttemptAt),
    index('invoices_issued_at_idx').on(t.issuedAt),
  ],
);

export const INVOICE_ACTION_KINDS = ['void', 'allowance'] as const;
export const INVOICE_ACTION_STATUSES = ['pending', 'done', 'failed'] as const;

/**
 * Voids and allowances of an invoice, with their reason (shown to the registrant): the history and
 * the queue of those calls (same lease and backoff as the issue). `key` makes each once only
 * (`void`, `refund:{paymentId}:{refundId}`).
 */
export const invoiceActions = pgTable(
  'invoice_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    kind: text('kind').$type<(typeof INVOICE_ACTION_KINDS)[number]>().notNull(),
    status: text('status').$type<(typeof INVOICE_ACTION_STATUSES)[number]>().notNull().default('pending'),
    reason: text('reason').notNull(),
    /** Whole TWD, tax included (an allowance's amount; a void's is the invoice's). */
    amountTwd: integer('amount_twd').notNull(),
    allowanceNo: text('allowance_no'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    doneAt: ts('done_at'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('invoice_actions_key_idx').on(t.invoiceId, t.key),
    check('invoice_actions_kind_check', inList('kind', INVOICE_ACTION_KINDS)),
    check('invoice_actions_status_check', inList('status', INVOICE_ACTION_STATUSES)),
    index('invoice_actions_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/** The edition's invoice settings (issue 22): whether invoices are issued, the item names per kind of registration in both languages. Keys and merchant come from configuration. */
export const invoiceSettings = pgTable('invoice_settings', {
  editionId: uuid('edition_id')
    .primaryKey()
    .references(() => editions.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  /** Item names by event type: `{ badge_professional: { en, zh } … }`; absent: the event's name. */
  itemNames: jsonb('item_names').$type<Record<string, { en: string; zh: string }>>().notNull().default({}),
  updatedAt: updated(),
});
