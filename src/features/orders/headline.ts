import type { HeadlineStatus } from '@domain/orders';

/** The colours of an order's headline pill (HeadlineStatus.astro, the order list). */
export const HEADLINE_TONE: Record<HeadlineStatus, string> = {
  rejected: 'bg-red-100 text-red-900',
  cancelled: 'bg-neutral-200 text-neutral-800',
  pending_approval: 'bg-amber-100 text-amber-900',
  checking: 'bg-sky-100 text-sky-900',
  awaiting_payment: 'bg-amber-100 text-amber-900',
  completed: 'bg-green-100 text-green-900',
};
