/** An order of the approvals queue, as GET /api/v1/admin/approvals lists it (camelCase). */
export type ApprovalRow = {
  orderNo: string;
  registrationType: string;
  approvalStatus: 'pending_approval' | 'auditing';
  paymentStatus: 'pending' | 'free';
  currency: string;
  amountCents: number;
  createdAt: string;
  /** What the organiser saw (order and form times): a bulk approval refuses an order changed since. */
  version: string;
  email: string;
  name: string | null;
  eventSlug: string;
  eventName: string;
  company: string | null;
  companyOther: string | null;
  badgeIdentity: string | null;
  works: number;
};

export type ApprovalQueuePage = { data: ApprovalRow[]; meta: { total: number; shown: number } };
