import { expect, test, type Page } from '@playwright/test';
import {
  applyForBadge,
  expectAccessible,
  hydrated,
  operator,
  ORGANISER,
  organiserPage,
  signIn,
  uniqueEmail,
} from './fixtures';

/*
 * The back office's money screens (issue 11): a bank statement imported and confirmed pays the
 * order the registrant declared a transfer for; a transfer sent back with a message reaches the
 * registrant; a refund due is recorded with its reference. The organiser and the registrant are
 * in browser contexts of their own.
 */

/** 交易日期,支出金額,存入金額,對方帳號,摘要 + CRLF in Big5 (bytes from Python's big5 codec). */
const BIG5_HEADER = [
  165, 230, 169, 246, 164, 233, 180, 193, 44, 164, 228, 165, 88, 170, 247, 195, 66, 44, 166, 115, 164, 74, 170, 247,
  195, 66, 44, 185, 239, 164, 232, 177, 98, 184, 185, 44, 186, 75, 173, 110, 13, 10,
];
/** 跨行轉入 in Big5. */
const BIG5_MEMO = [184, 243, 166, 230, 194, 224, 164, 74];

/** Five digits no other test of the run uses (the e2e database is shared by the suites). */
const freshDigits = () => String(10_000 + Math.floor(Math.random() * 90_000));
/** Today in Taipei, as a Taiwanese bank prints it. */
const statementDate = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '/');

/** Declares a TWD remittance on the badge's pay page, as the registrant does. */
async function declareTransfer(page: Page, locale: 'en' | 'zh-tw', orderId: string, digits: string) {
  const zh = locale === 'zh-tw';
  await page.goto(`/${locale}/badges/${orderId}/pay`);
  await hydrated(page);
  await page.getByLabel(zh ? '新臺幣匯款' : 'TWD remittance').check();
  await page.getByLabel(zh ? '帳號末五碼' : 'Last five digits of your account').fill(digits);
  await page.getByRole('button', { name: zh ? '確認轉帳資料' : 'Confirm transfer' }).click();
  await page.waitForURL(new RegExp(`/${locale}/account/badge$`));
}

test('import a Big5 bank statement, confirm the matched line: the registrant’s badge is paid (en)', async ({
  page,
  browser,
}) => {
  await signIn(page, uniqueEmail('statement'), 'en', 'Chen Mei-Ling');
  const order = await applyForBadge(page, 'en', 'Chen Mei-Ling');
  expect(order.status).toBe(201);
  const digits = freshDigits();
  await declareTransfer(page, 'en', order.orderId, digits);
  await expect(page.getByText('We are checking your transfer.', { exact: false })).toBeVisible();

  const admin = await organiserPage(browser, 'en');
  await admin.goto('/en/admin/transfers');
  await hydrated(admin);
  const row = admin.getByRole('row').filter({ hasText: order.orderNo });
  await expect(row).toContainText(`Last five digits: ${digits}`);
  await expect(row).toContainText('TWD 1,000');

  // The bank's export: Big5, a header, the registrant's transfer and a fee (a debit).
  const csv = new Uint8Array([
    ...BIG5_HEADER,
    ...new TextEncoder().encode(`${statementDate()},,"1,000",0001234${digits},`),
    ...BIG5_MEMO,
    13,
    10,
    ...new TextEncoder().encode(`${statementDate()},15,,,FEE\r\n`),
  ]);
  await admin
    .getByLabel('Statement file (CSV)')
    .setInputFiles({ name: 'statement-big5.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await admin.getByRole('button', { name: 'Read the file' }).click();
  await expect(
    admin.getByRole('heading', { name: 'Read as Big5 (Traditional Chinese): 3 lines, 5 columns.' }),
  ).toBeFocused();
  await expect(admin.getByRole('table', { name: 'The first lines of the file' })).toContainText('跨行轉入');
  // The columns: preselected from the names (first import of this format) or as remembered.
  await expect(admin.getByLabel('Date', { exact: true })).toHaveValue('0');
  await expect(admin.getByLabel('Credit (deposit)', { exact: true })).toHaveValue('2');
  await expect(admin.getByLabel("Remitter's account (its last five digits are matched)")).toHaveValue('3');
  await expectAccessible(admin);
  await admin.getByRole('button', { name: 'Import and match' }).click();

  // The import's page: the credit matched with the order, the fee ignored; confirm in one action.
  await admin.waitForURL(/\/en\/admin\/transfers\/imports\/[\w-]+$/);
  await hydrated(admin);
  const line = admin.getByRole('row').filter({ hasText: order.orderNo });
  await expect(line).toContainText('Matched');
  await expect(admin.getByRole('row').filter({ hasText: 'FEE' })).toContainText('Debit (ignored)');
  await expectAccessible(admin);
  await admin.getByRole('button', { name: 'Confirm matched lines (1)' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Confirm matched lines (1)' }).click();
  await expect(admin.getByRole('status').filter({ hasText: '1 paid, 0 not paid.' })).toBeFocused();
  await expect(line).toContainText('Paid');
  await expect(line).toContainText(`Confirmed by ${ORGANISER}`);

  // The registrant: paid, with the pick-up QR code.
  await page.goto('/en/account/badge');
  await expect(page.getByRole('img', { name: 'QR code for picking up your badge' })).toBeVisible();

  // The order page shows the payment and who made it.
  await admin.goto(`/en/admin/orders/${order.orderNo}`);
  await expect(admin.getByRole('table', { name: 'Payments and card attempts' })).toContainText('TWD 1,000');
  await expect(admin.getByRole('listitem').filter({ hasText: /^Paid/ })).toContainText(ORGANISER);
  await admin.context().close();
});

test('send a transfer back with a message: the registrant sees it and can pay again (zh-TW)', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('sent-back');
  await signIn(page, email, 'zh-tw');
  const order = await applyForBadge(page, 'zh-TW', 'Chen Mei-Ling');
  expect(order.status).toBe(201);
  await declareTransfer(page, 'zh-tw', order.orderId, freshDigits());

  const admin = await organiserPage(browser, 'zh-tw');
  await admin.goto('/zh-tw/admin/transfers');
  await hydrated(admin);
  await expectAccessible(admin);
  await admin.getByRole('button', { name: `退回訂單 ${order.orderNo} 的轉帳` }).click();
  const dialog = admin.getByRole('dialog', { name: `退回訂單 ${order.orderNo} 的轉帳？` });
  const message = '尚未收到您的匯款，請確認帳號末五碼是否正確。';
  await dialog.getByLabel('給報名者的留言').fill(message);
  await expectAccessible(admin);
  await dialog.getByRole('button', { name: '退回' }).click();
  const row = admin.getByRole('row').filter({ hasText: order.orderNo });
  await expect(row.getByText(/^已退回；新期限/)).toBeFocused();

  // The registrant: My badge goes on to pay, which shows the organiser's message.
  await page.goto('/zh-tw/account/badge');
  await page.waitForURL(/\/pay$/);
  await expect(page.getByRole('heading', { name: '我們無法確認您的轉帳' })).toBeVisible();
  await expect(page.getByText(message)).toBeVisible();
  await expectAccessible(page);
  // …and was e-mailed it, with the link to pay again.
  await expect(async () => {
    await page.goto(`/dev-mailbox?lang=zh-TW&to=${encodeURIComponent(email)}`);
    await expect(page.getByRole('link', { name: `訂單 ${order.orderNo}：請確認您的轉帳資料` })).toBeVisible({
      timeout: 500,
    });
  }).toPass({ timeout: 30_000 });
  await admin.context().close();
});

test('refunds due: record a refund with its reference; the order page shows it (en)', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, uniqueEmail('refund'), 'en');
  const order = await applyForBadge(page, 'en', 'Chen Mei-Ling');
  expect(order.status).toBe(201);
  expect(operator('orders', ['mark-paid', order.orderNo], baseURL!)).toMatch(/paid/);
  expect(operator('orders', ['cancel', order.orderNo, '--reason', 'Asked to cancel'], baseURL!)).toMatch(/canceled/);

  const admin = await organiserPage(browser, 'en');
  await admin.goto('/en/admin/refunds');
  await hydrated(admin);
  const row = admin.getByRole('row').filter({ hasText: order.orderNo });
  await expect(row).toContainText('Order canceled');
  await expect(row).toContainText('TWD 1,000');
  await expectAccessible(admin);
  await admin.getByRole('button', { name: `Refunded: order ${order.orderNo}` }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Refunded' }).click();
  await expect(dialog.getByText("Enter the refund's reference")).toBeVisible();
  await dialog.getByLabel('Refund reference (merchant console or bank)').fill('RF-0042');
  await dialog.getByRole('button', { name: 'Refunded' }).click();
  await expect(row.getByText('Refunded, reference RF-0042')).toBeFocused();

  await admin.goto(`/en/admin/orders/${order.orderNo}`);
  await expect(admin.getByRole('table', { name: 'Payments and card attempts' })).toContainText(
    'Refund reference RF-0042',
  );
  await admin.context().close();
});
