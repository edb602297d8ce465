import { describe, expect, it, vi } from 'vitest';
import { mergeProps } from './radix-slot';

describe('Radix Slot shim', () => {
  it('merges the slot’s props under the child’s as Radix does', () => {
    const order: string[] = [];
    const merged = mergeProps(
      { onClick: () => order.push('slot'), className: 'a', style: { color: 'red', top: 0 }, id: 's', title: 'slot' },
      { onClick: () => order.push('child'), className: 'b', style: { color: 'blue' }, title: 'child' },
    );
    (merged.onClick as () => void)();
    expect(order).toEqual(['child', 'slot']);
    expect(merged.className).toBe('a b');
    expect(merged.style).toEqual({ color: 'blue', top: 0 });
    expect(merged.id).toBe('s');
    expect(merged.title).toBe('child');
  });
  it('keeps the slot’s handler when the child has none', () => {
    const slot = vi.fn();
    expect(mergeProps({ onKeyDown: slot }, { onKeyDown: undefined }).onKeyDown).toBe(slot);
  });
});
