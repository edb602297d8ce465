import type { IdentityClaims } from './identity';

type Verifier<C extends { exp: number }> = { verify(token: string): Promise<C> };

/**
 * Remembers tokens that verified (decision 024): an ES256 signature check costs ~0.3 ms of CPU,
 * a tenth of an SSR page on PostgreSQL, and a signed-in visitor sends the same token on every
 * request. An entry is kept until the token expires and at most `ttlMs` (a key withdrawn from
 * the provider's key set stops verifying within that time); only successes are kept, so a bad
 * token is checked (and refused) every time. Bounded: the oldest entries go first.
 */
export function withVerifyCache<C extends { exp: number } = IdentityClaims, T extends Verifier<C> = Verifier<C>>(
  client: T,
  options: { ttlMs?: number; max?: number; now?: () => number } = {},
): T {
  const ttl = options.ttlMs ?? 5 * 60_000;
  const max = options.max ?? 10_000;
  const now = options.now ?? Date.now;
  const verified = new Map<string, { claims: C; until: number }>();
  const verify = async (token: string): Promise<C> => {
    const hit = verified.get(token);
    if (hit && hit.until > now()) return hit.claims;
    if (hit) verified.delete(token);
    const claims = await client.verify(token);
    if (verified.size >= max) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, until: Math.min(claims.exp * 1000, now() + ttl) });
    return claims;
  };
  return Object.assign(Object.create(Object.getPrototypeOf(client) as object) as T, client, { verify });
}
