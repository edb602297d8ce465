import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PickupResult } from '@domain/desk';
import { deskBadge } from '@domain/desk-fixtures';
import { applyResults, badgeMap, badgeState, hashCode } from './desk-state';

const badge = deskBadge;
const at = '2026-11-24T02:00:00.000Z';

describe('badge desk bookkeeping', () => {
  it('lays the queued pick-ups over the server list, without hiding an earlier pick-up', () => {
    const earlier = { pickedUpAt: '2026-11-24T01:00:00.000Z', pickedUpBy: 'b@x', pickedUpDesk: 'B' };
    const map = badgeMap(
      [badge('1'), badge('2', earlier)],
      [
        { id: 'p1', badgeId: '1', at, desk: 'A' },
        { id: 'p2', badgeId: '2', at, desk: 'A' },
      ],
      'me@x',
    );
    expect(map.get('1')).toMatchObject({ pickedUpAt: at, pickedUpBy: 'me@x', pickedUpDesk: 'A' });
    expect(map.get('2')).toMatchObject(earlier);
  });

  it('tells what to do with a badge', () => {
    expect(badgeState(badge('1'), new Set())).toBe('ready');
    expect(badgeState(badge('1', { pickedUpAt: at }), new Set())).toBe('picked_up');
    expect(badgeState(badge('1', { pickedUpAt: at }), new Set(['1']))).toBe('pending');
    expect(badgeState(badge('1', { refusal: 'canceled' }), new Set())).toBe('refused');
  });

  it("takes the server's pick-up for each badge and reports every pick-up it did not take", () => {
    const map = badgeMap([badge('1'), badge('2'), badge('3')], [], 'me@x');
    const sent = [
      { id: 'p1', badgeId: '1', at, desk: 'A' },
      { id: 'p2', badgeId: '2', at, desk: 'A' },
      { id: 'p3', badgeId: '3', at, desk: 'A' },
    ];
    const results: PickupResult[] = [
      {
        id: 'p1',
        badgeId: '1',
        outcome: 'picked_up',
        refusal: null,
        pickedUpAt: at,
        pickedUpBy: 'me@x',
        pickedUpDesk: 'A',
      },
      {
        id: 'p2',
        badgeId: '2',
        outcome: 'already_picked_up',
        refusal: null,
        pickedUpAt: '2026-11-24T01:00:00.000Z',
        pickedUpBy: 'b@x',
        pickedUpDesk: 'B',
      },
      {
        id: 'p3',
        badgeId: '3',
        outcome: 'refused',
        refusal: 'canceled',
        pickedUpAt: null,
        pickedUpBy: null,
        pickedUpDesk: null,
      },
    ];
    const { map: next, conflicts } = applyResults(map, sent, results);
    expect(next.get('1')).toMatchObject({ pickedUpDesk: 'A' });
    expect(next.get('2')).toMatchObject({ pickedUpDesk: 'B', pickedUpBy: 'b@x' });
    expect(next.get('3')).toMatchObject({ refusal: 'canceled', pickedUpAt: null });
    expect(conflicts.map((c) => [c.id, c.result.outcome, c.orderNo, c.desk])).toEqual([
      ['p2', 'already_picked_up', 'TC2', 'A'],
      ['p3', 'refused', 'TC3', 'A'],
    ]);
    // The map given is not changed.
    expect(map.get('2')!.pickedUpAt).toBeNull();
  });

  it('hashes a code as the server does (SHA-256, base64url)', async () => {
    const code = 'TCCF1.6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f.abcdefghijklmnopqrstuv';
    expect(await hashCode(code)).toBe(createHash('sha256').update(code).digest('base64url'));
  });
});
