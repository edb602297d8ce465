/*
 * The back office's roles (issue 21) and what each may do. A role belongs to an e-mail (the team:
 * `organisers`, or ORGANISER_EMAILS, whose people are admins); every back-office route and page
 * names the right it needs, and `can` is the one table that answers it (API and pages alike).
 */

export const ROLES = ['admin', 'finance', 'reviewer', 'desk', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a back-office route or page needs:
 * - `read`: see orders, registrants, lists and counts (everyone but the desk);
 * - `review`: approve, reject, start a review;
 * - `money`: transfers, statement imports, mark paid, refunds, invoices, exports;
 * - `orders`: cancel an order, badge links, transfers of badges between people;
 * - `desk`: the badge desk (and the meeting tables' check-in);
 * - `edition`: the edition, its settings, events, pick-up schedule, meetings set-up;
 * - `team`: invite, change roles, remove.
 */
export const RIGHTS = ['read', 'review', 'money', 'orders', 'desk', 'edition', 'team'] as const;
export type Right = (typeof RIGHTS)[number];

const TABLE: Record<Role, readonly Right[]> = {
  admin: RIGHTS,
  finance: ['read', 'money'],
  reviewer: ['read', 'review'],
  desk: ['desk'],
  viewer: ['read'],
};

/** Whether `role` has `right`. */
export const can = (role: Role, right: Right): boolean => TABLE[role].includes(right);

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);
