import { describe, expect, it, vi } from 'vitest';
import { withVerifyCache } from './verify-cache';

describe('withVerifyCache', () => {
  const claims = (exp: number) => ({ sub: 's', email: 'a@b.c', name: null, exp });

  it('verifies a token once while it is valid, and again once it expired or the ttl passed', async () => {
    let t = 1_000_000;
    const verify = vi.fn(async (token: string) => claims(token === 'short' ? 1_010 : 99_999_999));
    const client = withVerifyCache({ verify, other: () => 'kept' }, { ttlMs: 60_000, now: () => t });
    expect(client.other()).toBe('kept');
    await client.verify('long');
    await client.verify('long');
    expect(verify).toHaveBeenCalledTimes(1);
    t += 60_001; // past the ttl
    await client.verify('long');
    expect(verify).toHaveBeenCalledTimes(2);
    await client.verify('short');
    t += 10_000; // past the token's exp (1 010 s)
    await client.verify('short');
    expect(verify).toHaveBeenCalledTimes(4);
  });

  it('keeps no failure: a refused token is checked again every time', async () => {
    const verify = vi.fn(async (token: string) => {
      throw new Error(`bad signature: ${token}`);
    });
    const client = withVerifyCache({ verify });
    await expect(client.verify('x')).rejects.toThrow('bad signature');
    await expect(client.verify('x')).rejects.toThrow('bad signature');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('is bounded: the oldest entry goes first', async () => {
    const verify = vi.fn(async (token: string) => claims(token ? 99_999_999_999 : 0));
    const client = withVerifyCache({ verify }, { max: 2 });
    await client.verify('a');
    await client.verify('b');
    await client.verify('c'); // evicts a
    await client.verify('b');
    expect(verify).toHaveBeenCalledTimes(3);
    await client.verify('a');
    expect(verify).toHaveBeenCalledTimes(4);
  });
});
