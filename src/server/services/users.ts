import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { IdentityClaims } from '../identity/identity';

export type User = {
  id: string;
  subject: string;
  email: string;
  name: string | null;
  role: 'registrant' | 'organiser';
};

/**
 * Creates or refreshes the user behind an identity token. A small in-process cache keyed by the
 * claims keeps the hot path read-free; it holds nothing another instance would need (D14).
 */
export function createUserDirectory(db: Db, cacheSize = 5000) {
  const cache = new Map<string, User>();
  return {
    async fromClaims(claims: IdentityClaims): Promise<User> {
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
        .returning({ id: users.id, subject: users.subject, email: users.email, name: users.name, role: users.role });
      const user = row as User;
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      cache.set(key, user);
      return user;
    },
  };
}
export type UserDirectory = ReturnType<typeof createUserDirectory>;
