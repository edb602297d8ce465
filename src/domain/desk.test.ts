import { describe, expect, it } from 'vitest';
import { deskRefusal, parsePickupCode, searchBadges, type DeskBadge } from './desk';
import { deskBadge } from './desk-fixtures';

const id = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const sig = 'abcdefghijklmnopqrstuv';

const badge = (over: Partial<DeskBadge>): DeskBadge =>
  deskBadge(id, {
    identity: 'PROFESSIONAL',
    nameEn: 'Ming Wang',
    companyNameZh: '好影像',
    companyNameEn: 'Good Pictures',
    email: 'ming@example.com',
    name: 'Hsiao-ming Wang',
    orderNo: 'TC261124ABC123',
    ...over,
  });

describe('badge desk rules', () => {
  it('parses the shape of a pick-up code (the signature is checked elsewhere)', () => {
    expect(parsePickupCode(`TCCF1.${id}.${sig}`)).toEqual({ badgeId: id, signature: sig });
    expect(parsePickupCode(`  TCCF1.${id.toUpperCase()}.${sig}\n`)).toEqual({ badgeId: id, signature: sig });
    expect(parsePickupCode(`TCCF2.${id}.${sig}`)).toBeNull();
    expect(parsePickupCode(`TCCF1.${id}.${sig}x`)).toBeNull();
    expect(parsePickupCode(`TCCF1.${id}`)).toBeNull();
    expect(parsePickupCode(`TCCF1.not-an-id.${sig}`)).toBeNull();
    expect(parsePickupCode('Ming Wang')).toBeNull();
  });

  it('hands out badges of paid and free orders only, and says why not otherwise', () => {
    expect(deskRefusal({ paymentStatus: 'paid', approvalStatus: null })).toBeNull();
    expect(deskRefusal({ paymentStatus: 'free', approvalStatus: null })).toBeNull();
    expect(deskRefusal({ paymentStatus: 'checking', approvalStatus: null })).toBe('transfer_checking');
    expect(deskRefusal({ paymentStatus: 'pending', approvalStatus: null })).toBe('unpaid');
    expect(deskRefusal({ paymentStatus: 'overdue', approvalStatus: null })).toBe('overdue');
    expect(deskRefusal({ paymentStatus: 'canceled', approvalStatus: null })).toBe('canceled');
    expect(deskRefusal({ paymentStatus: 'canceled', approvalStatus: 'rejected' })).toBe('rejected');
  });

  it('searches names in both languages, company, e-mail and order number, width and case folded', () => {
    const ming = badge({});
    const amy = badge({
      id: 'b',
      nameZh: '林艾美',
      nameEn: 'Amy Lin',
      name: 'Amy Lin',
      email: 'amy@example.com',
      orderNo: 'TC1',
    });
    const both = [ming, amy];
    expect(searchBadges(both, '小明')).toEqual([ming]);
    expect(searchBadges(both, 'ming wang')).toEqual([ming]);
    expect(searchBadges(both, 'ＡＭＹ')).toEqual([amy]);
    expect(searchBadges(both, 'abc123')).toEqual([ming]);
    expect(searchBadges(both, 'good pictures')).toEqual([ming, amy]);
    expect(searchBadges(both, '   ')).toEqual([]);
    expect(searchBadges(both, 'nobody')).toEqual([]);
  });

  it('lists badges not yet picked up first', () => {
    const done = badge({ id: 'a', pickedUpAt: '2026-11-24T01:00:00Z' });
    const waiting = badge({ id: 'b' });
    expect(searchBadges([done, waiting], 'ming').map((b) => b.id)).toEqual(['b', 'a']);
  });
});
