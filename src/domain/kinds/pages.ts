/**
 * The pages a kind leads to (paths without the locale prefix): an order's own pages (summary,
 * pay, processing, pending), where each state goes, and where a registration starts.
 */
import { kindOf, kindOfRegistrationType } from './index';
import type { EventType } from './types';

/** An order's summary page (the order list links each order there). */
export const summaryPath = (order: { orderId: string; eventSlug: string }) =>
  `/events/${encodeURIComponent(order.eventSlug)}/registrations/${encodeURIComponent(order.orderId)}`;

/** The pages of an order. */
export function orderPages(order: { orderId: string; eventSlug: string; registrationType: string }) {
  const summary = summaryPath(order);
  const k = kindOfRegistrationType(order.registrationType);
  const badge = k?.pages === 'badge';
  const base = badge ? `/badges/${encodeURIComponent(order.orderId)}` : summary;
  return {
    summary,
    pay: `${base}/pay`,
    processing: `${base}/processing`,
    pending: `${summary}/pending`,
    /** Where a settled order goes: the badge page for badges, else the summary. */
    done: badge ? '/account/badge' : summary,
    /** Where to register again (an order loader's 404, spec §8). */
    register: registerPath({ type: k?.eventType, slug: order.eventSlug }),
  };
}

/** Where a registration for an event starts: the badge application for badge kinds, else its wizard. */
export function registerPath(event: { type: EventType | undefined; slug: string }) {
  return event.type && kindOf(event.type).pages === 'badge'
    ? '/badges/new'
    : `/events/${encodeURIComponent(event.slug)}/registrations/new`;
}

/**
 * Approval before payment (spec §4 Market online): until the organiser approves, an order of a
 * kind with a pending page is shown there; its summary, pay and processing pages send the
 * registrant to it (the answer: that path). Undefined: go on.
 */
export function approvalGate(order: {
  orderId: string;
  eventSlug: string;
  registrationType: string;
  approvalStatus: string | null;
}): string | undefined {
  const k = kindOfRegistrationType(order.registrationType);
  if (!k?.pendingPage || order.approvalStatus === 'approved') return undefined;
  return orderPages(order).pending;
}

/** Where the pending page sends an approved order: a charged one still unpaid to pay, anything else to the summary. */
export function afterApproval(order: {
  orderId: string;
  eventSlug: string;
  registrationType: string;
  paymentStatus: string;
  amountCents: number;
}): string {
  const pages = orderPages(order);
  return order.paymentStatus === 'pending' && order.amountCents > 0 ? pages.pay : pages.summary;
}
