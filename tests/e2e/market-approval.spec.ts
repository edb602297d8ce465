import { expect, test, type Page } from '@playwright/test';
import { addWork, expectAccessible, hydrated, operator, registerMarketOnline, signIn, uniqueEmail } from './fixtures';

/*
 * Market online after the wizard: the pending page until the organiser approves (operator
 * command), then pay by card, then the 4 included badge links on the summary and in the dev
 * mailbox; a rejection shown with its reason. The order is placed through the API the wizard
 * calls (the wizard itself has its own tests in market.spec.ts).
 */

/** Registers the signed-in user for Market online with their works, from the home page. */
async function registerOnline(page: Page, locale: 'en' | 'zh-tw') {
  await page.goto(`/${locale}/`);
  return registerMarketOnline(page);
}

test.describe('Market online: approval before payment', () => {
  test('pending until approved, then pay by card; the 4 badge links on the summary and in the mailbox (en)', async ({
    page,
    baseURL,
  }) => {
    const email = uniqueEmail('market-online');
    await signIn(page, email, 'en', 'May Lin');
    await addWork(page, 'Harbour Lights', '港灣燈火');
    const order = await registerOnline(page, 'en');
    expect(order.status).toBe(201);
    const summary = `/en/events/market-online/registrations/${order.orderId}`;

    // Summary and pay wait on the pending page.
    await page.goto(summary);
    await expect(page).toHaveURL(new RegExp(`${order.orderId}/pending$`));
    await expect(page.getByRole('heading', { name: 'Your registration is waiting for approval' })).toBeVisible();
    await expect(page.getByText('Harbour Lights')).toBeVisible();
    await expectAccessible(page);
    await page.goto(`${summary}/pay`);
    await expect(page).toHaveURL(/\/pending$/);

    // The organiser approves: the pending page sends the registrant to pay, with the notice.
    expect(operator('orders', ['approve', order.orderNo], baseURL!)).toMatch(/approved/);
    await page.goto(`${summary}/pending`);
    await expect(page).toHaveURL(new RegExp(`${order.orderId}/pay$`));
    await expect(page.getByText('You have passed review, please pay promptly')).toBeVisible();
    await hydrated(page);

    await page.getByRole('button', { name: 'Pay by card' }).click();
    await page.waitForURL(/\/sandbox-gateway\//);
    await page.getByLabel('Card number', { exact: true }).fill('4000-2211-1111-1111');
    await page.getByLabel('Expiry date').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(new RegExp(`${order.orderId}$`), { timeout: 30_000 });

    // The summary: works and the included badges, each a one-time link not used yet.
    await expect(page.getByRole('heading', { name: 'Included badges' })).toBeVisible();
    const links = page.getByRole('listitem').filter({ hasText: 'Not used yet' });
    await expect(links).toHaveCount(4);
    await expect(page.getByRole('heading', { name: 'Works' })).toBeVisible();
    await expectAccessible(page);
    const firstLink = await links.first().getByRole('link').first().getAttribute('href');
    expect(firstLink).toMatch(/^\/en\/get-badge\/exhibitor-market\/[\w-]+$/);

    // The mailbox: the approval mail (links to pay) and the badge links.
    await expect(async () => {
      await page.goto(`/dev-mailbox?lang=en&to=${encodeURIComponent(email)}`);
      await expect(page.getByRole('link', { name: /Approved: please pay/ })).toBeVisible({ timeout: 500 });
      await expect(page.getByRole('link', { name: /exhibitor badge links/ })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 30_000 });
    await page.getByRole('link', { name: /exhibitor badge links/ }).click();
    await expect(page.locator('body')).toContainText('/en/get-badge/exhibitor-market/');

    // A colleague opens a link: the free-badge claim of an Exhibitor (Market) badge.
    await page.goto(firstLink!);
    await expect(page.getByText(/Exhibitor \(Market\)/).first()).toBeVisible();
  });

  test('a rejected registration shows the reason on the pending page (zh-TW)', async ({ page, baseURL }) => {
    await signIn(page, uniqueEmail('market-rejected'), 'zh-tw');
    await addWork(page, 'Night Tram', '夜行電車');
    const order = await registerOnline(page, 'zh-tw');
    expect(order.status).toBe(201);
    await page.goto(`/zh-tw/events/market-online/registrations/${order.orderId}/pending`);
    await expect(page.getByRole('heading', { name: '您的報名正在等待審核' })).toBeVisible();

    const reason = '線上展位已額滿。';
    expect(operator('orders', ['reject', order.orderNo, '--reason', reason], baseURL!)).toMatch(/rejected/);
    await page.goto(`/zh-tw/events/market-online/registrations/${order.orderId}`);
    await expect(page).toHaveURL(/\/pending$/);
    await expect(page.getByRole('heading', { name: '您的報名未通過審核' })).toBeVisible();
    await expect(page.getByText(reason)).toBeVisible();
    await expect(page.getByRole('link', { name: '重新報名' })).toHaveAttribute(
      'href',
      '/zh-tw/events/market-online/registrations/new',
    );
    await expectAccessible(page);
  });
});
