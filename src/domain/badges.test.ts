import { describe, expect, it } from 'vitest';
import { badgeLinkState } from './badges';

describe('the state of a one-time free-badge link', () => {
  const now = new Date('2026-11-01T00:00:00Z');
  const link = {
    identity: 'VIP' as const,
    email: null as string | null,
    expiresAt: new Date('2026-11-10T00:00:00Z'),
    usedAt: null as Date | null,
    usedBy: null as string | null,
  };
  const amy = { userId: 'amy', email: 'amy@example.com' };

  it('an unknown, expired or wrong-type link is expired', () => {
    expect(badgeLinkState(undefined, amy, { now })).toBe('expired');
    expect(badgeLinkState({ ...link, expiresAt: new Date('2026-10-31T23:59:59Z') }, amy, { now })).toBe('expired');
    expect(badgeLinkState(link, amy, { now, linkType: 'EXHIBITOR_MARKET' })).toBe('expired');
    // Expiry wins over use: the 404 wording, as the claim answers.
    expect(badgeLinkState({ ...link, expiresAt: new Date(0), usedAt: now, usedBy: 'bob' }, amy, { now })).toBe(
      'expired',
    );
  });

  it('a used link is used, except to the user who used it (claimed)', () => {
    const used = { ...link, usedAt: now, usedBy: 'bob' };
    expect(badgeLinkState(used, amy, { now })).toBe('used');
    expect(badgeLinkState(used, null, { now })).toBe('used');
    expect(badgeLinkState(used, { userId: 'bob', email: 'bob@example.com' }, { now })).toBe('claimed');
  });

  it('a link issued to an e-mail is for that e-mail only (any case); signed out it cannot tell', () => {
    const bobs = { ...link, email: 'Bob@Example.com' };
    expect(badgeLinkState(bobs, amy, { now })).toBe('not_for_user');
    expect(badgeLinkState(bobs, { userId: 'bob', email: 'bob@example.COM' }, { now })).toBe('valid');
    expect(badgeLinkState(bobs, null, { now })).toBe('valid');
  });

  it('a link an organiser revoked is revoked, also past its expiry and to the e-mail it was issued to', () => {
    const revoked = { ...link, email: 'amy@example.com', revokedAt: new Date('2026-10-30T00:00:00Z') };
    expect(badgeLinkState(revoked, amy, { now })).toBe('revoked');
    expect(badgeLinkState(revoked, null, { now })).toBe('revoked');
    expect(badgeLinkState({ ...revoked, expiresAt: new Date(0) }, amy, { now })).toBe('revoked');
    // An unknown type says nothing more about the link.
    expect(badgeLinkState(revoked, amy, { now, linkType: 'EXHIBITOR_MARKET' })).toBe('expired');
    // Not revoked (null, or a link read without the column): the other rules decide.
    expect(badgeLinkState({ ...link, revokedAt: null }, amy, { now })).toBe('valid');
  });

  it("a link of another edition than the current one is past_edition, before expiry and use; one made before editions is any edition's", () => {
    const last = { ...link, editionId: 'e2026' };
    expect(badgeLinkState(last, amy, { now, currentEditionId: 'e2027' })).toBe('past_edition');
    expect(badgeLinkState({ ...last, expiresAt: new Date(0) }, amy, { now, currentEditionId: 'e2027' })).toBe(
      'past_edition',
    );
    expect(badgeLinkState(last, amy, { now, currentEditionId: 'e2026' })).toBe('valid');
    expect(badgeLinkState({ ...link, editionId: null }, amy, { now, currentEditionId: 'e2027' })).toBe('valid');
    // Revoked says more: the organiser withdrew it.
    expect(badgeLinkState({ ...last, revokedAt: now }, amy, { now, currentEditionId: 'e2027' })).toBe('revoked');
  });

  it('an open link of the right type is valid', () => {
    expect(badgeLinkState(link, amy, { now, linkType: 'VIP' })).toBe('valid');
    expect(badgeLinkState(link, amy, { now })).toBe('valid');
  });
});
