import { expect, test } from '@playwright/test';
import { fillDevSignIn, signIn, uniqueEmail } from './fixtures';

test.describe('sign-in and sign-out', () => {
  test('an unsigned visit to the order list is sent home and comes back there after sign-in', async ({ page }) => {
    await page.goto('/en/account/orders');
    await expect(page).toHaveURL(/\/en\/$/);
    await expect(page.getByRole('heading', { name: 'Sign in or register to continue' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Sign in / Register' }).click();
    await fillDevSignIn(page, uniqueEmail('return'));
    await expect(page).toHaveURL(/\/en\/account\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Order list' })).toBeVisible();
  });

  test('signing in from a page comes back to that page', async ({ page }) => {
    await page.goto('/zh-tw/signin');
    await expect(page.getByRole('heading', { name: '請先登入' })).toBeVisible();
    await page.goto('/zh-tw/');
    await page.getByRole('banner').getByRole('link', { name: '登入／註冊' }).click();
    await fillDevSignIn(page, uniqueEmail('home'), '王小明');
    // From the home page there is no page to come back to: the order list is the default.
    await expect(page).toHaveURL(/\/zh-tw\/account\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: '訂單列表' })).toBeVisible();
    await expect(page).toHaveTitle(/^訂單 \|/);
  });

  test('the token is kept in localStorage and the cookie; the sign-in screen sends a signed-in user on', async ({
    page,
    context,
  }) => {
    await signIn(page, uniqueEmail('store'));
    const cookie = (await context.cookies()).find((c) => c.name === 'idc-token');
    expect(cookie?.sameSite).toBe('Lax');
    expect(await page.evaluate(() => localStorage.getItem('idc-token'))).toBe(cookie?.value);
    await page.goto('/en/signin');
    await expect(page).toHaveURL(/\/en\/account\/orders$/);
  });

  test('log out clears the token, and signing in again returns to the page of the logout', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('logout');
    await signIn(page, email, 'en', 'Lee');
    await page.goto('/en/account/orders');
    await page.getByRole('banner').locator('summary').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/en\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in / Register' })).toBeVisible();
    expect((await context.cookies()).find((c) => c.name === 'idc-token')).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('idc-token'))).toBeNull();
    await page.getByRole('main').getByRole('link', { name: 'Sign in / Register' }).click();
    await fillDevSignIn(page, email);
    await expect(page).toHaveURL(/\/en\/account\/orders$/);
  });

  test('an invalid token is treated as signed out: cleared, path stored, sent home', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'idc-token', value: 'not.a.token', url: baseURL! }]);
    await page.goto('/en/account/orders');
    await expect(page).toHaveURL(/\/en\/$/);
    expect((await context.cookies()).find((c) => c.name === 'idc-token')).toBeUndefined();
    const stored = (await context.cookies()).find((c) => c.name === 'idc-return-path')?.value ?? '';
    expect(decodeURIComponent(stored)).toBe('/en/account/orders');
  });

  test('the user menu links to the member centre with the locale, my badge and the order list', async ({ page }) => {
    await signIn(page, uniqueEmail('menu'), 'zh-tw');
    await page.getByRole('banner').locator('summary').click();
    const member = page.getByRole('link', { name: /會員中心/ });
    await expect(member).toHaveAttribute('href', /locale=zh-TW/);
    await expect(page.getByRole('link', { name: '我的識別證' })).toHaveAttribute('href', '/zh-tw/account/badge');
    await expect(page.getByRole('banner').getByRole('link', { name: '訂單列表' })).toHaveAttribute(
      'href',
      '/zh-tw/account/orders',
    );
  });
});
