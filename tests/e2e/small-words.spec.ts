import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, operator, signIn, uniqueEmail, uploadPhoto } from './fixtures';

/*
 * Issue 19's small defects, as a registrant and an organiser meet them, in both languages: the
 * badge page before its QR code exists, a two-part invoice, a declined card in the registrant's
 * words (the gateway's own text for the organiser), and the icon browsers ask for.
 */

type Locale = 'en' | 'zh-tw';
const LOCALES: Locale[] = ['en', 'zh-tw'];

const WORDS = {
  en: {
    qrNow: 'Show a printout of this page or this QR code on your phone at the badge exchange desk.',
    qrLater: 'Once your pick-up QR code appears on this page, show it at the badge exchange desk',
    invoiceType: 'Invoice type',
    twoPart: 'Personal (two-part) invoice',
    invoiceTitle: 'Invoice title',
    ubn: 'Unified business number',
    qrAlt: 'QR code for picking up your badge',
    payByCard: 'Pay by card',
    card: { number: 'Card number', expiry: 'Expiry date', cvc: 'CVC', pay: /^Pay/ },
    declined: "Your card's bank declined the payment. Try another card, or pay by bank transfer.",
    notAccepted: 'This card cannot be used for this payment',
    tryAgain: 'Back to payment',
  },
  'zh-tw': {
    qrNow: '請於換證處出示本頁列印本或手機上的 QR Code。',
    qrLater: '領取用的 QR Code 出現在本頁後，請於換證處出示列印本或手機畫面。',
    invoiceType: '發票類型',
    twoPart: '二聯式發票（個人）',
    invoiceTitle: '發票抬頭',
    ubn: '統一編號',
    qrAlt: '領取識別證用的 QR Code',
    payByCard: '前往信用卡付款',
    card: { number: '卡號', expiry: '有效期限', cvc: '安全碼', pay: /^付款/ },
    declined: '發卡銀行拒絕了此筆交易。請改用其他信用卡，或以銀行轉帳付款。',
    notAccepted: '此信用卡無法用於本次付款',
    tryAgain: '返回付款頁面',
  },
} as const;

/** Calls the registration API from the page, with the signed-in user's session cookie (as an island does). */
async function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

/** An unpaid Professional badge order of the signed-in user: its id and number. */
async function unpaidBadgeOrder(page: Page) {
  const photo = await uploadPhoto(page);
  const res = await api(page, 'POST', '/api/v1/demonstration_order', {
    applicant: { name_en: 'Small Words', contact_phone: '886-912-345-678' },
    badge: { name_en: 'Words' },
    personal_photo_file_id: photo,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { orderId: res.body.order_id as string, orderNo: res.body.order_no as string };
}

/** Pays the order on its pay page with a sandbox card, and waits for the processing page. */
async function payByCard(page: Page, locale: Locale, orderId: string, card: string) {
  const w = WORDS[locale];
  await page.goto(`/${locale}/badges/${orderId}/pay`);
  await hydrated(page);
  await page.getByRole('button', { name: w.payByCard }).click();
  await page.waitForURL(/\/sandbox-gateway\//);
  await page.getByLabel(w.card.number, { exact: true }).fill(card);
  await page.getByLabel(w.card.expiry).fill('12/39');
  await page.getByLabel(w.card.cvc).fill('123');
  await page.getByRole('button', { name: w.card.pay }).click();
  await page.waitForURL(new RegExp(`/${locale}/badges/${orderId}/processing$`));
}

for (const locale of LOCALES) {
  const w = WORDS[locale];

  test(`My badge before its QR code: when to show it, and a two-part invoice without empty lines (${locale})`, async ({
    page,
    baseURL,
  }) => {
    await signIn(page, uniqueEmail(`qr-later-${locale}`), locale);
    const { orderId, orderNo } = await unpaidBadgeOrder(page);
    const declared = await api(page, 'PUT', '/api/v1/demonstration_order', {
      payment: { type: 'atm', last_five_digits: '13579' },
      receipt: { kind: 'personal' },
    });
    expect(declared.status, JSON.stringify(declared.body)).toBe(200);

    await page.goto(`/${locale}/account/badge`);
    await expect(page.getByText(w.qrLater)).toBeVisible();
    await expect(page.getByText(w.qrNow)).toHaveCount(0);
    await expect(page.getByRole('img', { name: w.qrAlt })).toHaveCount(0);
    await expect(page.getByRole('term').filter({ hasText: w.invoiceType })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: w.twoPart })).toBeVisible();
    await expect(page.getByRole('term').filter({ hasText: w.invoiceTitle })).toHaveCount(0);
    await expect(page.getByRole('term').filter({ hasText: w.ubn })).toHaveCount(0);
    await expectAccessible(page);

    // Paid: the QR code and how to use it; the summary shows the invoice's type, no empty lines.
    expect(operator('orders', ['mark-paid', orderNo], baseURL!)).toMatch(/paid/);
    await page.goto(`/${locale}/account/badge`);
    await expect(page.getByRole('img', { name: w.qrAlt })).toBeVisible();
    await expect(page.getByText(w.qrNow)).toBeVisible();
    await expect(page.getByText(w.qrLater)).toHaveCount(0);
    await page.goto(`/${locale}/events/badge-professional/registrations/${orderId}`);
    await expect(page.getByRole('definition').filter({ hasText: w.twoPart })).toBeVisible();
    await expect(page.getByRole('term').filter({ hasText: w.invoiceTitle })).toHaveCount(0);
    await expect(page.getByRole('term').filter({ hasText: w.ubn })).toHaveCount(0);
  });

  test(`a declined card says why in the registrant's words, not the gateway's (${locale})`, async ({ page }) => {
    await signIn(page, uniqueEmail(`declined-words-${locale}`), locale);
    const { orderId } = await unpaidBadgeOrder(page);
    await payByCard(page, locale, orderId, '4000-0000-0000-0002');
    const alert = page.getByRole('alert');
    await expect(alert.getByText(w.declined)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Card declined (sandbox)')).toHaveCount(0);
    await expect(page.getByText('MPG03009')).toHaveCount(0);
    await expectAccessible(page);
    // A card the gateway does not accept reads differently, from the start of the page too.
    await alert.getByRole('link', { name: w.tryAgain }).click();
    await payByCard(page, locale, orderId, '5555-5555-5555-4444');
    await expect(page.getByRole('alert').getByText(w.notAccepted)).toBeVisible({ timeout: 20_000 });
    await page.reload();
    await expect(page.getByRole('alert').getByText(w.notAccepted)).toBeVisible();
    await expect(page.getByText('Unknown card (sandbox)')).toHaveCount(0);
  });
}

test('the organiser sees the gateway’s own code and text on the order page', async ({ page, browser, baseURL }) => {
  await signIn(page, uniqueEmail('declined-organiser'), 'en');
  const { orderId, orderNo } = await unpaidBadgeOrder(page);
  await payByCard(page, 'en', orderId, '4000-0000-0000-0002');
  await expect(page.getByRole('alert').getByText(WORDS.en.declined)).toBeVisible({ timeout: 20_000 });
  const context = await browser.newContext({ baseURL });
  const organiser = await context.newPage();
  try {
    await signIn(organiser, 'organiser@example.com', 'en');
    await organiser.goto(`/en/admin/orders/${orderNo}`);
    await expect(organiser.getByText('MPG03009 Card declined (sandbox)')).toBeVisible();
  } finally {
    await context.close();
  }
});

test('/favicon.ico is the site’s icon, cacheable; pages load without a failed request', async ({ page, request }) => {
  for (const path of ['/favicon.ico', '/favicon.svg']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type'], path).toMatch(/^image\//);
    expect(res.headers()['cache-control'], path).toBe('public, max-age=86400');
  }
  expect((await request.get('/favicon.ico')).headers()['content-type']).toMatch(/icon/);
  const failed: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failed.push(message.text());
  });
  for (const locale of LOCALES) {
    await page.goto(`/${locale}/`);
    await hydrated(page);
    // The icon a browser fetches by itself, whatever the page links to.
    await page.evaluate(() => fetch('/favicon.ico').then((r) => r.ok || console.error(`favicon ${r.status}`)));
  }
  expect(failed).toEqual([]);
  await expect(page.locator('link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
});
