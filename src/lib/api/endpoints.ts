import type { Infer } from 'superstruct';
import type { AdminOrderQuery } from '@domain/admin';
import type { BadgeLinkBatchInput, BadgeLinkQuery } from '@domain/badge-links';
import type { BadgeApplication } from '@domain/badges';
import type { PickupBatch } from '@domain/desk-requests';
import type { Role } from '@domain/roles';
import type { EventCreate, EventDuplicate, EventPatch, StatusChange } from '@domain/event-catalogue';
import type { EditionCreate, EditionSettingsPatch, NextEdition, PickupSlotInput } from '@domain/editions';
import type { ExhibitorFilters } from '@domain/exhibitor-directory';
import type { ExportDataset, ExportFormat } from '@domain/exports';
import type { OrderPaymentUpdate } from '@domain/payments';
import type { AdminInvoice, InvoiceSettings } from '@domain/contract/invoices';
import type { UploadPurpose } from '@domain/uploads';
import type { ExhibitorMeetingPrefs, MeetingAction, MeetingSettingsInput } from '@domain/meetings';
import type {
  AdminBatch,
  AdminEdition,
  AdminEditionDetail,
  AdminBatchDetail,
  AdminEvent,
  AdminEventDetail,
  AdminEventUpdated,
  AdminLinkPage,
  AdminOrderDetail,
  AdminOrderPage,
  ApprovalQueuePage,
  BackOfficeCounts,
  Badge,
  BadgeLinkBatchCreated,
  BadgeLinkCheck,
  BadgeLinkRevoked,
  BatchUnusedRevoked,
  BadgeOrderPlaced,
  BulkApproveResult,
  Data,
  DeskBadge,
  DirectoryExhibitor,
  DirectoryPage,
  Event,
  ImportConfirmed,
  ImportSummary,
  ImportView,
  LineAssigned,
  Me,
  Order,
  OrderActionResult,
  Organiser,
  PageVersion,
  Paged,
  PickupResult,
  PickupSlot,
  PitchingUsage,
  PlacedOrder,
  PublicEdition,
  CardRefunded,
  RefundRecorded,
  RefundRow,
  Registration,
  SessionEnd,
  SessionRefresh,
  StatementPreview,
  TeamChange,
  TeamInvited,
  TeamMember,
  TeamRemoved,
  TradeInfo,
  TransferReturned,
  TransferRow,
  UploadedFile,
  Work,
  AdminMeetings,
  Meeting,
  MeetingCheckInResult,
  MeetingSlot,
  MyMeetings,
} from '@domain/contract';
import type { Transport, UploadOptions } from './transport';

/*
 * One typed function per endpoint of the registration API (decision 043). Each answers the body
 * the API sends, camelCased (`{ data }`, or `{ data, meta }` for a page); the path literals of
 * /api/v1 live here and nowhere else in the UI (tests/lint/api-paths.test.ts).
 */

/** The API's mount point. */
export const API_BASE = '/api/v1';
const p = (...parts: (string | number)[]) =>
  `${API_BASE}/${parts.map((x, i) => (i === 0 ? String(x) : encodeURIComponent(String(x)))).join('/')}`;

/** Links the browser follows itself (no request of the client): files, sign-in, exports. */
export const apiHref = {
  /** A file of the signed-in user (photo, logo, story outline): `GET /files/{id}`. */
  file: (fileId: string) => p('files', fileId),
  /** Sign-in starts here (the API redirects to the identity service). */
  signin: (query: URLSearchParams) => `${API_BASE}/user/signin?${query.toString()}`,
  /** An export's download (organisers): `GET /admin/exports/{dataset}.{format}`. */
  export: (dataset: ExportDataset, format: ExportFormat) => p('admin/exports', `${dataset}.${format}`),
  /** A desk thumbnail (organisers). */
  deskPhoto: (fileId: string) => p('admin/desk/photos', fileId),
  /** A file an order names (organisers). */
  adminFile: (fileId: string) => p('admin/files', fileId),
  /** A day's e-invoices as CSV for the accountant (organisers, right money): `GET /admin/invoices/export?day=`. */
  invoiceExport: (day: string) => `${p('admin/invoices/export')}?${new URLSearchParams({ day }).toString()}`,
  /** A meeting's calendar file (its parties): `GET /meetings/{id}/calendar.ics`. */
  meetingCalendar: (meetingId: string) => p('meetings', meetingId, 'calendar.ics'),
  /** An order's calendar file (its owner): `GET /orders/{orderId}/calendar.ics`. */
  orderCalendar: (orderId: string) => p('orders', orderId, 'calendar.ics'),
  /** The meetings' export (organisers): `GET /admin/meetings/export/meetings.{format}`. */
  meetingsExport: (format: 'csv' | 'xlsx') => p('admin/meetings/export', `meetings.${format}`),
  /** The card gateway's callbacks (posted from the gateway's site, not the portal's pages). */
  newebpayNotify: `${API_BASE}/payment/newebpay/notify`,
  newebpayReturn: `${API_BASE}/payment/newebpay/return`,
  /** The ATM account handed out (VACC, issue 22), form-posted through the browser. */
  newebpayCustomer: `${API_BASE}/payment/newebpay/customer`,
};

/** The body of a registration (`POST /orders?event=`): its kind's struct decides (src/domain/kinds). */
export type RegistrationBody = Record<string, unknown>;
/** An organiser's action on one order. */
export type AdminOrderAction = 'approve' | 'start-review' | 'reject' | 'cancel' | 'mark-paid';

export function endpoints({ request, upload }: Transport) {
  const get = <T>(path: string, query?: Record<string, unknown>) => request<T>('GET', path, { query });
  const post = <T>(path: string, body?: unknown, query?: Record<string, unknown>) =>
    request<T>('POST', path, { body, query });
  const put = <T>(path: string, body?: unknown, query?: Record<string, unknown>) =>
    request<T>('PUT', path, { body, query });

  return {
    events: {
      list: () => get<Data<Event[]>>(p('events')),
      get: (slug: string) => get<Data<Event>>(p('events', slug)),
      /** The current edition's pick-up schedule, or with `edition` (a slug) that edition's (a past order's badge). */
      pickupSchedule: (edition?: string) =>
        get<Data<PickupSlot[]>>(p('pickup-schedule'), edition ? { edition } : undefined),
      /**
       * What registrants see of the current edition (issue 21): transfer instructions, venue map,
       * badge rights; with `edition` (a slug), that edition's (a past edition's order keeps its own).
       */
      edition: (edition?: string) => get<Data<PublicEdition>>(p('edition'), edition ? { edition } : undefined),
    },
    orders: {
      list: (query: { limit?: number; page?: number } = {}) => get<Paged<Order>>(p('orders'), query),
      get: (orderId: string) => get<Data<Order>>(p('orders', orderId)),
      /** Remittance and invoice details of an unpaid order: answers the order itself. */
      update: (orderId: string, update: OrderPaymentUpdate) => put<Order>(p('orders', orderId), update),
    },
    registrations: {
      /** Registers for an event (its kind's body): 201 new, 200 the same registration again. */
      create: (eventSlug: string, body: RegistrationBody, query: { registrationType?: string } = {}) =>
        post<PlacedOrder>(p('orders'), body, { event: eventSlug, ...query }),
      get: (registrationId: string) => get<Data<Registration>>(p('registrations', registrationId)),
      update: (registrationId: string, form: Record<string, unknown>) =>
        put<Data<Registration>>(p('registrations', registrationId), form),
    },
    badges: {
      /** The signed-in user's badge (404: none yet). */
      get: () => get<Data<Badge>>(p('demonstration')),
      /** A one-time link's state, without claiming it. */
      checkLink: (code: string, type?: string) => get<Data<BadgeLinkCheck>>(p('demonstration/link'), { code, type }),
      /** Claims a free badge through a one-time link. */
      claim: (code: string, type: string | undefined, application: BadgeApplication) =>
        put<Data<Badge | null>>(p('demonstration'), application, { code, type }),
      /** Applies for a Professional badge: the order to pay. */
      apply: (application: BadgeApplication) => post<BadgeOrderPlaced>(p('demonstration_order'), application),
      /** The badge order (404: none). */
      order: () => get<Data<Order>>(p('demonstration_order')),
      /** Remittance and invoice details of the badge order: answers the order itself. */
      updateOrder: (update: OrderPaymentUpdate) => put<Order>(p('demonstration_order'), update),
    },
    payments: {
      /** The encrypted trade info the pay page posts to the card gateway (starts a card attempt). */
      tradeInfo: (orderId: string, lang?: string) => get<Data<TradeInfo>>(p('payment', orderId, 'tradeinfo'), { lang }),
    },
    files: {
      /** Uploads one file for a form field, reporting progress (decision 044). */
      upload: (file: File | Blob, options: UploadOptions & { purpose: UploadPurpose; name?: string }) => {
        const form = new FormData();
        if (options.name !== undefined) form.append('file', file, options.name);
        else form.append('file', file);
        form.append('purpose', options.purpose);
        return upload<UploadedFile>(p('files/upload'), form, options);
      },
      url: apiHref.file,
    },
    contents: {
      /** The signed-in user's works on the content site (Market, pitching). */
      remote: () => get<Data<Work[]>>(p('contents/remote')),
    },
    pitching: {
      usage: () => get<Data<PitchingUsage>>(p('pitching/usage')),
    },
    market: {
      /** The exhibitor directory (public): a page of listed exhibitors matching the search and filters. */
      exhibitors: (filters: ExhibitorFilters = {}) => get<DirectoryPage>(p('market/exhibitors'), filters),
      /** One listed exhibitor (404: not in the directory). */
      exhibitor: (id: string) => get<Data<DirectoryExhibitor>>(p('market/exhibitors', id)),
    },
    user: {
      me: () => get<Data<Me>>(p('user/me')),
      pageVersion: () => get<Data<PageVersion>>(p('user/page-version')),
      refreshSession: () => post<Data<SessionRefresh>>(p('user/session/refresh')),
      endSession: () => request<Data<SessionEnd>>('DELETE', p('user/session')),
    },
    meetings: {
      /** An exhibitor's free slots (public), with its name in `meta`. */
      slots: (exhibitorId: string) =>
        get<Data<MeetingSlot[]> & { meta: { exhibitor: { id: string; companyName: string } } }>(
          p('market/exhibitors', exhibitorId, 'slots'),
        ),
      request: (body: { exhibitorId: string; slotId: string; message: string }) =>
        post<Data<Meeting>>(p('meetings'), body),
      list: () => get<Data<MyMeetings>>(p('meetings')),
      act: (meetingId: string, action: MeetingAction) => post<Data<Meeting>>(p('meetings', meetingId, action)),
      savePrefs: (exhibitorId: string, prefs: ExhibitorMeetingPrefs) =>
        put<Data<{ id: string; saved: boolean }>>(p('meetings/exhibitors', exhibitorId), prefs),
      checkIn: (code: string, attendance: 'present' | 'no_show') =>
        post<Data<MeetingCheckInResult>>(p('meetings/check-in'), { code, attendance }),
    },
    admin: {
      meetings: {
        get: () => get<Data<AdminMeetings>>(p('admin/meetings')),
        saveSettings: (settings: MeetingSettingsInput) =>
          put<Data<{ saved: boolean }>>(p('admin/meetings/settings'), settings),
        checkIn: (code: string, attendance: 'present' | 'no_show') =>
          post<Data<MeetingCheckInResult>>(p('admin/meetings/check-in'), { code, attendance }),
      },
      me: () => get<Data<Organiser>>(p('admin/me')),
      summary: () => get<Data<BackOfficeCounts>>(p('admin/summary')),
      orders: {
        list: (query: Partial<Record<keyof Infer<typeof AdminOrderQuery>, string | number>> = {}) =>
          get<AdminOrderPage>(p('admin/orders'), query),
        get: (orderNo: string) => get<Data<AdminOrderDetail>>(p('admin/orders', orderNo)),
        /** approve, start-review, mark-paid; reject (a reason) and cancel (a reason, optional). */
        act: (orderNo: string, action: AdminOrderAction, body: { reason?: string } = {}) =>
          post<Data<OrderActionResult>>(p('admin/orders', orderNo, action), body),
        returnTransfer: (orderNo: string, message: string) =>
          post<Data<TransferReturned>>(p('admin/orders', orderNo, 'return-transfer'), { message }),
      },
      approvals: {
        list: () => get<ApprovalQueuePage>(p('admin/approvals')),
        approve: (orders: { orderNo: string; version?: string }[]) =>
          post<BulkApproveResult>(p('admin/approvals/approve'), { orders }),
      },
      badgeLinks: {
        list: (query: Partial<Record<keyof BadgeLinkQuery, string | number>> = {}) =>
          get<AdminLinkPage>(p('admin/badge-links'), query),
        create: (batch: BadgeLinkBatchInput) => post<Data<BadgeLinkBatchCreated>>(p('admin/badge-links'), batch),
        revoke: (id: string) => post<Data<BadgeLinkRevoked>>(p('admin/badge-links', id, 'revoke'), {}),
      },
      batches: {
        list: () => get<Data<AdminBatch[]>>(p('admin/badge-link-batches')),
        get: (id: string) => get<Data<AdminBatchDetail>>(p('admin/badge-link-batches', id)),
        revokeUnused: (id: string) =>
          post<Data<BatchUnusedRevoked>>(p('admin/badge-link-batches', id, 'revoke-unused'), {}),
      },
      events: {
        list: () => get<Data<AdminEvent[]>>(p('admin/events')),
        get: (slug: string) => get<Data<AdminEventDetail>>(p('admin/events', slug)),
        /** Any field but the slug, settings included (issue 21); answers the event and what `changed`. */
        update: (slug: string, patch: EventPatch) =>
          request<Data<AdminEventUpdated>>('PATCH', p('admin/events', slug), {
            body: patch,
          }),
        /** A new event, a draft unless `published` (issue 21). */
        create: (event: EventCreate) => post<Data<AdminEvent>>(p('admin/events'), event),
        duplicate: (slug: string, copy: EventDuplicate) =>
          post<Data<AdminEvent>>(p('admin/events', slug, 'duplicate'), copy),
        /** Publish, back to draft, or archive. */
        changeStatus: (slug: string, change: StatusChange) =>
          post<Data<AdminEvent>>(p('admin/events', slug, change), {}),
      },
      /** Editions, their settings and the next edition (issue 21, decisions 049 and 050). */
      editions: {
        list: () => get<Data<AdminEdition[]>>(p('admin/editions')),
        get: (slug: string) => get<Data<AdminEditionDetail>>(p('admin/editions', slug)),
        create: (edition: EditionCreate) => post<Data<AdminEditionDetail>>(p('admin/editions'), edition),
        next: (edition: NextEdition) => post<Data<AdminEditionDetail>>(p('admin/editions/next'), edition),
        update: (slug: string, patch: EditionSettingsPatch) =>
          request<Data<AdminEditionDetail>>('PATCH', p('admin/editions', slug), { body: patch }),
        makeCurrent: (slug: string) => post<Data<AdminEditionDetail>>(p('admin/editions', slug, 'make-current'), {}),
      },
      /** Replaces the current edition's badge pick-up schedule; answers it as the public GET does. */
      pickupSchedule: {
        replace: (rows: PickupSlotInput[]) => put<Data<PickupSlot[]>>(p('admin/pickup-schedule'), rows),
      },
      transfers: {
        list: () => get<Data<TransferRow[]>>(p('admin/transfers')),
      },
      bankImports: {
        /** Reads a statement file for the mapping step (multipart: `file`, `encoding`). */
        preview: (form: FormData) => post<Data<StatementPreview>>(p('admin/bank-imports/preview'), form),
        /** Imports a statement (multipart: `file`, `encoding`, `mapping` as JSON). */
        create: (form: FormData) => post<Data<ImportView>>(p('admin/bank-imports'), form),
        list: () => get<Data<ImportSummary[]>>(p('admin/bank-imports')),
        get: (importId: string) => get<Data<ImportView>>(p('admin/bank-imports', importId)),
        confirm: (importId: string, lineIds?: string[]) =>
          post<ImportConfirmed>(p('admin/bank-imports', importId, 'confirm'), lineIds ? { lineIds } : {}),
        assign: (lineId: string, orderNo: string) =>
          post<Data<LineAssigned>>(p('admin/bank-lines', lineId, 'assign'), { orderNo }),
      },
      invoices: {
        /** E-invoices, newest first, by status and a search (issue 22). */
        list: (query: { status?: string; q?: string } = {}) => get<Data<AdminInvoice[]>>(p('admin/invoices'), query),
        /** A failed invoice (or its void/allowance) tried again at the next pass. */
        retry: (invoiceId: string) => post<Data<{ result: string }>>(p('admin/invoices', invoiceId, 'retry'), {}),
        settings: () => get<Data<InvoiceSettings>>(p('admin/invoice-settings')),
        saveSettings: (settings: Pick<InvoiceSettings, 'enabled' | 'itemNames'>) =>
          put<Data<InvoiceSettings>>(p('admin/invoice-settings'), settings),
        exportHref: (day: string) => apiHref.invoiceExport(day),
      },
      refunds: {
        list: () => get<Data<RefundRow[]>>(p('admin/refunds')),
        markRefunded: (paymentId: string, reference: string) =>
          post<Data<RefundRecorded>>(p('admin/refunds', paymentId, 'refunded'), { reference }),
        /** A card payment refunded through NewebPay (issue 22): all that is left, or `amountCents`. */
        throughGateway: (paymentId: string, body: { reason: string; amountCents?: number }) =>
          post<Data<CardRefunded>>(p('admin/payments', paymentId, 'refund'), body),
      },
      desk: {
        badges: () => get<{ data: DeskBadge[]; meta: { total: number; at: string } }>(p('admin/desk/badges')),
        verify: (code: string) => post<Data<DeskBadge>>(p('admin/desk/verify'), { code }),
        pickups: (batch: Infer<typeof PickupBatch>) => post<Data<PickupResult[]>>(p('admin/desk/pickups'), batch),
        photoUrl: apiHref.deskPhoto,
      },
      exportHref: apiHref.export,
      team: {
        list: () => get<Data<TeamMember[]>>(p('admin/team')),
        changes: () => get<Data<TeamChange[]>>(p('admin/team/changes')),
        invite: (email: string, role: Role) => post<Data<TeamInvited>>(p('admin/team'), { email, role }),
        changeRole: (email: string, role: Role) =>
          request<Data<TeamMember>>('PATCH', p('admin/team', email), { body: { role } }),
        remove: (email: string) => request<Data<TeamRemoved>>('DELETE', p('admin/team', email)),
      },
    },
  };
}

export type Endpoints = ReturnType<typeof endpoints>;
