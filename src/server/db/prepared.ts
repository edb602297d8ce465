import type { Db } from './client';

/**
 * Statements prepared once per database handle and name (decision 024): the SQL is built once
 * instead of on every call, and on PostgreSQL each is a named statement, parsed and planned once
 * per connection. For the hot paths only (sign-in checks, registration, order lists).
 */
const cache = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) byName.set(name, (statement = build(db)));
  return statement;
}
