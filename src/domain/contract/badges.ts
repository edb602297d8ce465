/**
 * Badges on the wire (decision 043; "demonstration" in the paths, spec §7): the badge, the
 * one-time link check, the pick-up schedule (events.ts).
 */
import type { BadgeIdentity } from '@domain/badges';
import type { Invoice } from './invoices';

/** The badge as the API client sees it (spec §3 Badge): `GET /demonstration`, `PUT /demonstration`. */
export type Badge = {
  identity: BadgeIdentity;
  personalPhotoFile: { url: string; name: string } | null;
  nameZh: string;
  nameEn: string;
  companyNameZh: string;
  companyNameEn: string;
  /** Base64 PNG; null until the order is paid (or free). */
  qrCodeImage: string | null;
  orderId: string;
  orderNo: string;
  eventSlug: string;
  /** The order's edition (issue 21): its pick-up schedule and settings are the badge page's; null before editions. */
  editionSlug: string | null;
  paymentStatus: string;
  payment: {
    type: string | null;
    status: string;
    amountTwd: number | null;
    amountUsd: number | null;
    currency: string;
    amountCents: number;
    /** Transfer details as the registrant declared them (null for card payments). */
    remitter: string | null;
    senderBank: string | null;
    lastFiveDigits: string | null;
  } | null;
  pickedUpAt: string | null;
  receipt: { kind: string; invoiceTitle: string | null; unifiedBusinessNumber: string | null } | null;
  /** The badge order's e-invoice once issued (issue 22). */
  invoice?: Invoice | null;
};

/** `GET /demonstration/link?code=&type=`: a one-time link's state, without claiming it. */
export type BadgeLinkCheck = {
  state: 'valid' | 'claimed';
  identity: BadgeIdentity;
  linkType: string;
  expiresAt: string;
};
