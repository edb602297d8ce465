/**
 * The back office on the wire (decision 043): the organiser, the order search and one order, the
 * counts of its home, badge links and batches, events and their changes, the badge desk.
 */
import type { Role } from '@domain/roles';
import type { RegistrationType } from '@domain/kinds/types';
import type { ApprovalStatus, PaymentStatus } from '@domain/order-lifecycle';
import type { BadgeLinkStatus } from '@domain/badge-links';
import type { BadgeIdentity } from '@domain/badges';
import type { CatalogueField, CatalogueValue, EventAction, EventAddress, EventStatus } from '@domain/event-catalogue';
import type { EventSettingField } from '@domain/event-settings';
import type { EventType } from '@domain/kinds/types';
import type { EventNames, EventTerms, RegistrationWindowState } from './events';
import type { PageMeta } from './common';

export type { DeskBadge, PickupResult } from '@domain/desk';

/** `GET /admin/me`: the organiser asking. */
/** The signed-in team member (GET /admin/me): their back-office role decides what they may do. */
export type Organiser = { email: string; name: string | null; organiser?: boolean; role: Role };

/** An order as the back office's list shows it (GET /admin/orders, camelCase). */
export type AdminOrderRow = {
  orderId: string;
  orderNo: string;
  registrationType: RegistrationType;
  paymentStatus: PaymentStatus;
  approvalStatus: ApprovalStatus | null;
  paymentType: string | null;
  currency: 'TWD' | 'USD';
  amountCents: number;
  quantity: number;
  paymentExpiresAt: string | null;
  createdAt: string;
  email: string;
  name: string | null;
  eventSlug: string;
  eventType: string;
  eventName: string;
  company: string | null;
};

export type AdminOrderPage = { data: AdminOrderRow[]; meta: PageMeta };

/** What waits for an organiser (the back office's home). */
export type BackOfficeCounts = {
  awaitingApproval: number;
  transfersChecking: number;
  refundsDue: number;
  badgesIssued: number;
  badgesPickedUp: number;
  /** The current edition's sales; null before the first edition exists. */
  sales: EditionSales | null;
};

/** One event's sales in the current edition (the back office's home). */
export type EventSales = {
  slug: string;
  type: EventType;
  nameEn: string;
  nameZh: string;
  status: EventStatus;
  /** Null: no seat limit. */
  capacity: number | null;
  seatsTaken: number;
  /** Orders that count (unpaid ones included), rejected ones left out. */
  live: number;
  /** Orders settled: paid, or free and accepted. */
  issued: number;
  /** Money received for the event's orders less what was refunded, per currency (cents). */
  netTwdCents: number;
  refundedTwdCents: number;
  netUsdCents: number;
  refundedUsdCents: number;
};

/** What the current edition has sold, and what waits beside the order queues. */
export type EditionSales = {
  edition: { slug: string; nameEn: string; nameZh: string };
  events: EventSales[];
  totals: Pick<EventSales, 'live' | 'issued' | 'netTwdCents' | 'refundedTwdCents' | 'netUsdCents' | 'refundedUsdCents'>;
  /** E-invoices the e-invoice service refused (any edition): the finance role retries them. */
  invoicesFailed: number;
  /** Meeting requests of the edition still waiting for the exhibitor, and meetings agreed. */
  meetingRequests: number;
  meetingsAccepted: number;
};

/** One order with everything the back office shows (GET /admin/orders/{orderNo}). */
export type AdminOrderDetail = {
  orderId: string;
  orderNo: string;
  registrationType: string;
  paymentStatus: string;
  approvalStatus: string | null;
  rejectedReason: string | null;
  paymentExpiresAt: string | null;
  paymentType: string | null;
  currency: 'TWD' | 'USD';
  amountCents: number;
  quantity: number;
  unitPriceTwdCents: number;
  unitPriceUsdCents: number | null;
  totalTwdCents: number;
  totalUsdCents: number | null;
  remitter: string | null;
  senderBank: string | null;
  lastFiveDigits: string | null;
  locale: string | null;
  createdAt: string;
  paidAt: string | null;
  approvedAt: string | null;
  user: { id: string; email: string; name: string | null };
  event: {
    slug: string;
    type: string;
    name: string;
    startTime: string;
    endAt: string;
    formModifyExpiresAt: string | null;
  };
  receipt: { kind: string; invoiceTitle: string | null; unifiedBusinessNumber: string | null } | null;
  registration: {
    id: string;
    form: Record<string, unknown>;
    contact: Record<string, unknown> | null;
    updatedAt: string;
  } | null;
  badge: {
    identity: string;
    nameZh: string;
    nameEn: string;
    companyNameZh: string;
    companyNameEn: string;
    personalPhotoFileId: string | null;
    pickedUpAt: string | null;
  } | null;
  contents: { id: string; titleEn: string; titleZh: string; genre: string | null; categoryId: number | null }[];
  files: { id: string; name: string; contentType: string; size: number; purpose: string; url: string }[];
  payments: {
    id: string;
    method: string;
    attempt: number | null;
    merchantOrderNo: string | null;
    currency: string;
    amountCents: number;
    status: string;
    gatewayTradeNo: string | null;
    gatewayStatus: string | null;
    gatewayMessage: string | null;
    refundReason: string | null;
    refundReference?: string | null;
    paidAt: string | null;
    refundedAt: string | null;
    createdAt: string;
  }[];
  includedLinks: { seq: number; path: string; usedAt: string | null; usedBy: string | null }[];
  history: {
    id: number;
    kind: string;
    actor: string;
    actorId: string | null;
    paymentStatusBefore: string | null;
    paymentStatusAfter: string;
    approvalStatusBefore: string | null;
    approvalStatusAfter: string | null;
    payload: Record<string, unknown>;
    createdAt: string;
  }[];
};

/** A link an organiser made, as the list shows it (GET /admin/badge-links, camelCase). */
export type AdminLink = {
  id: string;
  code: string;
  identity: BadgeIdentity;
  /** `/get-badge/{type}/{code}`: the locale goes in front. */
  path: string;
  email: string | null;
  status: BadgeLinkStatus;
  expiresAt: string;
  createdAt: string;
  usedAt: string | null;
  usedBy: { email: string; name: string | null } | null;
  orderNo: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  batchId: string | null;
  createdBy: string | null;
  note: string | null;
};
export type AdminLinkPage = { data: AdminLink[]; meta: PageMeta };

/** A batch with its counts (GET /admin/badge-link-batches). */
export type AdminBatch = {
  id: string;
  identity: BadgeIdentity;
  linkType: string;
  size: number;
  emailed: boolean;
  note: string;
  expiresAt: string;
  createdBy: string;
  createdAt: string;
  used: number;
  revoked: number;
  expired: number;
  unused: number;
};

/** An event as the back office sees it (GET /admin/events). */
export type AdminEvent = EventNames &
  EventTerms & {
    /** Draft (the back office only), published, archived (issue 21, decision 054). */
    status: EventStatus;
    descriptionEn: string;
    descriptionZh: string;
    locationEn: string;
    locationZh: string;
    /** The event's own address in each language; null: the edition's venue. */
    addressEn: EventAddress | null;
    addressZh: EventAddress | null;
    liveStreamUrl: string | null;
    /** Its own image (an `event_image` upload), and the image the public sees (resized, or the default). */
    imageFileId: string | null;
    image: string;
    requiresApproval: boolean;
    /** Free badges each order includes; null: the kind's default. */
    includedBadges: number | null;
    startTime: string;
    endAt: string;
    registrationState: RegistrationWindowState;
    holdsSeat: boolean;
    capacity: number | null;
    seatsTaken: number;
    seatsLeft: number | null;
    liveOrders: number;
    updatedAt: string;
  };
export type EventChange = {
  id: number;
  changedBy: string;
  /** What happened: fields changed (`updated`), or the event created, published, duplicated… */
  action: EventAction;
  createdAt: string;
  /** The fields changed (settings and catalogue fields), or the status or slug an action moved. */
  changes: Partial<
    Record<CatalogueField | EventSettingField | 'status' | 'slug', { before: CatalogueValue; after: CatalogueValue }>
  >;
};

/** An order of the approvals queue, as GET /admin/approvals lists it (camelCase). */
export type ApprovalRow = {
  orderNo: string;
  registrationType: string;
  /** `pending_approval` or `auditing` (the queue lists only those). */
  approvalStatus: ApprovalStatus | null;
  /** `pending` or `free` (the queue lists only those). */
  paymentStatus: PaymentStatus;
  currency: string;
  amountCents: number;
  createdAt: string;
  /** What the organiser saw (order and form times): a bulk approval refuses an order changed since. */
  version: string;
  email: string;
  name: string | null;
  eventSlug: string;
  eventName: string;
  company: string | null;
  companyOther: string | null;
  badgeIdentity: string | null;
  works: number;
};

export type ApprovalQueuePage = { data: ApprovalRow[]; meta: { total: number; shown: number } };

/** What an organiser's action on one order did: `POST /admin/orders/{orderNo}/{action}`. */
export type OrderActionResult = { orderNo: string; result: string };

/** One order of a bulk action: done, or refused with the order core's code. */
export type BulkItemResult =
  { orderNo: string; result: 'approved' } | { orderNo: string; result: 'refused'; code: string; message: string };

/** `POST /admin/approvals/approve`: every order's outcome and the counts. */
export type BulkApproveResult = { data: BulkItemResult[]; meta: { approved: number; refused: number } };

/** One link of a batch just made: its claim page and both languages' full addresses. */
export type CreatedBadgeLink = {
  id: string;
  code: string;
  email: string | null;
  path: string;
  urlEn: string;
  urlZh: string;
  emailed: boolean;
};

/** `POST /admin/badge-links`: the batch made and its links. */
export type BadgeLinkBatchCreated = { batch: AdminBatch; links: CreatedBadgeLink[] };

/** `GET /admin/badge-link-batches/{id}`: a batch with its links. */
export type AdminBatchDetail = AdminBatch & { links: AdminLink[] };

/** `POST /admin/badge-links/{id}/revoke`. */
export type BadgeLinkRevoked = { id: string; result: string };

/** `POST /admin/badge-link-batches/{id}/revoke-unused`: how many links it revoked. */
export type BatchUnusedRevoked = { id: string; revoked: number };

/** `GET /admin/events/{slug}`: the event with its history of changes. */
export type AdminEventDetail = AdminEvent & { changes: EventChange[] };

/** `PATCH /admin/events/{slug}`: the event as it is now, and what this change changed (empty: nothing). */
export type AdminEventUpdated = AdminEvent & { changed: EventChange['changes'] };
