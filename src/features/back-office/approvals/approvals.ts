/** The approvals queue on the wire: declared in the contract (decision 043). */
export type { ApprovalQueuePage, ApprovalRow } from '@domain/contract/admin';
