import { expect, test, type Page } from '@playwright/test';
import { addWork, expectAccessible, hydrated, registerMarketOnline, signIn, uniqueEmail } from './fixtures';

/*
 * The back office's orders (issue 11): only organisers get in; an organiser finds an order by
 * its company, opens it, sees what was submitted, and rejects it with a reason that the
 * registrant then reads; the order's history names the organiser.
 */

/** A Market online registration of the signed-in user, as the wizard places it. */
async function registerOnline(page: Page, company: string) {
  await page.goto('/en/');
  return registerMarketOnline(page, company);
}

test.describe('back office: orders', () => {
  test('a registrant is told the back office is for organisers (403)', async ({ page }) => {
    await signIn(page, uniqueEmail('not-organiser'), 'en');
    const res = await page.goto('/en/admin/orders');
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'This page is for organisers' })).toBeVisible();
    await expectAccessible(page);
  });

  test('find an order by company, read it, reject it with a reason; the registrant reads the reason (zh-TW)', async ({
    browser,
    baseURL,
  }) => {
    const company = `Harbour Pictures ${Date.now()}`;
    const registrant = await (await browser.newContext({ baseURL })).newPage();
    await signIn(registrant, uniqueEmail('admin-reject'), 'zh-tw', 'May Lin');
    await addWork(registrant, 'Harbour Lights', '港灣燈火');
    const order = await registerOnline(registrant, company);
    expect(order.status).toBe(201);

    // The registrant's order list, rendered (and kept by the page cache) before the organiser acts.
    await registrant.goto('/zh-tw/account/orders');
    await expect(registrant.getByRole('article').filter({ hasText: order.orderNo })).toContainText('待審核');

    const organiser = await (await browser.newContext({ baseURL })).newPage();
    await signIn(organiser, 'organiser@example.com', 'zh-tw');
    await organiser.goto('/zh-tw/admin/orders');
    await expect(organiser.getByRole('heading', { name: '訂單', level: 1 })).toBeVisible();
    await organiser.getByLabel('搜尋', { exact: true }).fill(company.toLowerCase());
    await organiser.getByLabel('審核狀態').selectOption({ label: '待審核' });
    await organiser.getByRole('button', { name: '搜尋' }).click();
    await expect(organiser.getByRole('status')).toHaveText('共 1 筆訂單');
    await expectAccessible(organiser);
    await organiser.getByRole('link', { name: order.orderNo }).click();

    // What the registrant submitted, labelled as the registrant saw it.
    await expect(organiser.getByRole('heading', { name: `訂單 ${order.orderNo}`, level: 1 })).toBeVisible();
    await expect(organiser.getByText(company)).toBeVisible();
    await expect(organiser.getByText('台灣')).toBeVisible(); // CLDR's name (decision 015)
    await expect(organiser.getByText('港灣燈火')).toBeVisible();
    await hydrated(organiser);
    await expectAccessible(organiser);

    // Reject: a reason is required, then the order and its history show it.
    await organiser.getByRole('button', { name: '不核准' }).click();
    const dialog = organiser.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: `不核准訂單 ${order.orderNo}？` })).toBeVisible();
    await dialog.getByRole('button', { name: '不核准' }).click();
    await expect(dialog.getByText('請填寫原因')).toBeVisible();
    await dialog.getByLabel('原因（報名者會看到）').fill('線上展位已額滿。');
    await dialog.getByRole('button', { name: '不核准' }).click();
    await expect(organiser.getByText('原因：線上展位已額滿。').first()).toBeVisible();
    const history = organiser.getByRole('region', { name: '歷程' });
    await expect(history.getByText('審核未通過')).toBeVisible();
    await expect(history.getByText('主辦單位 (organiser@example.com)')).toBeVisible();
    await expect(organiser.getByText('此訂單目前的狀態沒有可執行的操作。')).toBeVisible();

    // The order list shows the change at once: the cached page's version changed with the order.
    await registrant.goto('/zh-tw/account/orders');
    await expect(registrant.getByRole('article').filter({ hasText: order.orderNo })).toContainText('線上展位已額滿。');

    await registrant.goto(`/zh-tw/events/market-online/registrations/${order.orderId}/pending`);
    await expect(registrant.getByRole('heading', { name: '您的報名未通過審核' })).toBeVisible();
    await expect(registrant.getByText('線上展位已額滿。')).toBeVisible();
  });
});
