/*
 * The back office's money screens (issue 11): transfers being checked, bank statement imports
 * (decision 026) and refunds due, as the API lists them (camelCase).
 */
import type { ImportLine } from '@domain/contract/reconciliation';

export type {
  ImportLine,
  ImportSummary,
  ImportView,
  LineOrder,
  RefundRow,
  StatementPreview,
  TransferRow,
} from '@domain/contract/reconciliation';

/** Lines an organiser may still pay an order from. */
export const isOpenLine = (line: Pick<ImportLine, 'kind' | 'outcome'>) =>
  line.kind === 'credit' && ['matched', 'ambiguous', 'unmatched'].includes(line.outcome);

/** The amount of a row in its currency. */
export const currencyOf = (c: string | null): 'TWD' | 'USD' => (c === 'USD' ? 'USD' : 'TWD');
