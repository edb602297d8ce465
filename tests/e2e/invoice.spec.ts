import { expect, test } from '@playwright/test';
import { applyForBadge, expectAccessible, hydrated, organiserPage, signIn, uniqueEmail } from './fixtures';

/*
 * E-invoices (issue 22): a badge paid by card with a mobile barcode carrier gets its e-invoice from
 * the embedded sandbox e-invoice service (the worker's invoice pass); the number shows on My badge
 * and in the dev mailbox, and the back office's e-invoices page lists it. Both languages.
 */

for (const locale of ['en', 'zh-tw'] as const) {
  const zh = locale === 'zh-tw';
  test(`pay a badge with a mobile barcode carrier: the invoice number on My badge, in the mail and in the back office (${locale})`, async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail(`invoice-${locale}`);
    await signIn(page, email, locale, 'Lin Yu-Chen');
    const order = await applyForBadge(page, zh ? 'zh-TW' : 'en');
    expect(order.status).toBe(201);
    await page.goto(`/${locale}/badges/${order.orderId}/pay`);
    await hydrated(page);

    // The carrier: a malformed mobile barcode is refused on the page, in the page's language.
    await page.getByRole('radio', { name: zh ? '手機條碼' : 'Mobile barcode' }).check();
    const barcode = page.getByRole('textbox', { name: zh ? '手機條碼' : 'Mobile barcode' });
    await barcode.fill('ABC1234');
    await page.getByRole('button', { name: zh ? '前往信用卡付款' : 'Pay by card' }).click();
    await expect(
      page.getByText(zh ? '請輸入手機條碼：斜線加 7 碼' : 'Enter a mobile barcode: a slash and 7 characters', {
        exact: false,
      }),
    ).toBeVisible();
    await expectAccessible(page);
    await barcode.fill('/abc1234');

    await page.getByRole('button', { name: zh ? '前往信用卡付款' : 'Pay by card' }).click();
    await page.waitForURL(/\/sandbox-gateway\//);
    await page.getByLabel(zh ? '卡號' : 'Card number', { exact: true }).fill('4000-2211-1111-1111');
    await page.getByLabel(zh ? '有效期限' : 'Expiry date').fill('12/39');
    await page.getByLabel(zh ? '安全碼' : 'CVC').fill('123');
    await page.getByRole('button', { name: zh ? /^付款/ : /^Pay/ }).click();
    await page.waitForURL(new RegExp(`/${locale}/account/badge$`), { timeout: 30_000 });

    // The worker issues it within a few seconds: My badge shows the number.
    const number = page.getByTestId('invoice-number');
    await expect(async () => {
      await page.reload();
      await expect(number).toHaveText(/^[A-Z]{2}\d{8}$/, { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    const invoiceNumber = (await number.textContent())!.trim();
    const invoice = page.getByTestId('invoice');
    await expect(invoice).toContainText(zh ? '手機條碼' : 'Mobile barcode');
    await expect(invoice).toContainText('NT$1,000');
    await expectAccessible(page);

    // The dev mailbox has the e-invoice mail with the number.
    await expect(async () => {
      await page.goto(`/dev-mailbox?lang=${zh ? 'zh-TW' : 'en'}&to=${encodeURIComponent(email)}`);
      await expect(page.getByText(invoiceNumber).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });

    // The back office lists it.
    const admin = await organiserPage(browser, locale);
    await admin.goto(`/${locale}/admin/invoices?q=${order.orderNo}`);
    await hydrated(admin);
    await expect(admin.getByRole('heading', { name: zh ? '電子發票' : 'E-invoices', level: 1 })).toBeVisible();
    const row = admin.getByRole('row').filter({ hasText: order.orderNo });
    await expect(row).toContainText(invoiceNumber);
    await expect(row).toContainText(zh ? '已開立' : 'Issued');
    await expectAccessible(admin);
    await admin.context().close();
  });
}
