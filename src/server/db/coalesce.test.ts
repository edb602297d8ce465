import { describe, expect, it } from 'vitest';
import { coalescing } from './coalesce';

describe('coalescing (decision 067)', () => {
  it('sends a lone request at once, and those arriving while one is on its way together next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    const double = coalescing(async (items: number[]) => {
      batches.push(items);
      await gate;
      return items.map((i) => i * 2);
    });
    const first = double(1);
    await Promise.resolve();
    await Promise.resolve();
    // The first is on its way (waiting on the gate); these three wait for it, then go as one.
    const rest = [double(2), double(3), double(2)];
    const next = gate;
    gate = Promise.resolve();
    release();
    await next;
    expect(await first).toBe(2);
    expect(await Promise.all(rest)).toEqual([4, 6, 4]);
    expect(batches).toEqual([[1], [2, 3, 2]]);
  });

  it('rejects every request of a failed batch, and tries the next batch afresh', async () => {
    let calls = 0;
    const run = coalescing(async (items: string[]) => {
      calls++;
      if (calls === 1) throw new Error('database unavailable');
      return items.map((s) => s.toUpperCase());
    });
    const failed = await Promise.allSettled([run('a'), run('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await run('c')).toBe('C');
  });
});
