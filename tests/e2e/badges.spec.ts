import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

const PHOTO = 'tests/e2e/files/photo.png';

/** Fills the badge wizard up to the confirm dialog (en or zh-tw labels). */
async function fillBadgeForm(page: Page, locale: 'en' | 'zh-tw') {
  const zh = locale === 'zh-tw';
  await page.goto(`/${locale}/badges/new`);
  await hydrated(page);
  const next = page.getByRole('button', { name: zh ? '下一步' : 'Continue' });
  await expect(next).toBeDisabled();
  await page.getByLabel(zh ? '我已閱讀並同意購買須知' : 'I have read the purchase notice and agree to it').check();
  await next.click();
  await page
    .getByLabel(zh ? '中文姓名' : 'Chinese name')
    .first()
    .fill('王小明');
  await page
    .getByLabel(zh ? '英文姓名' : 'English name')
    .first()
    .fill('Hsiao-ming Wang');
  await page.getByLabel(zh ? '聯絡電話' : 'Contact phone').fill('886-912-345-678');
  await page.getByLabel(zh ? '同申請人資料' : 'Same as applicant').check();
  await page.locator('#personal_photo').setInputFiles(PHOTO);
  await expect(page.getByText(zh ? '已上傳：photo.png' : 'Uploaded: photo.png')).toBeVisible();
}

async function submitBadgeForm(page: Page, locale: 'en' | 'zh-tw') {
  const zh = locale === 'zh-tw';
  await page.getByRole('button', { name: zh ? '送出並前往付款' : 'Submit and pay' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: zh ? '送出' : 'Submit' }).click();
  await page.waitForURL(/\/badges\/[0-9a-f-]+\/pay$/);
  await hydrated(page);
}

async function payByCard(page: Page, card: string, zh = false) {
  await page.getByRole('button', { name: zh ? '前往信用卡付款' : 'Pay by card' }).click();
  await page.waitForURL(/\/sandbox-gateway\//);
  await expectAccessible(page);
  await page.getByLabel(zh ? '卡號' : 'Card number', { exact: true }).fill(card);
  await page.getByLabel(zh ? '有效期限' : 'Expiry date').fill('12/39');
  await page.getByLabel(zh ? '安全碼' : 'CVC').fill('123');
  await page.getByRole('button', { name: zh ? /^付款/ : /^Pay/ }).click();
}

test.describe('Professional badge', () => {
  test('buy by card through the sandbox gateway and see the badge with its QR code (en)', async ({ page }) => {
    await signIn(page, uniqueEmail('card'), 'en', 'Card Buyer');
    await fillBadgeForm(page, 'en');
    await expectAccessible(page);
    await submitBadgeForm(page, 'en');
    await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible();
    await expectAccessible(page);
    await payByCard(page, '4000-2211-1111-1111');
    await page.waitForURL(/\/en\/account\/badge$/, { timeout: 30_000 });
    await expect(page.getByText('Your badge registration is complete.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code for picking up your badge' })).toBeVisible();
    await expect(page.getByText('TWD 1,000')).toBeVisible();
    await expect(page.getByRole('link', { name: /View photo/ })).toHaveAttribute('href', /\/api\/v1\/files\//);
    await expectAccessible(page);
  });

  test('a declined card shows that the payment did not go through, with the way back to pay (zh-TW)', async ({
    page,
  }) => {
    await signIn(page, uniqueEmail('declined'), 'zh-tw');
    await fillBadgeForm(page, 'zh-tw');
    await submitBadgeForm(page, 'zh-tw');
    await payByCard(page, '4000-0000-0000-0002', true);
    await page.waitForURL(/\/zh-tw\/badges\/[0-9a-f-]+\/processing$/);
    await expect(page.getByText('您的信用卡付款未成功。')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('link', { name: '返回付款頁面' }).click();
    await expect(page).toHaveURL(/\/zh-tw\/badges\/[0-9a-f-]+\/pay$/);
    await hydrated(page);
    await payByCard(page, '4000-2211-1111-1111', true);
    await page.waitForURL(/\/zh-tw\/account\/badge$/, { timeout: 30_000 });
    await expect(page.getByRole('img', { name: '領取識別證用的 QR Code' })).toBeVisible();
  });

  test('without a photo the form shows the missing-photo toast; the confirm dialog can be cancelled', async ({
    page,
  }) => {
    await signIn(page, uniqueEmail('nophoto'), 'en');
    await page.goto('/en/badges/new');
    await hydrated(page);
    await page.getByLabel('I have read the purchase notice and agree to it').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Submit and pay' }).click();
    // Required fields are named, and the photo field is marked too; the focus goes to the first.
    await expect(page.getByText('This field is required').first()).toBeVisible();
    const englishName = page.getByLabel('English name').first();
    await expect(englishName).toBeFocused();
    const photoButton = page.locator('#personal_photo-button');
    await expect(photoButton).toHaveAttribute('aria-invalid', 'true');
    await expect(photoButton).toHaveAccessibleDescription(/No personal photo selected/);
    await expectAccessible(page);
    // An error goes as soon as its field is valid.
    await englishName.fill('Lee');
    await expect(englishName).not.toHaveAttribute('aria-invalid');
    await expect(page.getByLabel('Contact phone')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Contact phone').fill('886-2-2345-6789');
    await expect(page.getByLabel('Contact phone')).not.toHaveAttribute('aria-invalid');
    await page.getByLabel('Same as applicant').check();
    await expect(page.getByText('This field is required')).toHaveCount(0);
    await page.getByRole('button', { name: 'Submit and pay' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'No personal photo selected' })).toBeVisible();
    // Back keeps the values.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('English name').first()).toHaveValue('Lee');
    await page.locator('#personal_photo').setInputFiles(PHOTO);
    await expect(page.getByText('Uploaded: photo.png')).toBeVisible();
    await expect(photoButton).not.toHaveAttribute('aria-invalid');
    const submit = page.getByRole('button', { name: 'Submit and pay' });
    await submit.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The focus returns to the button that opened the dialog.
    await expect(submit).toBeFocused();
    await expect(page).toHaveURL(/\/en\/badges\/new\?step=form$/);
  });

  test('an upload that is not really an image fails with the upload-failed message', async ({ page }) => {
    await signIn(page, uniqueEmail('badfile'), 'zh-tw');
    await page.goto('/zh-tw/badges/new');
    await hydrated(page);
    await page.getByLabel('我已閱讀並同意購買須知').check();
    await page.getByRole('button', { name: '下一步' }).click();
    // Text named .png: the server refuses it by its content, and the field says which rule failed.
    const status = page.locator('#personal_photo-status');
    await page.locator('#personal_photo').setInputFiles('tests/e2e/files/not-a-photo.png');
    await expect(status).toHaveText('檔案上傳失敗，請稍後再試不接受此檔案類型。');
    // Too large a file is refused in the browser, and says so.
    await page.locator('#personal_photo').setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    await expect(status).toHaveText('檔案上傳失敗，請稍後再試檔案超過 10 MB。');
    await expect(page.locator('[data-state="failed"]')).toBeVisible();
    await page.locator('#personal_photo').setInputFiles(PHOTO);
    await expect(page.getByText('已上傳：photo.png')).toBeVisible();
    // A preview, and a warning (not a refusal) for a photo smaller than the guidance.
    await expect(page.getByRole('img', { name: 'photo.png 的預覽' })).toBeVisible();
    await expect(page.getByText('此圖片為 64×64 px，至少 1000×1000 px 印製才清晰。', { exact: false })).toBeVisible();
  });

  test('signed out, the wizard asks to sign in', async ({ page }) => {
    await page.goto('/en/badges/new');
    await hydrated(page);
    await expect(page.getByText('Please sign in or register to continue.')).toBeVisible();
  });
});

test('no redirect loop: an unpaid badge order goes from the badge page to processing to pay (en)', async ({ page }) => {
  await signIn(page, uniqueEmail('loop'), 'en');
  await fillBadgeForm(page, 'en');
  await submitBadgeForm(page, 'en');
  const pay = page.url();
  // Unpaid and no card attempt yet: the badge page sends to processing, which has nothing to wait for.
  await page.goto('/en/account/badge');
  await expect(page).toHaveURL(pay);
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible();
  // The summary of the unpaid order offers the way to pay.
  await page.goto(pay.replace(/\/badges\/([0-9a-f-]+)\/pay$/, '/events/badge-professional/registrations/$1'));
  await expect(page.getByText('Your place is reserved until the payment deadline.', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'Go to payment' }).click();
  await expect(page).toHaveURL(pay);
  // Started a card payment and came back without paying: the processing page waits and offers pay.
  await page.getByRole('button', { name: 'Pay by card' }).click();
  await page.waitForURL(/\/sandbox-gateway\//);
  await page.goBack();
  await page.goto('/en/account/badge');
  await expect(page).toHaveURL(/\/en\/badges\/[0-9a-f-]+\/processing$/);
  await expect(page.getByText('We are confirming your payment.')).toBeVisible();
});
