import { describe, expect, it } from 'vitest';
import { displayedPaymentStatus, registrationStatus } from './orders';
import { orderPages } from './registration-kinds';

describe('order status rules (spec §4)', () => {
  it.each([
    ['pending', 'unpaid', 'submitted'],
    ['checking', 'checking', 'completed'],
    ['paid', 'paid', 'completed'],
    ['free', 'free', 'completed'],
    ['overdue', 'overdue', 'cancelled'],
    ['canceled', 'canceled', 'cancelled'],
    ['something-new', 'canceled', 'cancelled'],
  ])('%s is shown as %s and gives registration status %s', (server, shown, registration) => {
    expect(displayedPaymentStatus(server)).toBe(shown);
    expect(registrationStatus(server)).toBe(registration);
  });

  it('links an order to its summary under its event', () => {
    expect(orderPages({ eventSlug: 'opening-forum', orderId: 'abc', registrationType: 'EVENT_GENERAL' }).summary).toBe(
      '/events/opening-forum/registrations/abc',
    );
  });
});
