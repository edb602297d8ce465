import { expect, test } from '@playwright/test';
import { expectAccessible, signIn, uniqueEmail } from './fixtures';

test.describe('dev content site', () => {
  test('a signed-in user adds a work in Chinese and finds it in the portal API', async ({ page }) => {
    await signIn(page, uniqueEmail('works'));
    await page.goto('/dev-content?lang=zh-TW');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.getByRole('heading', { level: 1, name: '我的作品' })).toBeVisible();
    await expect(page.getByText('您還沒有作品，請在下方新增。')).toBeVisible();
    await expectAccessible(page);

    // Nothing filled in: every field says what is missing.
    await page.getByRole('button', { name: '新增作品' }).click();
    await expect(page.getByRole('alert')).toContainText('請輸入英文名稱。');
    await expect(page.getByLabel('英文名稱')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('英文名稱').fill('Harbour Lights');
    await page.getByLabel('中文名稱').fill('港灣燈火');
    await page.getByRole('radio', { name: '企劃' }).check();
    await page.getByLabel('類別').selectOption({ label: '紀錄片' });
    await page.getByLabel('新臺幣價格（元）').fill('2000');
    await page.getByLabel('美元價格（元）').fill('65');
    await page.getByRole('button', { name: '新增作品' }).click();

    await expect(page.getByRole('status')).toHaveText('已新增作品「港灣燈火」。');
    const row = page.getByRole('row', { name: /港灣燈火/ });
    await expect(row).toContainText('Harbour Lights');
    await expect(row).toContainText('企劃');
    await expect(row).toContainText('紀錄片');
    await expect(row).toContainText('新臺幣 2,000 元');
    await expect(row).toContainText('US$65.00');
    await expectAccessible(page);

    // The way back to the portal, in the same language.
    await page.getByRole('link', { name: '回到報名網站' }).click();
    await expect(page).toHaveURL(/\/zh-tw\//);

    // The portal's API lists it (from a portal page: the content site's CSP allows no fetch).
    const works = await page.evaluate(async () => {
      const res = await fetch('/api/v1/contents/remote?lang=zh-TW');
      return (await res.json()) as { data: { name: string; genre_id: string; price_twd: { cents: number } }[] };
    });
    expect(works.data).toEqual([
      expect.objectContaining({
        name: '港灣燈火',
        genre_id: 'project',
        price_twd: { cents: 200_000, currency: 'TWD' },
      }),
    ]);
  });

  test('a visitor is asked to sign in and comes back to the content site', async ({ page }) => {
    await page.goto('/dev-content?lang=en');
    await expect(page.getByText('Please sign in first to see and add your works.')).toBeVisible();
    await page.getByRole('link', { name: 'Sign in / Register' }).click();
    await page.getByLabel('E-mail').fill('amy@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dev-content\?lang=en/);
    // Amy's demo works are seeded.
    await expect(page.getByRole('row', { name: /The Lighthouse Keeper/ })).toBeVisible();
  });
});
