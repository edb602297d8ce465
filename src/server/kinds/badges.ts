/**
 * The badge hooks of the kinds: the badge of a badge order (created once it leaves unpaid,
 * dropped when a declared transfer is sent back), and the badges an order includes (Market,
 * pitching: one-time links once it is settled).
 */
import { DomainError } from '@domain/errors';
import { BADGE_CREATING_STATUSES } from '@domain/order-lifecycle';
import { dropUnissuedBadge, ensureBadge } from '../badges/badge-issue';
import { includesBadgesNow, issueIncludedBadges } from '../badges/included-badges';
import type { OrderHook } from './parts';

const creates = (status: string) => (BADGE_CREATING_STATUSES as readonly string[]).includes(status);

/**
 * A badge order's badge: made from the form once the order leaves unpaid (checking, paid, free).
 * ensureBadge is silent when the user or e-mail has another badge since: a new application is
 * refused (`demonstration_exists`), a payment is the order being superseded (the charge refunded).
 * Back to unpaid from checking (a transfer sent back), the badge waits for the next declaration.
 */
export const badgeOfOrder: OrderHook = async ({ tx, before, after, happened, pickupSecret }) => {
  if (creates(after.paymentStatus)) {
    const created = await ensureBadge(tx, after, pickupSecret);
    if (!created && happened === 'placed') throw new DomainError('demonstration_exists');
    if (!created && happened === 'paid') throw new DomainError('order_superseded');
  }
  if (before?.paymentStatus === 'checking' && after.paymentStatus === 'pending') await dropUnissuedBadge(tx, after.id);
};

/** The badges an order includes, issued as one-time links when it becomes settled (idempotent). */
export const includedBadges: OrderHook = async ({ tx, event, before, after, now }) => {
  if (before && includesBadgesNow(before)) return;
  await issueIncludedBadges(tx, after, event, now);
};
