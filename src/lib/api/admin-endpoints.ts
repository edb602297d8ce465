import type { Infer } from 'superstruct';
import type { AdminOrderQuery } from '@domain/admin';
import type { BadgeLinkBatchInput, BadgeLinkQuery } from '@domain/badge-links';
import type { PickupBatch } from '@domain/desk-requests';
import type { Role } from '@domain/roles';
import type { EventCreate, EventDuplicate, EventPatch, StatusChange } from '@domain/event-catalogue';
import type { EditionCreate, EditionSettingsPatch, NextEdition, PickupSlotInput } from '@domain/editions';
import type { AdminInvoice, InvoiceSettings } from '@domain/contract/invoices';
import type { MeetingMove, MeetingSettingsInput } from '@domain/meetings';
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
  BadgeLinkBatchCreated,
  BadgeLinkRevoked,
  BatchUnusedRevoked,
  BulkApproveResult,
  Data,
  DeskBadge,
  ImportConfirmed,
  ImportSummary,
  ImportView,
  LineAssigned,
  OrderActionResult,
  Organiser,
  PickupResult,
  PickupSlot,
  CardRefunded,
  CardRefundPreview,
  EditionPaymentSettings,
  RefundRecorded,
  RefundRow,
  StatementPreview,
  TeamChange,
  TeamInvited,
  TeamMember,
  TeamRemoved,
  TransferReturned,
  TransferRow,
  AdminMeeting,
  AdminMeetings,
  MeetingCheckInResult,
} from '@domain/contract';
import { verbs, type Transport } from './transport';
import { apiHref, apiPath as p } from './endpoints';

/*
 * The back office's endpoints (organisers: /api/v1/admin/...), one typed function each like
 * ./endpoints.ts. Apart from the registrants' endpoints so that the wizards', pay pages' and
 * account islands' shared chunk does not carry them (DESIGN §4 budget, decision 062): the
 * back-office islands get them through @lib/admin-api.client, the SSR pages through the full
 * client of ./index.ts (`api.admin`).
 */

/** An organiser's action on one order. */
export type AdminOrderAction = 'approve' | 'start-review' | 'reject' | 'cancel' | 'mark-paid';

export function adminEndpoints({ request }: Transport) {
  const { get, post, put } = verbs(request);

  return {
    meetings: {
      get: () => get<Data<AdminMeetings>>(p('admin/meetings')),
      saveSettings: (settings: MeetingSettingsInput) =>
        put<Data<{ saved: boolean }>>(p('admin/meetings/settings'), settings),
      checkIn: (code: string, attendance: 'present' | 'no_show') =>
        post<Data<MeetingCheckInResult>>(p('admin/meetings/check-in'), { code, attendance }),
      move: (meetingId: string, target: MeetingMove) =>
        post<Data<AdminMeeting>>(p('admin/meetings', meetingId, 'move'), target),
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
      changeStatus: (slug: string, change: StatusChange) => post<Data<AdminEvent>>(p('admin/events', slug, change), {}),
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
      /** The current edition's ATM setting (issue 22): virtual accounts, declared transfers, or the configuration's. */
      paymentSettings: () => get<Data<EditionPaymentSettings>>(p('admin/editions/current/payment-settings')),
      updatePaymentSettings: (settings: { atmEnabled: boolean | null }) =>
        put<Data<EditionPaymentSettings>>(p('admin/editions/current/payment-settings'), settings),
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
      /** What a card refund of the payment would do (the gateway's call, the invoice's side). */
      preview: (paymentId: string) => get<Data<CardRefundPreview>>(p('admin/payments', paymentId, 'refund-preview')),
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
  };
}

export type AdminEndpoints = ReturnType<typeof adminEndpoints>;
