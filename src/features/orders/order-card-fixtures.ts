/**
 * Orders for the order list's renderer test (order-cards.test.ts): every headline, payment and
 * approval status, with and without works and a rejection reason, and values that must be
 * escaped (markup, quotes, ampersands) in every field the list shows or links to.
 */
import { APPROVAL_STATUSES, PAYMENT_STATUSES } from '@domain/order-lifecycle';
import type { Order } from '@domain/orders';

const base: Order = {
  orderId: '0b6c1f8e-2d7a-4c53-9a41-5e0f7b2c9d10',
  id: '0b6c1f8e-2d7a-4c53-9a41-5e0f7b2c9d10',
  orderNo: 'R2026000001',
  eventName: 'Creative Content Conference 2026',
  eventSlug: 'ccc-2026',
  eventType: 'conference',
  eventTime: '2026-05-20T01:00:00.000Z',
  eventEndAt: '2026-05-20T09:30:00.000Z',
  eventLocation: 'Taipei',
  registrationType: 'conference',
  formModifyExpiresAt: null,
  quantity: 1,
  paymentStatus: 'paid',
  paymentExpiresAt: null,
  approvalStatus: null,
  rejectedReason: null,
  registrationId: null,
  currency: 'TWD',
  amountCents: 120000,
  payment: null,
  receipt: null,
  contents: [],
  createdAt: '2026-04-01T02:03:04.000Z',
};

const work = (title: string) => ({
  id: title,
  title,
  titleEn: title,
  titleZh: title,
  genre: null,
  categoryId: null,
});

/** Every payment status with every approval status (and none), then the edge cases. */
export const ORDER_CARD_FIXTURES: Order[] = [
  ...PAYMENT_STATUSES.flatMap((paymentStatus, p) =>
    [null, ...APPROVAL_STATUSES].map((approvalStatus, a): Order => ({
      ...base,
      orderId: `order-${p}-${a}`,
      id: `order-${p}-${a}`,
      orderNo: `R20260${p}${a}`,
      paymentStatus,
      approvalStatus,
      rejectedReason: approvalStatus === 'rejected' && a % 2 === 0 ? 'Outside the event’s scope' : null,
      contents: a === 2 ? [work('One work')] : a === 3 ? [work('First'), work('Second')] : [],
      // Every other one over two days (the date range's other form).
      eventEndAt: (p + a) % 2 ? '2026-05-22T08:00:00.000Z' : base.eventEndAt,
    })),
  ),
  {
    ...base,
    orderId: 'a b/c?d&e"f<g>',
    orderNo: 'R<2026>&"\'9',
    eventName: '<script>alert("x")</script> & \'quoted\' "names"',
    eventSlug: 'slug with spaces/&"<>',
    paymentStatus: 'pending',
    approvalStatus: 'rejected',
    rejectedReason: '"><img src=x onerror=alert(1)> & more',
    contents: [work('<b>bold</b>'), work('Tom & Jerry\'s "show"')],
  },
  {
    ...base,
    orderId: 'zh',
    orderNo: 'R2026中文',
    eventName: '創意內容大會：「未來」論壇',
    eventSlug: '創意',
    paymentStatus: 'checking',
    approvalStatus: 'approved',
    contents: [work('作品一'), work('作品二')],
  },
];
