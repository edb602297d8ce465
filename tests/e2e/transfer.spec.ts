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
  await expect(page.getByText('對帳中')).toBeVisible();
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
  await page.getByRole('button', { name: 'Continue' }).click();
  await applyForBadge(page, false, 'Submit');
  await page.waitForURL(/\/en\/account\/badge$/);
  await expect(page.getByText('VIP', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for picking up your badge' })).toBeVisible();

  const other = await browser.newContext();
  const second = await other.newPage();
  await signIn(second, uniqueEmail('free-again'), 'en');
  await second.goto(path);
  await hydrated(second);
  await second.getByRole('button', { name: 'Continue' }).click();
  const alert = new Promise<string>((resolve) =>
    second.once('dialog', async (d) => {
      resolve(d.message());
      await d.accept();
    }),
  );
  await applyForBadge(second, false, 'Submit');
  expect(await alert).toBe('This link has already been used.');
  await expect(second).toHaveURL(new RegExp(`${path}$`));
  await other.close();
});

test('a user who has a badge is told so on badges/new and sent to the badge page', async ({ page, baseURL }) => {
  const out = operator('badge-link', ['--type', 'exhibitor-market'], baseURL!);
  const path = new URL(/https?:\/\/\S+\/en\/get-badge\/\S+/.exec(out)![0]).pathname;
  await signIn(page, uniqueEmail('has'), 'en');
  await page.goto(path);
  await hydrated(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await applyForBadge(page, false, 'Submit');
  await page.waitForURL(/\/en\/account\/badge$/);
  const alert = new Promise<string>((resolve) =>
    page.once('dialog', async (d) => {
      resolve(d.message());
      await d.accept();
    }),
  );
  await page.goto('/en/badges/new');
  expect(await alert).toBe('One e-mail can apply for only one badge.');
  await page.waitForURL(/\/en\/account\/badge$/);
});
