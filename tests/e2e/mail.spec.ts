import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, giveBadge, hydrated, operator, signIn, uniqueEmail, uploadPhoto } from './fixtures';

/*
 * The e-mails a registrant gets, read where development keeps them: the dev mailbox (/dev-mailbox,
 * the database outbox when SMTP_URL is unset). The server's mail worker sends them within seconds
 * of each order event, in the language the order was placed in.
 */

type Locale = 'en' | 'zh-tw';
const code = (locale: Locale) => (locale === 'en' ? 'en' : 'zh-TW');

/**
 * Places a Professional badge order as the wizard's API client does (its Accept-Language is the
 * page's language), and returns its id and number. The wizard itself has its own tests.
 */
async function placeBadgeOrder(page: Page, locale: Locale) {
  const photo = await uploadPhoto(page);
  const order = await page.evaluate(
    async ({ language, photo }) => {
      const res = await fetch('/api/v1/demonstration_order', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'accept-language': language,
        },
        body: JSON.stringify({
          applicant: { name_zh: '王小明', name_en: 'Hsiao-ming Wang', contact_phone: '886-912-345-678' },
          badge: { name_zh: '王小明', name_en: 'Ming Wang' },
          personal_photo_file_id: photo,
        }),
      });
      return (await res.json()) as { order_id: string; order_no: string };
    },
    { language: code(locale), photo },
  );
  expect(order.order_no).toBeTruthy();
  return order;
}

/** Opens the mailbox of `email` in `locale` and waits until every subject is listed (the worker runs every 2 s). */
async function openMailbox(page: Page, email: string, locale: Locale, subjects: (string | RegExp)[]) {
  await expect(async () => {
    await page.goto(`/dev-mailbox?lang=${code(locale)}&to=${encodeURIComponent(email)}`);
    for (const subject of subjects)
      await expect(page.getByRole('link', { name: subject })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  // Those mails and no others (each sent once).
  await expect(page.getByRole('table').getByRole('link')).toHaveCount(subjects.length);
}

/**
 * No axe violations on a mail's page in the mailbox, nor in the mail's own HTML. The HTML is in a
 * sandboxed frame without scripts, where axe cannot run: the page is checked without it, and the
 * mail's document on a page of its own, as a mail client would show it.
 */
async function expectMailAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .options({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      iframes: false,
    })
    .exclude('iframe')
    .setLegacyMode()
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.help}`),
    `axe violations on ${page.url()}`,
  ).toEqual([]);
  const html = await page.locator('iframe').getAttribute('srcdoc');
  const mail = await page.context().newPage();
  try {
    await mail.setContent(html!);
    await expectAccessible(mail);
  } finally {
    await mail.close();
  }
}

/** Opens one mail and answers its HTML part (the sandboxed frame). */
async function openMail(page: Page, subject: string | RegExp) {
  await page.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  return page.frameLocator('iframe');
}

// Each flow waits for the mail worker (every 2 s) a few times.
test.describe.configure({ timeout: 120_000 });

for (const locale of ['en', 'zh-tw'] as const) {
  const zh = locale === 'zh-tw';

  test(`a card payment: the order mail, the receipt and the badge mail with its link to My badge (${locale})`, async ({
    page,
  }) => {
    const email = uniqueEmail(`mail-card-${locale}`);
    await signIn(page, email, locale);
    const order = await placeBadgeOrder(page, locale);

    await page.goto(`/${locale}/badges/${order.order_id}/pay`);
    await hydrated(page);
    await page.getByRole('button', { name: zh ? '前往信用卡付款' : 'Pay by card' }).click();
    await page.waitForURL(/\/sandbox-gateway\//);
    await page.getByLabel(zh ? '卡號' : 'Card number', { exact: true }).fill('4000-2211-1111-1111');
    await page.getByLabel(zh ? '有效期限' : 'Expiry date').fill('12/39');
    await page.getByLabel(zh ? '安全碼' : 'CVC').fill('123');
    await page.getByRole('button', { name: zh ? /^付款/ : /^Pay/ }).click();
    await page.waitForURL(new RegExp(`/${locale}/account/badge$`), { timeout: 30_000 });

    const subjects = zh
      ? {
          placed: new RegExp(`^已收到訂單 ${order.order_no}，請於 .+ 前付款$`),
          receipt: `訂單 ${order.order_no} 付款收據`,
          badge: '您的 TCCF 識別證已開通',
        }
      : {
          placed: new RegExp(`^Order ${order.order_no} received: please pay by .+$`),
          receipt: `Receipt for order ${order.order_no}`,
          badge: 'Your TCCF badge is ready',
        };
    // The e-invoice follows the payment (issue 22): its number comes from the sandbox e-invoice service.
    const invoice = zh
      ? new RegExp(`^訂單 ${order.order_no} 的電子發票 \\S+$`)
      : new RegExp(`^E-invoice \\S+ for order ${order.order_no}$`);
    await openMailbox(page, email, locale, [subjects.placed, subjects.receipt, subjects.badge, invoice]);
    await expect(page.getByRole('heading', { level: 1, name: zh ? '開發用信箱' : 'Dev mailbox' })).toBeVisible();
    await expectAccessible(page);

    const receipt = await openMail(page, subjects.receipt);
    await expect(receipt.getByRole('heading', { name: zh ? '已收到您的付款' : 'Payment received' })).toBeVisible();
    await expect(
      receipt.getByRole('row', { name: new RegExp(`${zh ? '訂單編號' : 'Order number'} ${order.order_no}`) }),
    ).toBeVisible();
    await expect(receipt.getByRole('row', { name: zh ? '金額 新臺幣 1,000 元' : 'Amount TWD 1,000' })).toBeVisible();
    await expect(
      receipt.getByRole('row', { name: zh ? '付款方式 信用卡' : 'Payment method Credit card' }),
    ).toBeVisible();
    await expect(page.getByText(zh ? '付款方式：信用卡' : 'Payment method: Credit card')).toBeVisible(); // the plain-text part
    await expectMailAccessible(page);

    await page.goto(`/dev-mailbox?lang=${code(locale)}&to=${encodeURIComponent(email)}`);
    const badge = await openMail(page, subjects.badge);
    const link = badge.getByRole('link', { name: zh ? '開啟我的識別證' : 'Open My badge' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^http://[^/]+/${locale}/account/badge$`));
    await page.goto(new URL(href!).pathname);
    await expect(
      page.getByRole('img', { name: zh ? '領取識別證用的 QR Code' : 'QR code for picking up your badge' }),
    ).toBeVisible();
  });

  test(`a transfer: the order mail, "being checked", then the receipt with the invoice once confirmed (${locale})`, async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail(`mail-transfer-${locale}`);
    await signIn(page, email, locale);
    const order = await placeBadgeOrder(page, locale);
    await page.goto(`/${locale}/badges/${order.order_id}/pay`);
    await hydrated(page);
    await page.getByLabel(zh ? 'ATM 轉帳' : 'ATM transfer').check();
    await page.getByLabel(zh ? '帳號末五碼' : 'Last five digits of your account').fill('24680');
    await page.getByLabel(zh ? '三聯式發票（公司）' : 'Company (three-part) invoice').check();
    await page.getByLabel(zh ? '發票抬頭' : 'Invoice title').fill('Good Pictures Ltd.');
    await page.getByLabel(zh ? '統一編號' : 'Unified business number').fill('04595257');
    await page.getByRole('button', { name: zh ? '確認轉帳資料' : 'Confirm transfer' }).click();
    await page.waitForURL(new RegExp(`/${locale}/account/badge$`));

    const checking = zh
      ? `正在核對訂單 ${order.order_no} 的轉帳`
      : `We are checking your transfer for order ${order.order_no}`;
    const placed = zh ? new RegExp(`^已收到訂單 ${order.order_no}，`) : new RegExp(`^Order ${order.order_no} received`);
    await openMailbox(page, email, locale, [placed, checking]);
    const mail = await openMail(page, checking);
    await expect(
      mail.getByRole('row', { name: zh ? '帳號末五碼 24680' : 'Last five digits of the account 24680' }),
    ).toBeVisible();
    await expect(
      mail.getByRole('row', { name: zh ? '付款方式 ATM 轉帳' : 'Payment method ATM transfer' }),
    ).toBeVisible();

    expect(operator('orders', ['mark-paid', order.order_no], baseURL!)).toMatch(/paid/);
    const receiptSubject = zh ? `訂單 ${order.order_no} 付款收據` : `Receipt for order ${order.order_no}`;
    await openMailbox(page, email, locale, [
      placed,
      checking,
      receiptSubject,
      zh ? '您的 TCCF 識別證已開通' : 'Your TCCF badge is ready',
      zh ? new RegExp(`^訂單 ${order.order_no} 的電子發票 `) : new RegExp(`^E-invoice .+ for order ${order.order_no}$`),
    ]);
    const receipt = await openMail(page, receiptSubject);
    await expect(
      receipt.getByRole('row', { name: zh ? '發票抬頭 Good Pictures Ltd.' : 'Invoice title Good Pictures Ltd.' }),
    ).toBeVisible();
    await expect(
      receipt.getByRole('row', { name: zh ? '統一編號 04595257' : 'Unified business number 04595257' }),
    ).toBeVisible();
    await expect(
      receipt.getByRole('row', { name: zh ? '付款方式 ATM 轉帳' : 'Payment method ATM transfer' }),
    ).toBeVisible();
    await expectMailAccessible(page);
  });

  test(`an approval: "waiting for approval", then approved, and a rejection with its reason (${locale})`, async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail(`mail-audit-${locale}`);
    await signIn(page, email, locale);
    await giveBadge(page, baseURL!);
    await page.goto(`/${locale}/events/pitching-session-audit/registrations/new`);
    await hydrated(page);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: zh ? '報名' : 'Register' }).click();
    await expect(page).toHaveURL(/\/registrations\/[0-9a-f-]+$/);
    const orderNo = (await page.locator('dd.font-mono').first().textContent())!.trim();

    // The free badge given first has its own mail, in the browser's language (the fixture's request
    // leaves Accept-Language to the browser, English here; the portal's client sends the page's).
    const badge = 'Your TCCF badge is ready';
    const waiting = zh ? `已收到報名 ${orderNo}，等待審核中` : `Registration ${orderNo} received: waiting for approval`;
    await openMailbox(page, email, locale, [badge, waiting]);
    expect(operator('orders', ['approve', orderNo], baseURL!)).toMatch(/approved/);
    const approved = zh ? '審核通過：提案大會旁聽' : 'Approved: Pitching sessions (audit)';
    await openMailbox(page, email, locale, [badge, waiting, approved]);
    const mail = await openMail(page, approved);
    await expect(
      mail.getByRole('heading', { name: zh ? '您的報名已通過審核' : 'Your registration has been approved' }),
    ).toBeVisible();
    const summary = await mail
      .getByRole('link', { name: zh ? '查看報名內容' : 'View your registration' })
      .getAttribute('href');
    expect(new URL(summary!).pathname).toMatch(
      new RegExp(`^/${locale}/events/pitching-session-audit/registrations/[0-9a-f-]+$`),
    );
    await expectMailAccessible(page);

    // Another registrant of the same event is turned down, with the organiser's reason.
    const other = uniqueEmail(`mail-rejected-${locale}`);
    await page.context().clearCookies();
    await page.goto('/');
    await page.evaluate(() => localStorage.clear());
    await signIn(page, other, locale);
    await giveBadge(page, baseURL!);
    await page.goto(`/${locale}/events/pitching-session-audit/registrations/new`);
    await hydrated(page);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: zh ? '報名' : 'Register' }).click();
    await expect(page).toHaveURL(/\/registrations\/[0-9a-f-]+$/);
    const rejectedNo = (await page.locator('dd.font-mono').first().textContent())!.trim();
    const reason = zh ? '今年旁聽名額保留給買家。' : 'Audit places are reserved for buyers this year.';
    expect(operator('orders', ['reject', rejectedNo, '--reason', reason], baseURL!)).toMatch(/rejected/);
    const rejected = zh ? `您的報名 ${rejectedNo} 未通過審核` : `Your registration ${rejectedNo} was not approved`;
    const otherWaiting = zh
      ? `已收到報名 ${rejectedNo}，等待審核中`
      : `Registration ${rejectedNo} received: waiting for approval`;
    await openMailbox(page, other, locale, [badge, otherWaiting, rejected]);
    const no = await openMail(page, rejected);
    await expect(no.getByRole('row', { name: `${zh ? '原因' : 'Reason'} ${reason}` })).toBeVisible();
  });
}

test('the dev mailbox switches language and keeps the filter', async ({ page }) => {
  await page.goto('/dev-mailbox?lang=en&to=nobody%40example.com');
  await expect(page.getByText('No e-mails yet.')).toBeVisible();
  await expect(page.getByLabel('Recipient')).toHaveValue('nobody@example.com');
  await page.getByRole('link', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
  await expect(page.getByText('目前沒有郵件。')).toBeVisible();
  await expect(page.getByLabel('收件人')).toHaveValue('nobody@example.com');
  await expectAccessible(page);
});
