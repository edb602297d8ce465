/*
 * The wire contract's shared shapes (decision 043): envelopes and the rule that lets a server
 * view hand over a Date where the contract says an ISO string (the transport serialises it).
 */

/** A single answer: `{ data }`. */
export type Data<T> = { data: T };

/** A page of a list: the rows and where they are in the whole. */
export type PageMeta = { page: number; limit: number; total: number };
export type Paged<T> = { data: T[]; meta: PageMeta };

/** The error body of every refusal (spec §8): `code`, `message`, the same text as `error`, and details. */
export type ErrorBody = { code: string; message: string; error: string } & Record<string, unknown>;

/**
 * What a server view may hand the transport for a contract type `T`: the same shape, with a
 * `Date` accepted wherever `T` has a string (sent as its ISO text) and readonly arrays accepted.
 * A server view `satisfies Sendable<T>`, so a change that breaks the contract fails typecheck.
 */
export type Sendable<T> = T extends string
  ? T | Date
  : T extends readonly (infer U)[]
    ? readonly Sendable<U>[]
    : T extends object
      ? { [K in keyof T]: Sendable<T[K]> }
      : T;
