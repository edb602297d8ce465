import { expect, test } from '@playwright/test';
import { expectAccessible, signIn, uniqueEmail } from './fixtures';

test.describe('shell, locales and the order list', () => {
  test('a spec route without a locale redirects by ?locale=, then the stored choice, then the browser', async ({
    browser,
    baseURL,
  }) => {
    const zh = await browser.newContext({ locale: 'zh-TW', extraHTTPHeaders: { 'accept-language': 'zh-TW,zh;q=0.9' } });
    const page = await zh.newPage();
    await page.goto(`${baseURL}/signin?x=1`);
    await expect(page).toHaveURL(/\/zh-tw\/signin\?x=1$/);
    await page.goto(`${baseURL}/signin?locale=en`);
    await expect(page).toHaveURL(/\/en\/signin$/);
    // The choice is now stored and wins over the browser's language.
    await page.goto(`${baseURL}/`);
    await expect(page).toHaveURL(/\/en\/$/);
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
    await zh.close();
  });

  test('the language selector switches to the same page and keeps it', async ({ page }) => {
    await signIn(page, uniqueEmail('lang'));
    await page.goto('/en/account/orders');
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: '繁體中文' }).click();
    await expect(page).toHaveURL(/\/zh-tw\/account\/orders$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.getByRole('heading', { level: 1, name: '訂單列表' })).toBeVisible();
    await page.getByRole('navigation', { name: '語言' }).getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/en\/account\/orders$/);
  });

  for (const [locale, empty, back] of [
    ['en', 'No registration orders yet', 'Back to the official site'],
    ['zh-tw', '尚無報名訂單', '返回官方網站'],
  ] as const) {
    test(`the empty order list (${locale})`, async ({ page }) => {
      await signIn(page, uniqueEmail(`empty-${locale}`), locale);
      await page.goto(`/${locale}/account/orders`);
      await expect(page.getByText(empty)).toBeVisible();
      await expect(page.getByRole('link', { name: back })).toHaveAttribute('href', 'https://tccf.taicca.tw/');
      await expectAccessible(page);
    });
  }

  test('orders are cards with number, dates, statuses and a link to the summary', async ({ page }) => {
    await signIn(page, 'cards@example.com', 'zh-tw');
    await page.goto('/zh-tw/account/orders');
    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(12);
    const first = cards.first();
    await expect(first.getByText('訂單編號')).toBeVisible();
    await expect(first.getByText(/\d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2}.*\(GMT\+8\)/)).toBeVisible();
    await expect(first.getByRole('link', { name: /^查看詳情\s*（訂單 TC[0-9A-Z]+）$/ })).toHaveAttribute(
      'href',
      /^\/zh-tw\/events\/[^/]+\/registrations\/[0-9a-f-]+$/,
    );
    await expect(page.getByText('已送出（保留資格）').first()).toBeVisible();
    await expect(page.getByText('待審核').first()).toBeVisible();
    await expectAccessible(page);
    // No React runtime on a page without interaction.
    await expect(page.locator('astro-island')).toHaveCount(0);
  });

  for (const locale of ['en', 'zh-tw'] as const) {
    test(`the error page for an unknown page, with the header (${locale})`, async ({ page }) => {
      const res = await page.goto(`/${locale}/no-such-page`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(
        page.getByText(locale === 'en' ? 'Sorry, an unexpected error has occurred.' : '很抱歉，發生未預期的錯誤。'),
      ).toBeVisible();
      await expect(page.getByRole('alert').locator('i')).toHaveText(locale === 'en' ? 'Not Found' : '找不到頁面');
      await expectAccessible(page);
    });
  }

  test('every public page passes axe in both languages', async ({ page }) => {
    for (const path of ['/en/', '/zh-tw/', '/en/signin', '/zh-tw/signin']) {
      await page.goto(path);
      await expectAccessible(page);
    }
    await page.goto('/zh-tw/');
    await page.getByRole('main').getByRole('link', { name: '登入／註冊' }).click();
    await expect(page.getByLabel('電子郵件')).toBeVisible();
    await expectAccessible(page);
  });

  test('pages are served compressed with security headers', async ({ request }) => {
    const res = await request.get('/en/', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers()['content-encoding']).toMatch(/br|gzip/);
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    expect(res.headers()['referrer-policy']).toBeTruthy();
    expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers()['content-security-policy']).toContain('script-src');
  });

  test('a cross-site form post is refused', async ({ request }) => {
    const res = await request.post('/en/auth/logout', {
      headers: { origin: 'https://evil.example' },
      form: { fromPath: '/en/' },
    });
    expect(res.status()).toBe(403);
  });
});
