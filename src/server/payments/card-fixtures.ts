/**
 * The test card's authorisation as the gateway reports it in a trade's result (test-only): the
 * card 4000-2211-1111-1111 approved at the tests' clock (2026-11-21 10:00 Taipei).
 */
export const APPROVED_CARD = {
  PaymentType: 'CREDIT',
  PayTime: '2026-11-21 10:00:00',
  RespondCode: '00',
  Auth: '123456',
  Card6No: '400022',
  Card4No: '1111',
};
