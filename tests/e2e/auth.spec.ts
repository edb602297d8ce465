import { hkdfSync } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { decodeJwt, SignJWT } from 'jose';
import { fillDevSignIn, signIn, uniqueEmail } from './fixtures';

/** The portal's session cookie (OIDC mode, the default; decision 019). */
const SESSION = 'portal-session';

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

  test('the session is an HttpOnly cookie no script reads; the sign-in screen sends a signed-in user on', async ({
    page,
    context,
  }) => {
    await signIn(page, uniqueEmail('store'));
    const cookie = (await context.cookies()).find((c) => c.name === SESSION);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.httpOnly).toBe(true);
    expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION);
    expect(await page.evaluate(() => localStorage.getItem('idc-token'))).toBeNull();
    await page.goto('/en/signin');
    await expect(page).toHaveURL(/\/en\/account\/orders$/);
  });

  test('log out ends the session, and signing in again returns to the page of the logout', async ({
    page,
    context,
    request,
  }) => {
    const email = uniqueEmail('logout');
    await signIn(page, email, 'en', 'Lee');
    await page.goto('/en/account/orders');
    const session = (await context.cookies()).find((c) => c.name === SESSION)!.value;
    await page.getByRole('banner').locator('summary').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/en\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in / Register' })).toBeVisible();
    expect((await context.cookies()).find((c) => c.name === SESSION)).toBeUndefined();
    // Ended on the server, not only forgotten by this browser: a copy of the cookie is refused.
    const replay = await request.get('/api/v1/user/me', { headers: { cookie: `${SESSION}=${session}` } });
    expect(replay.status()).toBe(401);
    await page.getByRole('main').getByRole('link', { name: 'Sign in / Register' }).click();
    await fillDevSignIn(page, email);
    await expect(page).toHaveURL(/\/en\/account\/orders$/);
  });

  test('a page renews a session credential older than five minutes (the session slides)', async ({
    page,
    context,
    baseURL,
  }) => {
    await signIn(page, uniqueEmail('slide'), 'en', 'Sam');
    const fresh = (await context.cookies()).find((c) => c.name === SESSION)!;
    // The same session's credential as if issued ten minutes ago, signed as the server signs it
    // (the development SESSION_SECRET the suite's server runs with).
    const claims = decodeJwt(fresh.value);
    const key = new Uint8Array(
      hkdfSync('sha256', 'development-session-secret-not-for-production-use', '', 'portal session signing', 32),
    );
    const aged = await new SignJWT({ sid: claims.sid, email: claims.email, name: claims.name })
      .setProtectedHeader({ alg: 'HS256', typ: 'session+jwt' })
      .setIssuer(claims.iss!)
      .setAudience(claims.aud!)
      .setSubject(claims.sub!)
      .setIssuedAt(claims.iat! - 600)
      .setExpirationTime(claims.exp!)
      .sign(key);
    await context.addCookies([{ name: SESSION, value: aged, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
    await page.goto('/en/account/orders');
    await expect(page.getByRole('heading', { level: 1, name: 'Order list' })).toBeVisible();
    const renewed = (await context.cookies()).find((c) => c.name === SESSION)!;
    expect(renewed.value).not.toBe(aged);
    expect(renewed.httpOnly).toBe(true);
    expect(decodeJwt(renewed.value)).toMatchObject({ sid: claims.sid, email: claims.email });
    expect(decodeJwt(renewed.value).iat).toBeGreaterThan(claims.iat! - 600);
  });

  test('an invalid token is treated as signed out: cleared, path stored, sent home', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: SESSION, value: 'not.a.token', url: baseURL! }]);
    await page.goto('/en/account/orders');
    await expect(page).toHaveURL(/\/en\/$/);
    expect((await context.cookies()).find((c) => c.name === SESSION)).toBeUndefined();
    const stored = (await context.cookies()).find((c) => c.name === 'idc-return-path')?.value ?? '';
    expect(decodeURIComponent(stored)).toBe('/en/account/orders');
  });

  test('a sign-in cancelled at the identity provider says so', async ({ page }) => {
    await page.goto('/en/');
    await page.getByRole('main').getByRole('link', { name: 'Sign in / Register' }).click();
    await expect(page).toHaveURL(/\/dev-identity\/signin/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/en\/signin\?error=access_denied$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Sign-in was cancelled at the identity service. You can try again.',
    );
  });

  test('a sign-in whose identity provider cannot be reached says so, in both languages', async ({ page }) => {
    await page.goto('/en/signin?error=provider_unavailable');
    await expect(page.getByRole('alert')).toHaveText(
      'The sign-in service cannot be reached right now. Please try again in a few minutes.',
    );
    await page.goto('/zh-tw/signin?error=provider_unavailable');
    await expect(page.getByRole('alert')).toHaveText('目前無法連線至登入服務，請過幾分鐘再試。');
  });

  test('a request naming another Host is refused (no SITE_URL: the Host would make our links)', async ({ baseURL }) => {
    const { hostname, port } = new URL(baseURL!);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ hostname, port, path: '/en/', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status('evil.example')).toBe(421);
    expect(await status(`evil.example:${port}`)).toBe(421);
    expect(await status(`localhost:${port}`)).toBe(200);
    // A Host with a user part names no host at all: 400, not Astro's 500 (issue 20).
    expect(await status(`x@localhost:${port}`)).toBe(400);
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
