import { describe, expect, it } from 'vitest';
import { stillAvailable } from './works';

describe('works chosen in a kept draft', () => {
  it('keep the ones still on the content site, and the same array when none is gone', () => {
    const selected = [1, 2, 3];
    expect(stillAvailable(selected, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }])).toBe(selected);
    expect(stillAvailable(selected, [{ id: 3 }, { id: 1 }])).toEqual([1, 3]);
    expect(stillAvailable(selected, [])).toEqual([]);
  });
});
