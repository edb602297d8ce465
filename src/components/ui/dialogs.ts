/*
 * The islands' dialogs, built on Radix Dialog, as one lazily loaded chunk: the first confirm or
 * alert a page shows loads Radix once for both (DESIGN §4 budget, docs/decisions/006). Import
 * them through `loadDialogs`, never statically from an island.
 */
export { AlertDialog } from './AlertDialog';
export { ConfirmDialog } from './ConfirmDialog';
