import { describe, expect, it } from 'vitest';
import { afterSubmitPath } from './wizard';

describe('afterSubmitPath (spec §4 After a form submit)', () => {
  const summary = '/en/events/market-online/registrations/o1';
  it('waits on the pending page while the order awaits approval, paid or not', () => {
    expect(
      afterSubmitPath({ orderId: 'o1', paymentStatus: 'pending', approvalStatus: 'pending_approval' }, summary),
    ).toBe(`${summary}/pending`);
  });
  it('goes to pay when unpaid, else to the summary', () => {
    expect(afterSubmitPath({ orderId: 'o1', paymentStatus: 'pending', approvalStatus: null }, summary)).toBe(
      `${summary}/pay`,
    );
    expect(afterSubmitPath({ orderId: 'o1', paymentStatus: 'completed', approvalStatus: 'approved' }, summary)).toBe(
      summary,
    );
  });
});
