/** The back office's sections, in the order of its navigation, and their paths (without the locale). */
export const ADMIN_SECTIONS = {
  home: '/admin',
  orders: '/admin/orders',
  approvals: '/admin/approvals',
  transfers: '/admin/transfers',
  desk: '/admin/desk',
  badgeLinks: '/admin/badge-links',
  events: '/admin/events',
  exports: '/admin/exports',
  refunds: '/admin/refunds',
  meetings: '/admin/meetings',
} as const;
export type AdminSection = keyof typeof ADMIN_SECTIONS;

/** The back office's page of one order. */
export const adminOrderPath = (orderNo: string) => `/admin/orders/${encodeURIComponent(orderNo)}`;
