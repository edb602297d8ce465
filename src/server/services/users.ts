import { sql } from 'drizzle-orm';
import { hasNul } from '@domain/validation';
import { nulRefusal } from '../api/nul-guard';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { IdentityClaims } from '../identity/identity';

export type User = {
  id: string;
  subject: string;
  email: string;
  name: string | null;
};

/**
 * Creates or refreshes the user behind an identity token. A small in-process cache keyed by the
 * claims keeps the hot path read-free; it holds nothing another instance would need (D14).
 */
export function createUserDirectory(db: Db, cacheSize = 5000) {
  const cache = new Map<string, User>();
  return {
    async fromClaims(claims: IdentityClaims): Promise<User> {
      // A validly signed token can still carry a NUL, which PostgreSQL refuses in text: the
      // request is refused as invalid input naming the claim (a 500 otherwise). Signing in
      // again would give the same claims, so this is a 400, not a 401.
      const withNul = (['sub', 'email', 'name'] as const).filter((k) => hasNul(String(claims[k] ?? '')));
      if (withNul.length) throw nulRefusal(withNul.map((k) => `token.${k}`));
      const key = `${claims.sub}\u0000${claims.email}\u0000${claims.name ?? ''}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const [row] = await db
        .insert(users)
        .values({ subject: claims.sub, email: claims.email, name: claims.name })
        .onConflictDoUpdate({
          target: users.subject,
          set: { email: claims.email, name: claims.name, updatedAt: sql`now()` },
        })
        .returning({ id: users.id, subject: users.subject, email: users.email, name: users.name });
      const user = row as User;
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      cache.set(key, user);
      return user;
    },
  };
}
export type UserDirectory = ReturnType<typeof createUserDirectory>;
