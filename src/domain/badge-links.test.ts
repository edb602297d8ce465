import { describe, expect, it } from 'vitest';
import { check } from './validation';
import {
  BADGE_LINK_LIMITS,
  badgeLinkStatus,
  BadgeLinkBatchInput,
  batchExpiryIssue,
  linkExpiryDays,
  LINK_EXPIRY_DAYS,
  parseEmailList,
} from './badge-links';

describe('a pasted list of e-mail addresses', () => {
  it('splits on new lines, commas, semicolons and spaces; keeps each address once, lower-cased', () => {
    expect(
      parseEmailList('Amy@Example.com\nben@example.com, cai@example.com;dee@example.com  amy@example.com'),
    ).toEqual({
      emails: ['amy@example.com', 'ben@example.com', 'cai@example.com', 'dee@example.com'],
      invalid: [],
      duplicates: 1,
    });
  });

  it('reads `Name <address>` as copied from a mail client, and mailto: links', () => {
    expect(parseEmailList('Amy Lin <amy@example.com>, "Chen, Ben" <ben@example.com>\nmailto:cai@example.com')).toEqual({
      emails: ['amy@example.com', 'ben@example.com', 'cai@example.com'],
      invalid: [],
      duplicates: 0,
    });
  });

  it('names what is not an address, as typed', () => {
    expect(parseEmailList('amy@example.com\nnot-an-address\nben@@example.com\n\n')).toEqual({
      emails: ['amy@example.com'],
      invalid: ['not-an-address', 'ben@@example.com'],
      duplicates: 0,
    });
    expect(parseEmailList('  \n ')).toEqual({ emails: [], invalid: [], duplicates: 0 });
  });
});

describe('a batch of links', () => {
  const base = { identity: 'VIP', expiresAt: '2026-12-01T00:00:00.000Z' };

  it('takes either a count or a list of distinct addresses', () => {
    expect(check({ ...base, count: 10 }, BadgeLinkBatchInput).ok).toBe(true);
    expect(check({ ...base, emails: ['amy@example.com', 'ben@example.com'] }, BadgeLinkBatchInput).ok).toBe(true);
    expect(check(base, BadgeLinkBatchInput).ok).toBe(false);
    expect(check({ ...base, count: 2, emails: ['amy@example.com'] }, BadgeLinkBatchInput).ok).toBe(false);
    const twice = check({ ...base, emails: ['amy@example.com', 'AMY@example.com'] }, BadgeLinkBatchInput);
    expect(twice.ok).toBe(false);
    expect(!twice.ok && twice.issues).toEqual([{ path: 'emails.1', message: 'This address is already in the list' }]);
  });

  it('refuses a bad address, an unknown identity, and sizes out of 1–500', () => {
    const bad = check({ ...base, emails: ['amy@example.com', 'nope'] }, BadgeLinkBatchInput);
    expect(!bad.ok && bad.issues.map((i) => i.path)).toEqual(['emails.1']);
    expect(check({ ...base, identity: 'GUEST', count: 1 }, BadgeLinkBatchInput).ok).toBe(false);
    expect(check({ ...base, count: 0 }, BadgeLinkBatchInput).ok).toBe(false);
    expect(check({ ...base, count: 501 }, BadgeLinkBatchInput).ok).toBe(false);
  });

  it('expires in the future, at most a year ahead', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    expect(batchExpiryIssue(new Date('2026-11-15T00:00:00Z'), now)).toBeNull();
    expect(batchExpiryIssue(now, now)).toMatch(/future/);
    expect(batchExpiryIssue(new Date('2027-12-01T00:00:00Z'), now)).toMatch(/366 days/);
  });
});

describe('what a link is now', () => {
  const now = new Date('2026-11-01T00:00:00Z');
  const link = { usedAt: null, revokedAt: null, expiresAt: '2026-11-10T00:00:00Z' };
  it('used and revoked are final; an unused link past its expiry is expired', () => {
    expect(badgeLinkStatus(link, now)).toBe('unused');
    expect(badgeLinkStatus({ ...link, usedAt: now, expiresAt: '2026-10-01T00:00:00Z' }, now)).toBe('used');
    expect(badgeLinkStatus({ ...link, revokedAt: now }, now)).toBe('revoked');
    expect(badgeLinkStatus({ ...link, expiresAt: '2026-10-31T00:00:00Z' }, now)).toBe('expired');
  });
});

describe('how long an operator’s link lasts (npm run badge-link -- --expires <days>)', () => {
  it('takes whole days from one to the back office’s limit', () => {
    expect(linkExpiryDays('1')).toEqual({ ok: true, days: 1 });
    expect(linkExpiryDays(' 14 ')).toEqual({ ok: true, days: 14 });
    expect(linkExpiryDays(String(BADGE_LINK_LIMITS.maxDays))).toEqual({ ok: true, days: BADGE_LINK_LIMITS.maxDays });
    expect(LINK_EXPIRY_DAYS.max).toBe(BADGE_LINK_LIMITS.maxDays);
  });
  it('refuses 0 (a link expired as it is made) with a message that says what it takes', () => {
    const zero = linkExpiryDays('0');
    expect(zero.ok).toBe(false);
    const message = zero.ok ? '' : zero.message;
    expect(message).toBe(
      `--expires must be a whole number of days from 1 to ${BADGE_LINK_LIMITS.maxDays} (the link works until that many days from now)`,
    );
    // The message's own range is the rule's: its ends are taken, one past them is not.
    const [, from, to] = /from (\d+) to (\d+)/.exec(message)!.map(Number);
    expect(linkExpiryDays(String(from)).ok).toBe(true);
    expect(linkExpiryDays(String(to)).ok).toBe(true);
    expect(linkExpiryDays(String(from! - 1)).ok).toBe(false);
    expect(linkExpiryDays(String(to! + 1)).ok).toBe(false);
  });
  it('refuses fractions, negatives and words', () => {
    for (const text of ['1.5', '-3', 'two', '', '1e1x']) expect(linkExpiryDays(text).ok, text).toBe(false);
  });
});
