import { atmFits } from '../payments/vacc';
import { linkTypeOf, type BadgeIdentity } from '@domain/badges';
/**
 * Wire views of the API: rows from the services, turned into spec §3 shapes in the caller's
 * language. Localised names are chosen here, in the API layer, never in services.
 */
import { registrationWindowState } from '@domain/events';
import { kindOf } from '@domain/kinds';
import type { Event, Order, PickupSlot, Sendable } from '@domain/contract';
import type { Locale } from '@i18n/locales';
import { DEFAULT_EVENT_IMAGE, EVENT_IMAGES, VENUE_ADDRESS } from '../db/seed';
import type { EventRow } from '../events/events';
import { eventImagePath } from '../events/event-images';
import type { OrderViewRecord } from '../orders/orders';
import type { PickupSlotRow } from '../badges/pickup-schedule';

/** The name of an event in `locale`. */
export const eventName = (event: Pick<EventRow, 'nameEn' | 'nameZh'>, locale: Locale) =>
  locale === 'zh-TW' ? event.nameZh : event.nameEn;

/**
 * A row that names its event in both languages (`eventNameEn`, `eventNameZh`), as a back-office
 * list sends it: one `eventName` in `locale`, the English one where the Chinese is empty.
 */
export function withEventName<R extends { eventNameEn: string; eventNameZh: string }>(row: R, locale: Locale) {
  const { eventNameEn, eventNameZh, ...rest } = row;
  return { ...rest, eventName: locale === 'zh-TW' ? eventNameZh || eventNameEn : eventNameEn };
}

/** A back-office list's rows, each naming its event in `locale` (`withEventName`). */
export const withEventNames = <R extends { eventNameEn: string; eventNameZh: string }>(rows: R[], locale: Locale) =>
  rows.map((row) => withEventName(row, locale));

/** An event's image: its own (resized), else the seed's per-slug image or the conference's. */
export const eventImage = (row: Pick<EventRow, 'imageFileId' | 'slug'>, width = 1280) =>
  row.imageFileId ? eventImagePath(row.imageFileId, width) : (EVENT_IMAGES[row.slug] ?? DEFAULT_EVENT_IMAGE);

/** The wire view of an event, localised for `locale` (both names are kept). */
export function eventView(row: EventRow, locale: Locale, now: Date) {
  const zh = locale === 'zh-TW';
  return {
    id: row.id,
    slug: row.slug,
    type: row.type,
    name: zh ? row.nameZh : row.nameEn,
    nameEn: row.nameEn,
    nameZh: row.nameZh,
    description: zh ? row.descriptionZh : row.descriptionEn,
    startTime: row.startTime,
    endAt: row.endAt,
    location: zh ? row.locationZh : row.locationEn,
    // Its own address, else the edition's venue.
    address:
      kindOf(row.type).attendance === 'online'
        ? null
        : ((zh ? row.addressZh : row.addressEn) ?? VENUE_ADDRESS[zh ? 'zh' : 'en']),
    image: eventImage(row),
    registerStartAt: row.registerStartAt,
    registerEndAt: row.registerEndAt,
    formModifyExpiresAt: row.formModifyExpiresAt,
    priceCentsTwd: row.priceCentsTwd,
    priceCentsUsd: row.priceCentsUsd,
    originalPriceCentsTwd: row.originalPriceCentsTwd,
    capacity: row.capacity,
    seatsLeft: row.capacity === null ? null : Math.max(0, row.capacity - row.seatsTaken),
    requiresApproval: row.requiresApproval,
    registrationState: registrationWindowState(row, now),
    /** Online events: where the live stream is watched; null until the organiser sets it (the live page says "Coming soon..."). */
    liveStreamUrl: kindOf(row.type).attendance === 'online' ? row.liveStreamUrl : null,
  } satisfies Sendable<Event>;
}

/**
 * The wire view of an order (spec §3 Order). `payment` (charged orders only) is assembled from
 * the price and payment choice fixed on the order and the outcome of its latest card attempt.
 */
export function orderView(row: OrderViewRecord, locale: Locale) {
  const { order, event, receipt, card, contents } = row;
  const chosen = order.paymentType !== null;
  const zh = locale === 'zh-TW';
  return {
    orderId: order.id,
    id: order.id,
    orderNo: order.orderNo,
    eventName: zh ? event.nameZh : event.nameEn,
    eventSlug: event.slug,
    eventType: event.type,
    eventTime: event.startTime,
    eventEndAt: event.endAt,
    eventLocation: zh ? event.locationZh : event.locationEn,
    registrationType: order.registrationType,
    formModifyExpiresAt: event.formModifyExpiresAt,
    quantity: order.quantity,
    paymentStatus: order.paymentStatus,
    paymentExpiresAt: order.paymentExpiresAt,
    approvalStatus: order.approvalStatus,
    rejectedReason: order.rejectedReason,
    registrationId: row.registrationId,
    currency: order.currency,
    amountCents: order.amountCents,
    payment:
      order.totalTwdCents > 0
        ? {
            type: order.paymentType,
            status: order.paymentStatus,
            dueDate: order.paymentExpiresAt,
            // Before a choice, both amounts on offer; after it, the one being paid.
            amountTwd: !chosen ? order.totalTwdCents : order.currency === 'TWD' ? order.amountCents : null,
            amountUsd: !chosen ? order.totalUsdCents : order.currency === 'USD' ? order.amountCents : null,
            unitPriceTwd: order.unitPriceTwdCents,
            unitPriceUsd: order.unitPriceUsdCents,
            remitter: order.remitter,
            senderBank: order.senderBank,
            lastFiveDigits: order.lastFiveDigits,
            // The organiser's message of a transfer sent back, while the order is unpaid again.
            transferReturnedMessage: order.paymentStatus === 'pending' ? order.transferReturnedMessage : null,
            gatewayStatus: card?.gatewayStatus ?? null,
            gatewayMessage: card?.gatewayMessage ?? null,
            gatewayAt: card?.gatewayAt ?? null,
            cardStartedAt: card?.createdAt ?? null,
            // One order's view only (issue 22): how ATM is paid, and the account handed out.
            ...(row.atm
              ? {
                  atmMode: !row.atm.virtualAccounts
                    ? ('declared' as const)
                    : atmFits(order.totalTwdCents)
                      ? ('virtual_account' as const)
                      : ('unavailable' as const),
                  virtualAccount: row.atm.account?.bankCode
                    ? {
                        bankCode: row.atm.account.bankCode,
                        accountNo: row.atm.account.accountNo ?? '',
                        amountCents: row.atm.account.amountCents,
                        expiresAt: row.atm.account.expiresAt,
                        status: row.atm.account.status,
                      }
                    : null,
                }
              : {}),
          }
        : null,
    receipt: receipt && {
      kind: receipt.kind,
      invoiceTitle: receipt.invoiceTitle,
      unifiedBusinessNumber: receipt.unifiedBusinessNumber,
      carrierType: receipt.carrierType,
      carrierNumber: receipt.carrierNumber,
      loveCode: receipt.loveCode,
    },
    contents: contents.map((c) => ({
      id: c.id,
      title: (zh ? c.titleZh : c.titleEn) || c.titleEn || c.titleZh,
      titleEn: c.titleEn,
      titleZh: c.titleZh,
      genre: c.genre,
      categoryId: c.categoryId,
    })),
    includedBadges: row.includedBadges && {
      count: row.includedBadges.count,
      links: row.includedBadges.links.map((l) => ({
        seq: l.seq,
        identity: l.identity,
        path: `/get-badge/${linkTypeOf(l.identity as BadgeIdentity)}/${l.code}`,
        expiresAt: l.expiresAt,
        usedAt: l.usedAt,
        usedBy: l.usedBy,
      })),
    },
    // One order's view only: its event's edition, whose pick-up schedule its pages show (decision 068).
    ...(row.editionSlug !== undefined ? { editionSlug: row.editionSlug } : {}),
    // One order's view only: the money that went back (issue 22).
    ...(row.refunds
      ? {
          refunds: row.refunds.map((r) => ({
            amountCents: r.amountCents,
            currency: r.currency === 'USD' ? ('USD' as const) : ('TWD' as const),
            at: r.at,
            kind: r.kind as 'cancel' | 'refund' | 'manual',
            reason: r.reason,
          })),
        }
      : {}),
    createdAt: order.createdAt,
  } satisfies Sendable<Order>;
}

/** The wire view of a badge pick-up slot: the place in the caller's language, both kept. */
export function pickupSlotView(row: PickupSlotRow, locale: Locale) {
  return {
    firstDay: row.firstDay,
    lastDay: row.lastDay,
    opensAt: row.opensAt,
    closesAt: row.closesAt,
    place: locale === 'zh-TW' ? row.placeZh : row.placeEn,
    placeEn: row.placeEn,
    placeZh: row.placeZh,
  } satisfies Sendable<PickupSlot>;
}
