import { expect, test, type Browser, type Page } from '@playwright/test';
import { addWork, expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * The back office's approvals queue (issue 11): the organiser in one browser context, the
 * applicant in another. The Market online registration is placed through the API the wizard calls
 * (the wizard has its own tests in market.spec.ts).
 */

const ORGANISER = 'organiser@example.com';

/** Registers the signed-in user for Market online with their works; returns the order id and number. */
async function registerOnline(page: Page, locale: 'en' | 'zh-tw', company: string) {
  await page.goto(`/${locale}/`);
  return page.evaluate(async (company) => {
    // The stored token, or (portal sessions) the session cookie a same-origin fetch sends.
    const token = localStorage.getItem('idc-token');
    const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const works = (await (await fetch('/api/v1/contents/remote', { headers: auth })).json()) as {
      data: { id: number }[];
    };
    const res = await fetch('/api/v1/orders?event=market-online', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        agree_terms: true,
        agree_disclosure: true,
        market_identity: 5,
        selected_contents: works.data.map((w) => w.id),
        company_name_zh: '港灣影業',
        company_name_en: company,
        company_industry: 3,
        company_business_category: [1],
        company_country: 'TWN',
        copyright_contacts: [
          { name_zh: '林小美', name_en: 'May Lin', phone: '886-912-345-678', email: 'may@example.com' },
        ],
        contact_name: 'May Lin',
        contact_title: 'Producer',
        contact_phone: '886-2-1234-5678',
        contact_email: 'may@example.com',
      }),
    });
    const body = (await res.json()) as { order_id: string; order_no: string };
    return { status: res.status, orderId: body.order_id, orderNo: body.order_no };
  }, company);
}

/** The organiser, signed in in a browser context of their own. */
async function organiserPage(browser: Browser, locale: 'en' | 'zh-tw') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ORGANISER, locale, 'Olivia Organiser');
  return page;
}

test.describe('Approvals', () => {
  test('approve a Market online registration: the applicant’s pending page turns into pay (en)', async ({
    page,
    browser,
  }) => {
    await signIn(page, uniqueEmail('approve-me'), 'en', 'May Lin');
    await addWork(page, 'Harbour Lights', '港灣燈火');
    const company = `Harbour Pictures ${Date.now()}`;
    const order = await registerOnline(page, 'en', company);
    expect(order.status).toBe(201);
    const summary = `/en/events/market-online/registrations/${order.orderId}`;
    await page.goto(`${summary}/pending`);
    await expect(page.getByRole('heading', { name: 'Your registration is waiting for approval' })).toBeVisible();

    const admin = await organiserPage(browser, 'en');
    await admin.goto('/en/admin/approvals');
    await hydrated(admin);
    await expect(admin.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
    const row = admin.getByRole('row').filter({ hasText: order.orderNo });
    await expect(row).toContainText(company);
    await expect(row).toContainText('Market online');
    await expect(row.getByTestId('approval-status')).toHaveText('Pending approval');
    // The count the page opened with (other tests add orders in parallel: it is read, not assumed).
    const heading = admin.getByRole('heading', { level: 2, name: /awaiting approval$/ });
    const before = Number(/\d+/.exec((await heading.textContent()) ?? '')?.[0]);
    expect(before).toBeGreaterThan(0);
    await expectAccessible(admin);

    // Select the row by its labelled checkbox, then approve the selection.
    await admin.getByRole('checkbox', { name: `Select order ${order.orderNo}` }).check();
    await admin.getByRole('button', { name: 'Approve selected (1)' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Approve the selected orders (1)?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Approve selected (1)' }).click();
    const status = admin.getByRole('status').filter({ hasText: '1 approved, 0 not approved.' });
    await expect(status).toBeVisible();
    await expect(status).toBeFocused();
    await expect(row).toContainText('Approved');
    await expect(admin.getByRole('checkbox', { name: `Select order ${order.orderNo}` })).toBeDisabled();
    // Defect 6: the status column and the count follow the decision.
    await expect(row.getByTestId('approval-status')).toHaveText('Approved');
    await expect(heading).toHaveText(`${before - 1} ${before - 1 === 1 ? 'order' : 'orders'} awaiting approval`);

    // The registrant's pending page now sends them to pay.
    await page.goto(`${summary}/pending`);
    await expect(page).toHaveURL(new RegExp(`${order.orderId}/pay$`));
    await expect(page.getByText('You have passed review, please pay promptly')).toBeVisible();

    // The order page shows who approved it.
    await admin.goto(`/en/admin/orders/${order.orderNo}`);
    await expect(admin.getByRole('listitem').filter({ hasText: 'Approved' })).toContainText(ORGANISER);
    await admin.context().close();
  });

  test('reject with a reason from the queue, with the keyboard; the applicant sees the reason (zh-TW)', async ({
    page,
    browser,
  }) => {
    await signIn(page, uniqueEmail('reject-me'), 'zh-tw');
    await addWork(page, 'Night Tram', '夜行電車');
    const order = await registerOnline(page, 'zh-tw', `Night Tram Films ${Date.now()}`);
    expect(order.status).toBe(201);

    const admin = await organiserPage(browser, 'zh-tw');
    await admin.goto('/zh-tw/admin/approvals');
    await hydrated(admin);
    const heading = admin.getByRole('heading', { name: /筆訂單待審核/ });
    await expect(heading).toBeVisible();
    const before = Number(/\d+/.exec((await heading.textContent()) ?? '')?.[0]);
    await admin.getByRole('button', { name: `不核准訂單 ${order.orderNo}` }).focus();
    await admin.keyboard.press('Enter');
    const dialog = admin.getByRole('dialog', { name: `不核准訂單 ${order.orderNo}？` });
    await expect(dialog).toBeVisible();
    // No reason: refused in the dialog, the field marked.
    await dialog.getByRole('button', { name: '不核准' }).click();
    await expect(dialog.getByText('請填寫原因')).toBeVisible();
    const reason = '線上展位已額滿，敬請見諒。';
    await dialog.getByLabel('原因（報名者會看到）').fill(reason);
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: '不核准' }).click();
    await expect(dialog).toBeHidden();
    const row = admin.getByRole('row').filter({ hasText: order.orderNo });
    await expect(row.getByText('已不核准')).toBeFocused();
    // Defect 6: the status column and the count follow the decision.
    await expect(row.getByTestId('approval-status')).toHaveText('未通過審核');
    await expect(heading).toHaveText(`共 ${before - 1} 筆訂單待審核`);

    await page.goto(`/zh-tw/events/market-online/registrations/${order.orderId}/pending`);
    await expect(page.getByRole('heading', { name: '您的報名未通過審核' })).toBeVisible();
    await expect(page.getByText(reason)).toBeVisible();
    await admin.context().close();
  });

  test('a registrant is refused the back office (403 page)', async ({ page }) => {
    await signIn(page, uniqueEmail('not-organiser'), 'en');
    const res = await page.goto('/en/admin/approvals');
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'This page is for organisers' })).toBeVisible();
    for (const path of ['/en/admin/transfers', '/en/admin/refunds'])
      expect((await page.goto(path))?.status()).toBe(403);
  });
});
