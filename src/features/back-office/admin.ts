import { can, type Right, type Role } from '@domain/roles';

/** The back office's sections, in the order of its navigation, and their paths (without the locale). */
export const ADMIN_SECTIONS = {
  home: '/admin',
  orders: '/admin/orders',
  approvals: '/admin/approvals',
  transfers: '/admin/transfers',
  desk: '/admin/desk',
  badgeLinks: '/admin/badge-links',
  events: '/admin/events',
  edition: '/admin/edition',
  exports: '/admin/exports',
  refunds: '/admin/refunds',
  team: '/admin/team',
  invoices: '/admin/invoices',
  meetings: '/admin/meetings',
} as const;
export type AdminSection = keyof typeof ADMIN_SECTIONS;

/** The right each section's page names (issue 21): the navigation shows a role only what it can open. */
export const SECTION_RIGHTS: Record<AdminSection, Right> = {
  home: 'read',
  orders: 'read',
  approvals: 'review',
  transfers: 'money',
  desk: 'desk',
  badgeLinks: 'orders',
  events: 'read',
  exports: 'money',
  refunds: 'money',
  team: 'team',
  edition: 'read',
  invoices: 'money',
  meetings: 'edition',
};

/** The sections `role` can open, in the navigation's order. */
export const sectionsOf = (role: Role): AdminSection[] =>
  (Object.keys(ADMIN_SECTIONS) as AdminSection[]).filter((s) => can(role, SECTION_RIGHTS[s]));

/** The back office's page of one order. */
export const adminOrderPath = (orderNo: string) => `/admin/orders/${encodeURIComponent(orderNo)}`;
