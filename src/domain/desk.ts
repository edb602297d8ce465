import type { BadgeIdentity } from './badges';
import type { ApprovalStatus, PaymentStatus } from './order-lifecycle';
import { isIssued } from './order-lifecycle';

/*
 * The badge desk (issue 11): organisers at the venue scan the badge's QR code, which carries the
 * signed pick-up code `TCCF1.<badge id>.<signature>`, and hand the badge out. The desk keeps
 * working offline, so the rules here are shared by the desk in the browser and the API. (The
 * request structs are in desk-requests.ts: the desk's island stays without superstruct.)
 */

/** The prefix of pick-up codes (src/server/services/pickup.ts signs them). */
export const PICKUP_CODE_PREFIX = 'TCCF1';

/** The parts of a pick-up code as scanned, or null when it is not one (shape only: not verified). */
export function parsePickupCode(text: string): { badgeId: string; signature: string } | null {
  const parts = text.trim().split('.');
  if (parts.length !== 3) return null;
  const [prefix, badgeId, signature] = parts as [string, string, string];
  if (prefix !== PICKUP_CODE_PREFIX) return null;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(badgeId)) return null;
  if (!/^[A-Za-z0-9_-]{22}$/.test(signature)) return null;
  return { badgeId: badgeId.toLowerCase(), signature };
}

/**
 * Why a badge cannot be handed out, from its order's state; null when it can (paid or free).
 * A badge of a past (or another) edition than the desk's current one (decision 068), a transfer
 * still being checked, an order not paid, lapsed, canceled or rejected.
 */
export type DeskRefusal = 'past_edition' | 'transfer_checking' | 'unpaid' | 'overdue' | 'canceled' | 'rejected';

export function deskRefusal(
  order: {
    paymentStatus: PaymentStatus;
    approvalStatus: ApprovalStatus | null;
  },
  /** Whether the badge is of another edition than the current one (the desk hands out this fair's). */
  otherEdition = false,
): DeskRefusal | null {
  if (otherEdition) return 'past_edition';
  if (order.approvalStatus === 'rejected') return 'rejected';
  if (isIssued(order.paymentStatus)) return null;
  switch (order.paymentStatus) {
    case 'checking':
      return 'transfer_checking';
    case 'overdue':
      return 'overdue';
    case 'canceled':
      return 'canceled';
    default:
      return 'unpaid';
  }
}

/** A badge as the desk caches it (GET /api/v1/admin/desk/badges, camelCase). */
export type DeskBadge = {
  id: string;
  /** SHA-256 of the full pick-up code, base64url: the desk checks a scan without holding the codes. */
  codeHash: string;
  identity: BadgeIdentity;
  nameZh: string;
  nameEn: string;
  companyNameZh: string;
  companyNameEn: string;
  /** The registrant's sign-in e-mail and name, and the order (for a manual search). */
  email: string;
  name: string | null;
  orderNo: string;
  /** The thumbnail's URL (organisers only), or null without a photo. */
  photoUrl: string | null;
  refusal: DeskRefusal | null;
  pickedUpAt: string | null;
  pickedUpBy: string | null;
  pickedUpDesk: string | null;
};

/** The longest desk name (shown to other desks: "picked up at 10:02 by olivia@… at Desk A"). */
export const DESK_NAME_MAX = 40;
export const DESK_SYNC_MAX = 200;

/** One pick-up as a desk records it: its own id (idempotency), the badge, and when it happened (ISO). */
export type PickupItem = { id: string; badgeId: string; at: string };

/**
 * What the server made of one pick-up: `picked_up` (recorded now, or earlier under the same id),
 * `already_picked_up` (another pick-up came first: who, when and where are in the answer: a
 * conflict when the desk was offline), `refused` (the order is not issued: `refusal` says why),
 * `not_found` (no such badge).
 */
export type PickupOutcome = 'picked_up' | 'already_picked_up' | 'refused' | 'not_found';
export type PickupResult = {
  id: string;
  badgeId: string;
  outcome: PickupOutcome;
  refusal: DeskRefusal | null;
  /** The badge's pick-up as the server holds it (the first one), if any. */
  pickedUpAt: string | null;
  pickedUpBy: string | null;
  pickedUpDesk: string | null;
};

/** The desk's answer to a manual search: text of names, company, e-mail or order number. */
export function matchesSearch(badge: DeskBadge, query: string): boolean {
  const words = normalise(query).split(' ').filter(Boolean);
  if (words.length === 0) return false;
  const haystack = normalise(
    [
      badge.nameZh,
      badge.nameEn,
      badge.companyNameZh,
      badge.companyNameEn,
      badge.email,
      badge.name ?? '',
      badge.orderNo,
    ].join(' '),
  );
  return words.every((w) => haystack.includes(w));
}

/** Case, width and spacing folded (a full-width "Ａ" or "＠" typed on a Chinese keyboard matches). */
const normalise = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Up to `limit` badges matching a manual search, those not picked up first. */
export function searchBadges(badges: Iterable<DeskBadge>, query: string, limit = 20): DeskBadge[] {
  const found: DeskBadge[] = [];
  for (const b of badges) if (matchesSearch(b, query)) found.push(b);
  return found.sort((a, b) => Number(a.pickedUpAt !== null) - Number(b.pickedUpAt !== null)).slice(0, limit);
}
