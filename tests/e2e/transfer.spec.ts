import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, operator, signIn, uniqueEmail } from './fixtures';

const PHOTO = 'tests/e2e/files/photo.png';

async function applyForBadge(page: Page, zh: boolean, submitLabel: string) {
  await page
    .getByLabel(zh ? '英文姓名' : 'English name')
    .first()
    .fill('Chen Mei-Ling');
  await page.getByLabel(zh ? '聯絡電話' : 'Contact phone').fill('886-2-2345-6789');
  await page.getByLabel(zh ? '同申請人資料' : 'Same as applicant').check();
  await page.locator('#personal_photo').setInputFiles(PHOTO);
  await expect(page.getByText(zh ? '已上傳：photo.png' : 'Uploaded: photo.png')).toBeVisible();
  await page.getByRole('button', { name: submitLabel }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: zh ? '送出' : 'Submit' })
    .click();
}

test('pay by transfer: checking state, correct the digits on the summary, operator confirms, QR appears (zh-TW)', async ({
  page,
  baseURL,
}) => {
  await signIn(page, uniqueEmail('transfer'), 'zh-tw');
  await page.goto('/zh-tw/badges/new');
  await hydrated(page);
  await page.getByLabel('我已閱讀並同意購買須知').check();
  await page.getByRole('button', { name: '下一步' }).click();
  await applyForBadge(page, true, '送出並前往付款');
  await page.waitForURL(/\/pay$/);
  await hydrated(page);
  await page.getByLabel('新臺幣匯款').check();
  await expect(page.getByText('轉帳後請務必以帳號末五碼確認訂單')).toBeVisible();
  await page.getByLabel('帳號末五碼').fill('1234');
  await page.getByRole('button', { name: '確認轉帳資料' }).click();
  await expect(page.getByText('請輸入 5 位數字')).toBeVisible();
  await page.getByLabel('帳號末五碼').fill('12345');
  await page.getByRole('button', { name: '確認轉帳資料' }).click();

  // The badge page shows the checking state and no QR code yet.
  await page.waitForURL(/\/zh-tw\/account\/badge$/);
  await expect(page.getByText('正在核對您的轉帳')).toBeVisible();
  await expect(page.getByRole('img', { name: '領取識別證用的 QR Code' })).toHaveCount(0);
  await expectAccessible(page);

  // The order list leads to the summary, where the digits can still be corrected.
  await page.goto('/zh-tw/account/orders');
  await expect(page.getByText('對帳中', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: /查看詳情/ }).click();
  await hydrated(page);
  await expect(page.getByRole('heading', { name: '我們已收到您的識別證申請。' })).toBeVisible();
  await page.getByLabel('帳號末五碼').fill('54321');
  await page.getByRole('button', { name: '儲存' }).click();
  await expect(page.getByRole('status').filter({ hasText: '更新成功' })).toBeVisible();
  await expectAccessible(page);
  const orderNo = (await page.locator('dd.font-mono').first().textContent())!.trim();

  // The organiser confirms the transfer with the operator command.
  expect(operator('orders', ['mark-paid', orderNo], baseURL!)).toMatch(/paid/);
  await page.reload();
  await expect(page.getByText('此訂單已付款，匯款與發票資料無法再修改。')).toBeVisible();
  await expect(page.getByLabel('帳號末五碼')).toHaveCount(0);
  await expect(page.getByText('54321')).toBeVisible();
  await page.goto('/zh-tw/account/badge');
  await expect(page.getByText('您的識別證登記已完成。')).toBeVisible();
  await expect(page.getByRole('img', { name: '領取識別證用的 QR Code' })).toBeVisible();
});

test('claim a free badge by link; the same link is then refused (en)', async ({ page, browser, baseURL }) => {
  const out = operator('badge-link', ['--type', 'vip'], baseURL!);
  const url = /https?:\/\/\S+\/en\/get-badge\/vip\/\S+/.exec(out)?.[0];
  expect(url, out).toBeTruthy();
  const path = new URL(url!).pathname;

  await signIn(page, uniqueEmail('free'), 'en');
  await page.goto(path);
  await hydrated(page);
  await expect(page.getByText('Badge type: VIP')).toBeVisible();
  // The same terms checkbox as the paid flow (consent to data disclosure): continue waits for it.
  await expect(page.getByText('You consent to your registration data being disclosed', { exact: false })).toBeVisible();
  const next = page.getByRole('button', { name: 'Continue' });
  await expect(next).toBeDisabled();
  await page.getByLabel('I have read the notice and agree to it').check();
  await next.click();
  await applyForBadge(page, false, 'Submit');
  await page.waitForURL(/\/en\/account\/badge$/);
  await expect(page.getByText('VIP', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for picking up your badge' })).toBeVisible();

  const other = await browser.newContext();
  const second = await other.newPage();
  await signIn(second, uniqueEmail('free-again'), 'en');
  await second.goto(path);
  // The used link is refused when the page opens, before any form.
  await expect(second.getByText('This link has already been used.')).toBeVisible();
  await expect(second.getByRole('button', { name: 'Continue' })).toHaveCount(0);
  await other.close();
});

test('a user who has a badge is told so on badges/new and sent to the badge page', async ({ page, baseURL }) => {
  const out = operator('badge-link', ['--type', 'exhibitor-market'], baseURL!);
  const path = new URL(/https?:\/\/\S+\/en\/get-badge\/\S+/.exec(out)![0]).pathname;
  await signIn(page, uniqueEmail('has'), 'en');
  await page.goto(path);
  await hydrated(page);
  await page.getByLabel('I have read the notice and agree to it').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await applyForBadge(page, false, 'Submit');
  await page.waitForURL(/\/en\/account\/badge$/);
  // An in-page alert dialog (not the browser's alert), then the badge page.
  await page.goto('/en/badges/new');
  const alert = page.getByRole('alertdialog', { name: 'One e-mail can apply for only one badge.' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'OK' })).toBeFocused();
  await expectAccessible(page);
  await alert.getByRole('button', { name: 'OK' }).click();
  await page.waitForURL(/\/en\/account\/badge$/);
});

test('pay page (zh-TW): bank details in Chinese, no SWIFT for ATM, errors follow the method, full-width digits, the draft survives a language switch', async ({
  page,
}) => {
  await signIn(page, uniqueEmail('paydraft'), 'zh-tw');
  await page.goto('/zh-tw/badges/new');
  await hydrated(page);
  await page.getByLabel('我已閱讀並同意購買須知').check();
  await page.getByRole('button', { name: '下一步' }).click();
  await applyForBadge(page, true, '送出並前往付款');
  await page.waitForURL(/\/zh-tw\/badges\/[0-9a-f-]+\/pay$/);
  await hydrated(page);

  // USD remittance: the bank and account holder in Chinese, with the SWIFT code.
  await page.getByLabel('美元匯款').check();
  const instructions = page.getByRole('region', { name: '轉帳說明' });
  await expect(instructions.getByText('臺灣銀行 南港分行（範例帳戶）')).toBeVisible();
  await expect(instructions.getByText('文化內容策進院')).toBeVisible();
  await expect(instructions.getByText('SWIFT 代碼')).toBeVisible();
  await page.getByRole('button', { name: '確認轉帳資料' }).click();
  await expect(page.getByLabel('匯款人姓名')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('匯款銀行')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('帳號末五碼')).toHaveAttribute('aria-invalid', 'true');

  // TWD remittance does not ask for the remitter and bank: their errors go; the digits' stays.
  await page.getByLabel('新臺幣匯款').check();
  await expect(page.getByLabel('匯款人姓名')).not.toHaveAttribute('aria-invalid');
  await expect(page.getByLabel('匯款銀行')).not.toHaveAttribute('aria-invalid');
  await expect(page.getByLabel('帳號末五碼')).toHaveAttribute('aria-invalid', 'true');

  // ATM: no SWIFT code. Full-width digits are read as ASCII digits, and the error goes.
  await page.getByLabel('ATM 轉帳').check();
  await expect(instructions.getByText('SWIFT 代碼')).toHaveCount(0);
  await page.getByLabel('帳號末五碼').fill('１２３４５');
  await expect(page.getByLabel('帳號末五碼')).toHaveValue('12345');
  await expect(page.getByLabel('帳號末五碼')).not.toHaveAttribute('aria-invalid');
  await page.getByLabel('三聯式發票（公司）').check();
  await page.getByLabel('發票抬頭').fill('文化內容策進院');
  await page.getByLabel('統一編號').fill('０４５９５２５７');
  await expect(page.getByLabel('統一編號')).toHaveValue('04595257');
  await expectAccessible(page);

  // The language selector keeps what was entered; the English page names the bank in English.
  await page.getByRole('navigation', { name: '語言' }).getByRole('link', { name: 'English' }).click();
  await page.waitForURL(/\/en\/badges\/[0-9a-f-]+\/pay$/);
  await hydrated(page);
  await expect(page.getByLabel('ATM transfer')).toBeChecked();
  await expect(page.getByText('Bank of Taiwan, Nangang Branch (example account)')).toBeVisible();
  await expect(page.getByLabel('Last five digits of your account')).toHaveValue('12345');
  await expect(page.getByLabel('Invoice title')).toHaveValue('文化內容策進院');
  await expect(page.getByLabel('Unified business number')).toHaveValue('04595257');
  await page.getByRole('button', { name: 'Confirm transfer' }).click();
  await page.waitForURL(/\/en\/account\/badge$/);
  await expect(page.getByText('We are checking your transfer.', { exact: false })).toBeVisible();
  // Sent: the pay form's draft is gone.
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:')))).toEqual([]);
});
