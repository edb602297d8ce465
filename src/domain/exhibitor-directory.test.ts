import { describe, expect, it } from 'vitest';
import { APPROVAL_STATUSES, PAYMENT_STATUSES } from './order-lifecycle';
import { headlineStatus } from './orders';
import {
  ExhibitorQuery,
  exhibitorFilters,
  isListedExhibitor,
  LISTED_ORDER_STATES,
  likePattern,
} from './exhibitor-directory';
import { check } from './validation';

describe('exhibitor directory rules', () => {
  it('lists exactly the complete orders (the headline), unless opted out; the database reads the same sets', () => {
    for (const paymentStatus of PAYMENT_STATUSES)
      for (const approvalStatus of [null, ...APPROVAL_STATUSES]) {
        const complete = headlineStatus({ paymentStatus, approvalStatus }) === 'completed';
        expect(isListedExhibitor({ paymentStatus, approvalStatus, directoryListed: true })).toBe(complete);
        expect(isListedExhibitor({ paymentStatus, approvalStatus, directoryListed: false })).toBe(false);
        const inSets =
          (LISTED_ORDER_STATES.paymentStatuses as readonly string[]).includes(paymentStatus) &&
          (LISTED_ORDER_STATES.approvalStatuses as readonly (string | null)[]).includes(approvalStatus);
        expect(inSets, `${paymentStatus}/${approvalStatus}`).toBe(complete);
      }
  });

  it('reads the query: empty values are no filter, numbers coerced, bad ones refused', () => {
    const ok = check({ q: ' tea ', industry: '3', business_category: '', country: 'TWN', page: '2' }, ExhibitorQuery);
    expect(ok.ok && exhibitorFilters(ok.value)).toEqual({
      q: 'tea',
      industry: 3,
      businessCategory: undefined,
      country: 'TWN',
      workCategory: undefined,
      page: 2,
      limit: undefined,
    });
    expect(check({ industry: '9' }, ExhibitorQuery).ok).toBe(false);
    expect(check({ country: 'tw' }, ExhibitorQuery).ok).toBe(false);
    expect(check({ utm_source: 'x' }, ExhibitorQuery).ok).toBe(true);
  });

  it('escapes LIKE wildcards', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
