/*
 * The API's wire contract, declared once (decision 043): what each endpoint takes and answers,
 * as code sees it (camelCase; the transport converts to and from snake_case on the wire). The
 * server's views `satisfies` these types (Sendable), the client (@lib/api) returns them.
 */
export type * from './common';
export type * from './events';
export type * from './orders';
export type * from './badges';
export type * from './payments';
export type * from './market';
export type * from './pitching';
export type * from './user';
export type * from './admin';
export type * from './reconciliation';
export type * from './team';
export type * from './editions';
export type * from './invoices';
export type * from './meetings';
