import { eq, sql } from 'drizzle-orm';
import { textIssues } from '@domain/validation';
import { nulRefusal } from '../security/nul-guard';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { users } from '../db/schema';
import type { IdentityClaims } from './identity';

export type User = {
  id: string;
  subject: string;
  email: string;
  name: string | null;
};

/**
 * How long a user read from the database is trusted by this instance: a role granted on another
 * instance (or by an operator command) applies here within this time.
 */
const CACHE_MS = 60_000;

/**
 * Creates or refreshes the user behind an identity token. A small in-process cache keyed by the
 * claims keeps the hot path read-free; it holds nothing another instance would need (D14), and
 * its entries expire (CACHE_MS), so a change made elsewhere is seen within a minute.
 */
export function createUserDirectory(db: Db, cacheSize = 5000) {
  const cache = new Map<string, { user: User; at: number }>();
  const remember = (key: string, user: User) => {
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
    cache.set(key, { user, at: Date.now() });
  };
  return {
    async fromClaims(claims: IdentityClaims): Promise<User> {
      // A validly signed token can still carry a NUL or a lone surrogate, which no text column
      // stores: the request is refused as invalid input naming the claim (a 500 otherwise).
      // Signing in again would give the same claims, so this is a 400, not a 401.
      const bad = textIssues({ sub: claims.sub, email: claims.email, name: claims.name ?? '' });
      if (bad.length) throw nulRefusal(bad.map((issue) => ({ ...issue, path: `token.${issue.path}` })));
      const key = `${claims.sub}\u0000${claims.email}\u0000${claims.name ?? ''}`;
      const hit = cache.get(key);
      if (hit && hit.at > Date.now() - CACHE_MS) return hit.user;
      // Most tokens belong to a user already recorded as the token says: a read, not a write.
      const [known] = await prepared(db, 'user_by_subject', (d) =>
        d
          .select({ id: users.id, subject: users.subject, email: users.email, name: users.name, role: users.role })
          .from(users)
          .where(eq(users.subject, sql.placeholder('subject')))
          .limit(1)
          .prepare('user_by_subject'),
      ).execute({ subject: claims.sub });
      if (known && known.email === claims.email && known.name === claims.name) {
        remember(key, known as User);
        return known as User;
      }
      const [row] = await db
        .insert(users)
        .values({ subject: claims.sub, email: claims.email, name: claims.name })
        .onConflictDoUpdate({
          target: users.subject,
          set: { email: claims.email, name: claims.name, updatedAt: sql`now()` },
        })
        .returning({ id: users.id, subject: users.subject, email: users.email, name: users.name });
      const user = row as User;
      remember(key, user);
      return user;
    },
  };
}
export type UserDirectory = ReturnType<typeof createUserDirectory>;

/**
 * The version of everything a user's pages show (decision 032), as a column of a query on
 * `users`: the user's `data_version`, which triggers bump on every change to their orders and what
 * hangs on them, and the events' newest `updated_at` (bumped when a shown field of an event
 * changes), microseconds kept, so two changes within a millisecond are two versions.
 */
export const PAGE_VERSION = sql<string>`${users.dataVersion}::text || '@' || coalesce((select max(e.updated_at)::text from events e), '')`;

/** The page version of a user (see PAGE_VERSION); undefined for an unknown user. */
export async function pageVersion(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ version: PAGE_VERSION }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.version;
}
