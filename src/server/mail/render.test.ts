import { describe, expect, it } from 'vitest';
import { formatDateRange as formatRange, formatDayRange as formatDays, formatMoney } from '@domain/format';
import { renderMail } from './render';
import { badgeLinkMail, linkOn, orderMail, templatesFor, type EventFacts, type OrderFacts } from './templates';

const facts = (over: Partial<OrderFacts> = {}): OrderFacts => ({
  orderId: '0b6c1c1e-4a39-4f5e-9f43-6f0d7e0c9a11',
  orderNo: 'TC2611230001',
  email: 'amy@example.com',
  item: { en: 'Professional badge', 'zh-TW': '專業人士識別證' },
  location: { en: 'Taipei', 'zh-TW': '臺北' },
  eventStart: new Date('2026-12-14T01:30:00Z'),
  eventEnd: new Date('2026-12-14T09:00:00Z'),
  pages: {
    summary: '/events/x/registrations/1',
    pay: '/badges/1/pay',
    done: '/account/badge',
    register: '/badges/new',
  },
  isBadge: true,
  amountCents: 100_000,
  currency: 'TWD',
  paymentType: 'credit_card',
  lastFiveDigits: null,
  remitter: null,
  paymentExpiresAt: new Date('2026-11-26T04:00:00Z'),
  paidAt: new Date('2026-11-24T02:05:00Z'),
  rejectedReason: null,
  invoiceTitle: null,
  unifiedBusinessNumber: null,
  badge: { identity: 'PROFESSIONAL', nameEn: 'Amy Lin', nameZh: '林艾咪' },
  pickup: [],
  includedLinks: [],
  ...over,
});
const link = linkOn('https://portal.example.org');
const pending: Pick<EventFacts, 'paymentStatusAfter' | 'approvalStatusAfter'> = {
  paymentStatusAfter: 'pending',
  approvalStatusAfter: null,
};
const render = (
  template: Parameters<typeof orderMail>[0],
  o: OrderFacts,
  locale: 'en' | 'zh-TW' | null,
  event = pending,
) => renderMail(orderMail(template, o, event, link), locale, o.email);

describe('e-mail rendering', () => {
  it('an order placed says what to do next, the amount and the deadline, with a link in the reader’s language', () => {
    const en = render('order_placed', facts(), 'en');
    expect(en.subject).toBe('Order TC2611230001 received: please pay by 2026/11/26 12:00 (GMT+8)');
    expect(en.text).toContain('please pay TWD 1,000 by 2026/11/26 12:00 (GMT+8)');
    expect(en.text).toContain('Pay now: https://portal.example.org/en/badges/1/pay');
    expect(en.html).toContain('<html lang="en">');
    expect(en.html).toContain('href="https://portal.example.org/en/badges/1/pay"');
    expect(en.html).not.toContain('lang="zh-TW"');

    const zh = render('order_placed', facts(), 'zh-TW');
    expect(zh.subject).toBe('已收到訂單 TC2611230001，請於 2026/11/26 12:00 (GMT+8) 前付款');
    expect(zh.text).toContain('付款 新臺幣 1,000 元');
    expect(zh.text).toContain('前往付款：https://portal.example.org/zh-tw/badges/1/pay');
    expect(zh.html).toContain('<html lang="zh-TW">');
  });

  it('in both languages when the registrant’s is unknown: English first, each section marked with its lang', () => {
    const both = render('order_placed', facts(), null);
    expect(both.locale).toBeNull();
    expect(both.subject).toBe(
      'Order TC2611230001 received: please pay by 2026/11/26 12:00 (GMT+8) / 已收到訂單 TC2611230001，請於 2026/11/26 12:00 (GMT+8) 前付款',
    );
    expect(both.html.indexOf('>Thank you, your order has been placed</h1>')).toBeLessThan(
      both.html.indexOf('>感謝您，訂單已成立</h1>'),
    );
    expect(both.html).toMatch(/<td class="px" lang="en"[^>]*><h1[^>]*>Thank you/);
    expect(both.html).toMatch(/<td class="px" lang="zh-TW"[^>]*><h1[^>]*>感謝您/);
    expect(both.html).toContain('https://portal.example.org/en/badges/1/pay');
    expect(both.html).toContain('https://portal.example.org/zh-tw/badges/1/pay');
    expect(both.text.indexOf('Thank you, your order has been placed')).toBeLessThan(
      both.text.indexOf('感謝您，訂單已成立'),
    );
  });

  it('carries the branding in the HTML part and a plain-text part without markup', () => {
    const mail = render('payment_received', facts(), 'en');
    expect(mail.html).toContain('#ff5e00');
    expect(mail.html).toMatch(/>TCCF<\/span>/);
    expect(mail.html).toContain('<title>Receipt for order TC2611230001</title>');
    expect(mail.text).not.toMatch(/<[a-z]/i);
    expect(mail.text).toContain('This e-mail was sent to amy@example.com.');
  });

  it('a receipt: order number, item, amount, method, and the invoice title and UBN only when given', () => {
    const plain = render('payment_received', facts(), 'en').text;
    expect(plain).toContain('Order number: TC2611230001');
    expect(plain).toContain('Item: Professional badge');
    expect(plain).toContain('Amount: TWD 1,000');
    expect(plain).toContain('Payment method: Credit card');
    expect(plain).toContain('Paid on: 2026/11/24 10:05 (GMT+8)');
    expect(plain).not.toContain('Invoice title');
    expect(plain).not.toContain('Unified business number');
    const company = render(
      'payment_received',
      facts({ invoiceTitle: 'Good Pictures Ltd.', unifiedBusinessNumber: '12345678', paymentType: 'atm' }),
      'zh-TW',
    ).text;
    expect(company).toContain('發票抬頭：Good Pictures Ltd.');
    expect(company).toContain('統一編號：12345678');
    expect(company).toContain('付款方式：ATM 轉帳');
  });

  it('escapes data in the HTML part (a reason or a name is text, never markup)', () => {
    const evil = '<img src=x onerror="alert(1)"> & <script>alert(2)</script>';
    const mail = render(
      'registration_rejected',
      facts({ rejectedReason: evil, isBadge: false, item: { en: 'A & B <i>', 'zh-TW': 'A & B <i>' } }),
      'en',
      { paymentStatusAfter: 'canceled', approvalStatusAfter: 'rejected' },
    );
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<i>');
    expect(mail.html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &lt;script&gt;');
    expect(mail.text).toContain(`Reason: ${evil}`);
  });

  it('refuses links that are not http(s)', () => {
    expect(() => render('order_placed', facts(), 'en', pending)).not.toThrow();
    expect(() =>
      renderMail(
        orderMail('order_placed', facts(), pending, () => 'javascript:alert(1)'),
        'en',
        'a@b.c',
      ),
    ).toThrow(/javascript/);
  });

  it('variants follow the event: waiting for approval, confirmed (free), approved with the pay-by date', () => {
    const event = facts({ isBadge: false, pages: { ...facts().pages, pay: '/events/x/registrations/1/pay' } });
    const approval = render('order_placed', event, 'en', {
      paymentStatusAfter: 'free',
      approvalStatusAfter: 'pending_approval',
    });
    expect(approval.subject).toBe('Registration TC2611230001 received: waiting for approval');
    expect(approval.text).toContain('View your registration: https://portal.example.org/en/events/x/registrations/1');
    const free = render('order_placed', event, 'zh-TW', { paymentStatusAfter: 'free', approvalStatusAfter: null });
    expect(free.subject).toBe('報名成功：專業人士識別證');
    expect(free.text).toContain('時間：2026/12/14 09:30–17:00 (GMT+8)');
    const pay = render('approval_granted', event, 'en', {
      paymentStatusAfter: 'pending',
      approvalStatusAfter: 'approved',
    });
    expect(pay.subject).toBe('Approved: please pay for order TC2611230001 by 2026/11/26 12:00 (GMT+8)');
    expect(pay.text).toContain('Pay now: https://portal.example.org/en/events/x/registrations/1/pay');
  });

  it('the badge mail links to My badge and lists the pick-up schedule with year and weekday', () => {
    const o = facts({
      pickup: [
        {
          firstDay: '2026-12-14',
          lastDay: '2026-12-16',
          opensAt: '09:30',
          closesAt: '17:00',
          place: { en: 'Service station', 'zh-TW': '服務台' },
        },
      ],
    });
    const en = render('badge_issued', o, 'en');
    expect(en.text).toContain('Open My badge: https://portal.example.org/en/account/badge');
    expect(en.text).toContain('- 2026/12/14 (Mon)–12/16 (Wed), 09:30–17:00: Service station');
    expect(en.text).toContain('Name on the badge: Amy Lin');
    const zh = render('badge_issued', o, 'zh-TW');
    expect(zh.text).toContain('- 2026/12/14（一）至 12/16（三） 09:30–17:00：服務台');
    expect(zh.text).toContain('識別證姓名：林艾咪');
    expect(zh.text).toContain('您的專業人士識別證已開通');
  });

  /** The free-badge link mail for `email`, its links ending in get-badge/`slug`/abc. */
  const linkMail = (email: string, identity: Parameters<typeof badgeLinkMail>[0]['identity'], slug: string) =>
    renderMail(
      badgeLinkMail({
        email,
        identity,
        expiresAt: new Date('2026-12-07T04:00:00Z'),
        urls: {
          en: `https://p.example/en/get-badge/${slug}/abc`,
          'zh-TW': `https://p.example/zh-tw/get-badge/${slug}/abc`,
        },
      }),
      null,
      email,
    );

  it('the free-badge link mail has the link in each language', () => {
    const mail = linkMail('vip@example.com', 'VIP', 'vip');
    expect(mail.subject).toBe('Your free TCCF badge: VIP / 您的 TCCF 免費識別證：貴賓');
    expect(mail.text).toContain('Get your badge: https://p.example/en/get-badge/vip/abc');
    expect(mail.text).toContain('領取識別證：https://p.example/zh-tw/get-badge/vip/abc');
    expect(mail.text).toContain('Valid until: 2026/12/7 12:00 (GMT+8)');
    expect(mail.text).toContain('有效期限：2026/12/7 12:00 (GMT+8)');
  });

  it('names an exhibitor identity in the free-badge subject without brackets inside brackets', () => {
    const mail = linkMail('guest@example.com', 'EXHIBITOR_PITCHING', 'x');
    expect(mail.subject).toBe('Your free TCCF badge: Exhibitor (Pitching) / 您的 TCCF 免費識別證：展商（提案大會）');
    expect(mail.subject).not.toMatch(/\([^)]*\(|（[^）]*（/);
  });
});

describe('which mails an order event calls for', () => {
  const badge = { isBadge: true };
  const event = { isBadge: false };
  const ev = (kind: string, paymentStatusAfter = 'pending', approvalStatusAfter: string | null = null) =>
    ({ kind, paymentStatusAfter, approvalStatusAfter }) as Parameters<typeof templatesFor>[0];
  it('sends the included badge links with the event that settled the order, once', () => {
    const market = {
      isBadge: false,
      includedLinks: [
        { seq: 1, path: '/get-badge/exhibitor-market/x', identity: 'EXHIBITOR_MARKET' as const, expiresAt: new Date() },
      ],
    };
    expect(templatesFor(ev('placed', 'free'), market)).toEqual(['order_placed', 'included_badges']);
    expect(templatesFor(ev('paid', 'paid'), market)).toEqual(['payment_received', 'included_badges']);
    expect(templatesFor(ev('approved', 'free', 'approved'), market)).toEqual(['approval_granted', 'included_badges']);
    expect(templatesFor(ev('approved', 'pending', 'approved'), market)).toEqual(['approval_granted']);
    expect(templatesFor(ev('placed', 'pending', 'pending_approval'), market)).toEqual(['order_placed']);
    expect(templatesFor(ev('paid', 'paid'), { ...market, includedLinks: [] })).toEqual(['payment_received']);
  });
  it('maps each kind to its mails', () => {
    expect(templatesFor(ev('placed'), badge)).toEqual(['order_placed']);
    expect(templatesFor(ev('placed', 'free'), badge)).toEqual(['badge_issued']);
    expect(templatesFor(ev('placed', 'free'), event)).toEqual(['order_placed']);
    expect(templatesFor(ev('transfer_declared', 'checking'), badge)).toEqual(['transfer_declared']);
    expect(templatesFor(ev('paid', 'paid'), badge)).toEqual(['payment_received', 'badge_issued']);
    expect(templatesFor(ev('paid', 'paid'), event)).toEqual(['payment_received']);
    expect(templatesFor(ev('approved', 'free', 'approved'), event)).toEqual(['approval_granted']);
    expect(templatesFor(ev('rejected', 'canceled', 'rejected'), event)).toEqual(['registration_rejected']);
    expect(templatesFor(ev('expired', 'overdue'), event)).toEqual(['order_expired']);
    // A cancellation is the registrant's to know (issue 19); the refund it makes owed is bookkeeping.
    expect(templatesFor(ev('canceled', 'canceled'), event)).toEqual(['order_canceled']);
    expect(templatesFor(ev('canceled', 'canceled'), badge)).toEqual(['order_canceled']);
    // Money that went back is the registrant's to know (issue 22).
    expect(templatesFor(ev('refunded', 'canceled'), badge)).toEqual(['refund_made']);
    for (const kind of ['card_attempt_started', 'card_declined', 'review_started', 'refund_due'])
      expect(templatesFor(ev(kind), badge), kind).toEqual([]);
  });
});

describe('a transfer sent back (decision 025)', () => {
  const returned = facts({
    paymentType: 'TWD',
    lastFiveDigits: '12345',
    remitter: 'Amy Lin',
    paidAt: null,
    paymentExpiresAt: new Date('2026-11-27T04:00:00Z'),
  });
  const event = { ...pending, message: 'No transfer from <12345> has arrived; please check the digits.' };
  it('is its own mail, sent for the transfer_returned event', () => {
    expect(
      templatesFor({ kind: 'transfer_returned', paymentStatusAfter: 'pending', approvalStatusAfter: null }, returned),
    ).toEqual(['transfer_returned']);
  });
  it('quotes the organiser, repeats the declared transfer and the new deadline, links to the pay page', () => {
    const en = render('transfer_returned', returned, 'en', event);
    expect(en.subject).toBe('Order TC2611230001: please check your transfer');
    expect(en.text).toContain('No transfer from <12345> has arrived; please check the digits.');
    expect(en.text).toContain('Last five digits of the account: 12345');
    expect(en.text).toContain('Pay by: 2026/11/27 12:00 (GMT+8)');
    expect(en.text).toContain('Correct or pay again: https://portal.example.org/en/badges/1/pay');
    // The organiser's words are text in the HTML part, never markup.
    expect(en.html).toContain('No transfer from &lt;12345&gt; has arrived');
    expect(en.html).not.toContain('<12345>');
    const zh = render('transfer_returned', returned, 'zh-TW', event);
    expect(zh.subject).toBe('訂單 TC2611230001：請確認您的轉帳資料');
    expect(zh.text).toContain('修正資料或重新付款：https://portal.example.org/zh-tw/badges/1/pay');
  });
});

describe('a canceled order (issue 19: the registrant was told nothing)', () => {
  const canceled = (paymentStatusBefore: EventFacts['paymentStatusBefore'], reason: string | null = null) => ({
    paymentStatusBefore,
    paymentStatusAfter: 'canceled' as const,
    approvalStatusAfter: null,
    reason,
  });
  it('says so with the organiser’s reason, and that a card payment goes back to the card', () => {
    const en = render('order_canceled', facts(), 'en', canceled('paid', 'The <badge> desk closed early'));
    expect(en.subject).toBe('Order TC2611230001 has been canceled');
    expect(en.text).toContain('The organiser has canceled your registration for Professional badge.');
    expect(en.text).toContain('Reason: The <badge> desk closed early');
    expect(en.text).toContain('Amount: TWD 1,000');
    expect(en.text).toContain('You paid TWD 1,000 by credit card: it will be refunded to the same card.');
    expect(en.text).toContain('View your order: https://portal.example.org/en/events/x/registrations/1');
    expect(en.html).toContain('The &lt;badge&gt; desk closed early');
    const zh = render('order_canceled', facts(), 'zh-TW', canceled('paid', '場地異動'));
    expect(zh.subject).toBe('訂單 TC2611230001 已取消');
    expect(zh.text).toContain('主辦單位已取消您「專業人士識別證」的報名。');
    expect(zh.text).toContain('原因：場地異動');
    expect(zh.text).toContain('您以信用卡支付的 新臺幣 1,000 元 將退回原信用卡。');
  });
  it('tells what happens to the money by what the order was: transfer paid, transfer declared, unpaid, free', () => {
    const transfer = facts({ paymentType: 'TWD', lastFiveDigits: '12345' });
    expect(render('order_canceled', transfer, 'en', canceled('paid')).text).toContain(
      'You paid TWD 1,000 by bank transfer: it will be refunded to the account it came from.',
    );
    expect(render('order_canceled', transfer, 'zh-TW', canceled('checking')).text).toContain(
      '您已申報一筆 新臺幣 1,000 元 的轉帳。若款項已匯入，將退回原匯款帳戶；若尚未匯款，請勿再匯款。',
    );
    const unpaid = render('order_canceled', facts({ paymentType: null }), 'en', canceled('pending'));
    expect(unpaid.text).toContain('Nothing was charged and nothing is due: please do not pay for this order.');
    expect(unpaid.text).not.toContain('refunded');
    const free = render('order_canceled', facts({ amountCents: 0, paymentType: null }), 'zh-TW', canceled('free'));
    expect(free.text).toContain('此為免費報名，未收取任何費用。');
    expect(free.text).not.toContain('金額');
    // No reason given: no empty "Reason" line.
    expect(unpaid.text).not.toContain('Reason');
  });
});

describe('formats', () => {
  it('money and dates as the pages show them', () => {
    expect(formatMoney(100_000, 'TWD', 'en')).toBe('TWD 1,000');
    expect(formatMoney(100_000, 'TWD', 'zh-TW')).toBe('新臺幣 1,000 元');
    expect(formatMoney(3500, 'USD', 'zh-TW')).toBe('US$35.00');
    expect(formatRange(new Date('2026-12-14T01:30:00Z'), new Date('2026-12-15T09:00:00Z'))).toBe(
      '2026/12/14 09:30 – 2026/12/15 17:00 (GMT+8)',
    );
    expect(formatDays('2026-12-31', '2027-01-02', 'en')).toBe('2026/12/31 (Thu)–2027/1/2 (Sat)');
    expect(formatDays('2026-12-14', '2026-12-14', 'zh-TW')).toBe('2026/12/14（一）');
  });
});
