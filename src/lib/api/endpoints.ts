import type { BadgeApplication } from '@domain/badges';
import type { ExhibitorFilters } from '@domain/exhibitor-directory';
import type { ExportDataset, ExportFormat } from '@domain/exports';
import type { OrderPaymentUpdate } from '@domain/payments';
import type { UploadPurpose } from '@domain/uploads';
import type { ExhibitorMeetingPrefs, MeetingAction } from '@domain/meetings';
import type {
  Badge,
  BadgeLinkCheck,
  BadgeOrderPlaced,
  Data,
  DirectoryExhibitor,
  DirectoryPage,
  Event,
  Me,
  Order,
  PageVersion,
  Paged,
  PickupSlot,
  PitchingUsage,
  PlacedOrder,
  PublicEdition,
  Registration,
  SessionEnd,
  SessionRefresh,
  TradeInfo,
  UploadedFile,
  Work,
  Meeting,
  MeetingCheckInResult,
  MeetingSlot,
  MyMeetings,
} from '@domain/contract';
import { verbs, type Transport, type UploadOptions } from './transport';

/*
 * One typed function per endpoint of the registration API (decision 043). Each answers the body
 * the API sends, camelCased (`{ data }`, or `{ data, meta }` for a page); the path literals of
 * /api/v1 live here and nowhere else in the UI (tests/lint/api-paths.test.ts).
 */

/** The API's mount point. */
export const API_BASE = '/api/v1';
/** A path under the API's mount point, each part after the first URI-encoded. */
export const apiPath = (...parts: (string | number)[]) =>
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
const p = apiPath;

/**
 * The registrants' endpoints: what the wizards, pay pages and account islands call. The back
 * office's are in ./admin-endpoints.ts, kept out of the registrants' islands' chunks (decision 062).
 */
export function endpoints({ request, upload }: Transport) {
  const { get, post, put } = verbs(request);

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
      /** The signed-in user's badge of the current edition, or of `edition` (a slug; 404: none yet). */
      get: (edition?: string) => get<Data<Badge>>(p('demonstration'), edition ? { edition } : undefined),
      /** A one-time link's state, without claiming it. */
      checkLink: (code: string, type?: string) => get<Data<BadgeLinkCheck>>(p('demonstration/link'), { code, type }),
      /** Claims a free badge through a one-time link. */
      claim: (code: string, type: string | undefined, application: BadgeApplication) =>
        put<Data<Badge | null>>(p('demonstration'), application, { code, type }),
      /** Applies for a Professional badge: the order to pay. */
      apply: (application: BadgeApplication) => post<BadgeOrderPlaced>(p('demonstration_order'), application),
      /** The badge order of the current edition, or of `edition` (a slug; 404: none). */
      order: (edition?: string) => get<Data<Order>>(p('demonstration_order'), edition ? { edition } : undefined),
      /** Remittance and invoice details of the badge order: answers the order itself. */
      updateOrder: (update: OrderPaymentUpdate) => put<Order>(p('demonstration_order'), update),
    },
    payments: {
      /** The encrypted trade info the pay page posts to the card gateway (starts a card attempt). */
      tradeInfo: (orderId: string, lang?: string) => get<Data<TradeInfo>>(p('payment', orderId, 'tradeinfo'), { lang }),
      /** An ATM virtual account's trade info (issue 22): the same gateway form, VACC instead of a card. */
      atmTradeInfo: (orderId: string, lang?: string) =>
        get<Data<TradeInfo>>(p('payment', orderId, 'atm-tradeinfo'), { lang }),
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
  };
}

export type Endpoints = ReturnType<typeof endpoints>;
