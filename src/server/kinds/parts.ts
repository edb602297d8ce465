/**
 * The server side of a registration kind, as the order core and the registration service see it:
 * what a registration of the kind checks and stores before its order is placed, how its form is
 * edited, and the hooks it runs on every change of its orders' state. Each kind's parts are in
 * `./index.ts` (the table) and the family modules beside it.
 */
import type { DomainError } from '@domain/errors';
import type { RegistrationKind } from '@domain/kinds';
import type { RegistrationType } from '@domain/kinds/types';
import type { OrderEventKind } from '@domain/order-lifecycle';
import type { Db, Tx } from '../db/client';
import type { events, orders } from '../db/schema';

type EventRow = typeof events.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** A work as the order keeps it: a snapshot of the content site's work when the order was placed. */
export type WorkSnapshot = { id: number; titleEn: string; titleZh: string; genre: string; categoryId: number };
/** Resolves the signed-in user's selected works on the content site; refuses one that is not theirs (`work_not_found`). */
export type ResolveWorks = (ids: number[]) => Promise<WorkSnapshot[]>;

/** What a registration submitted besides the order: its stored form, contact info and works. */
export type OrderParts = {
  registrationType: RegistrationType;
  form: Record<string, unknown>;
  contact: Record<string, unknown> | null;
  contents: WorkSnapshot[];
  /** The works are pitching works: each is used by one live entry at a time. */
  pitchingWorks?: boolean;
  /** Items charged (one per work for pitching); 1 otherwise. */
  quantity?: number;
  /** Runs in the order's transaction once it exists (the applicant's quota, the entry's invoice). */
  within?: (tx: Tx, order: OrderRow) => Promise<void>;
  /** What a refused placement means for the kind (a work another entry holds…); null: not the kind's refusal. */
  refusal?: (error: unknown) => Promise<DomainError | null>;
};

/** A registration as the route validated it, with the registration type decided so far. */
export type PlaceInput = {
  userId: string;
  /** The registration type the request asked for, if any. */
  requested?: string | undefined;
  /** The kind's registration type for the request (the requested one, or the kind's default). */
  type: RegistrationType;
  /** The body, already validated with the kind's `body` struct. */
  body: unknown;
  resolveWorks?: ResolveWorks | undefined;
};

/** A change of an order's state, as the order core publishes it to the kind's hooks. */
export type OrderChange = {
  tx: Tx;
  event: EventRow;
  /** The order before the change; null when it was just placed. */
  before: OrderRow | null;
  after: OrderRow;
  /** What happened (the kind of the `order_events` row the change writes). */
  happened: OrderEventKind;
  now: Date;
  pickupSecret: string;
  /** The payload of the change's `order_events` row (a cancellation's reason…); absent when placed. */
  payload?: Record<string, unknown>;
};
/** A kind's hook: runs in the change's transaction, before its `order_events` row; a throw refuses the change. */
export type OrderHook = (change: OrderChange) => Promise<void>;

export type ServerKind = {
  /** Checks a registration of this kind and says what its order stores (POST /orders?event=…). Absent: badges (their own calls). */
  place?: (db: Db, kind: RegistrationKind, event: EventRow, input: PlaceInput) => Promise<OrderParts>;
  /** Checks an edited registration form (the kind's `form.struct`, validated) and splits what is stored. */
  editForm?: (
    db: Db,
    userId: string,
    form: unknown,
  ) => Promise<{
    form: Record<string, unknown>;
    contact: Record<string, unknown> | null;
    /** The exhibitor directory choice (Market), when the edit says it. */
    directoryListed?: boolean;
  }>;
  /** Run, in order, on every state change of this kind's orders, placing included. */
  onChange: readonly OrderHook[];
};
