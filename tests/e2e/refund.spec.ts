import { expect, test, type Page } from '@playwright/test';
import { applyForBadge, expectAccessible, hydrated, organiserPage, signIn, uniqueEmail } from './fixtures';

/*
 * Money back and ATM accounts (issue 22), both languages: a badge paid by card with a mobile
 * barcode carrier gets its e-invoice (My badge, the dev mailbox); the organiser refunds it from
 * the order's page in the back office — a part once the sandbox gateway has settled the trade
 * (en: an allowance), the whole before (zh-TW: the authorisation cancelled, the invoice voided) —
 * and the registrant sees the refund and the invoice's change. An ATM order gets its virtual
 * account through the sandbox gateway and is paid by its "simulate the ATM payment" action.
 */

/** Pays the badge order on its pay page by card, with a mobile barcode carrier; lands on My badge. */
async function payByCard(page: Page, locale: 'en' | 'zh-tw', orderId: string) {
  const zh = locale === 'zh-tw';
  await page.goto(`/${locale}/badges/${orderId}/pay`);
  await hydrated(page);
  await page.getByRole('radio', { name: zh ? '手機條碼' : 'Mobile barcode' }).check();
  await page.getByRole('textbox', { name: zh ? '手機條碼' : 'Mobile barcode' }).fill('/abc1234');
  await page.getByRole('button', { name: zh ? '前往信用卡付款' : 'Pay by card' }).click();
  await page.waitForURL(/\/sandbox-gateway\//);
  await page.getByLabel(zh ? '卡號' : 'Card number', { exact: true }).fill('4000-2211-1111-1111');
  await page.getByLabel(zh ? '有效期限' : 'Expiry date').fill('12/39');
  await page.getByLabel(zh ? '安全碼' : 'CVC').fill('123');
  await page.getByRole('button', { name: zh ? /^付款/ : /^Pay/ }).click();
  await page.waitForURL(new RegExp(`/${locale}/account/badge$`), { timeout: 30_000 });
}

/** Reloads until `check` passes (the worker's passes run every few seconds). */
async function eventually(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 30_000 });
}

/** The organiser's API call from the back office's page (its session), answering the status. */
async function setAtm(page: Page, atmEnabled: boolean | null) {
  return page.evaluate(async (atmEnabled) => {
    const res = await fetch('/api/v1/admin/editions/current/payment-settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ atm_enabled: atmEnabled }),
    });
    return res.status;
  }, atmEnabled);
}

for (const locale of ['en', 'zh-tw'] as const) {
  const zh = locale === 'zh-tw';
  const part = !zh;

  test(`a card payment refunded from the back office (${part ? 'in part' : 'whole'}): the registrant sees the refund and the e-invoice's ${part ? 'allowance' : 'void'} (${locale})`, async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail(`refund-${locale}`);
    await signIn(page, email, locale, 'Lin Yu-Chen');
    const order = await applyForBadge(page, zh ? 'zh-TW' : 'en');
    expect(order.status).toBe(201);
    await payByCard(page, locale, order.orderId);

    // The e-invoice: its number on My badge, and in the dev mailbox.
    const number = page.getByTestId('invoice-number');
    await eventually(page, () => expect(number).toHaveText(/^[A-Z]{2}\d{8}$/, { timeout: 1000 }));
    const invoiceNumber = (await number.textContent())!.trim();
    await expect(async () => {
      await page.goto(`/dev-mailbox?lang=${zh ? 'zh-TW' : 'en'}&to=${encodeURIComponent(email)}`);
      await expect(page.getByText(invoiceNumber).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });

    const admin = await organiserPage(browser, locale);
    if (part) {
      // A part is refunded once the trade is settled: the sandbox gateway settles it now.
      await admin.goto(`/sandbox-gateway/trades?lang=${zh ? 'zh' : 'en'}`);
      await admin
        .getByRole('row')
        .filter({ hasText: `${order.orderNo}_1` })
        .getByRole('button', { name: zh ? '立即請款' : 'Settle now' })
        .click();
      await expect(admin.getByRole('status')).toBeVisible();
    }

    // The goodwill refund on the order's page: the dialog says what will happen.
    await admin.goto(`/${locale}/admin/orders/${order.orderNo}`);
    await hydrated(admin);
    await admin
      .getByRole('button', {
        name: zh ? `訂單 ${order.orderNo} 通融退款` : `Goodwill refund of order ${order.orderNo}`,
      })
      .click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog.getByTestId('card-refund')).toBeVisible();
    if (part) {
      await expect(dialog).toContainText('The card payment is settled');
      await dialog.getByRole('radio', { name: 'A part' }).check();
      await dialog.getByRole('textbox', { name: 'Amount to refund (whole TWD)' }).fill('300');
      await expect(dialog).toContainText(`E-invoice ${invoiceNumber} gets an allowance`);
      await dialog.getByRole('textbox', { name: 'Reason for the refund (for the back office)' }).fill('Goodwill');
    } else {
      await expect(dialog).toContainText('此筆信用卡付款尚未請款');
      await expect(dialog.getByRole('radio', { name: '部分金額（須待請款後）' })).toBeDisabled();
      await expect(dialog).toContainText(`電子發票 ${invoiceNumber} 將作廢`);
      await dialog.getByRole('textbox', { name: '退款原因（供後臺查閱）' }).fill('通融退款');
    }
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: zh ? '退款' : 'Refund', exact: true }).click();
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await hydrated(admin);
    // The order's history has the refund.
    await expect(admin.getByRole('region', { name: zh ? '歷程' : 'History' })).toContainText(
      zh ? '已退款' : 'Refunded',
    );
    // The back office's home: the edition's sales count the badge's refund (other tests add to the
    // same figures: only that the row shows money in and money back).
    await admin
      .getByRole('navigation')
      .getByRole('link', { name: zh ? '總覽' : 'Overview' })
      .click();
    const sales = admin.getByRole('table', { name: zh ? /^銷售概況：/ : /^Sales: / });
    const badgeRow = sales
      .getByRole('row')
      .filter({ has: admin.getByRole('link', { name: zh ? '專業人士識別證' : 'Professional badge', exact: true }) });
    await expect(badgeRow.getByRole('cell').nth(4)).toContainText(zh ? '新臺幣' : 'TWD');
    await expect(badgeRow.getByRole('cell').nth(6)).toContainText(zh ? '新臺幣' : 'TWD');
    await expect(sales.getByRole('row').last()).toContainText(zh ? '合計' : 'Total');
    await expectAccessible(admin);
    await admin.context().close();

    // The registrant: the refund, and the invoice's allowance or void once the worker has done it.
    await page.goto(`/${locale}/account/badge`);
    const refunds = page.getByTestId('refunds');
    await expect(refunds.getByTestId('refund')).toHaveCount(1);
    await expect(refunds).toContainText(part ? 'TWD 300' : '新臺幣 1,000 元');
    await expect(refunds).toContainText(part ? 'Refunded to your card' : '取消信用卡授權（請款前）');
    const invoice = page.getByTestId('invoice');
    await eventually(page, () =>
      expect(invoice).toContainText(part ? 'Allowance of NT$300: Goodwill' : '已作廢：通融退款', { timeout: 1000 }),
    );
    await expectAccessible(page);
  });

  test(`an ATM virtual account from the pay page, paid through the sandbox's simulate action (${locale})`, async ({
    page,
    browser,
  }) => {
    const admin = await organiserPage(browser, locale);
    try {
      // The organiser turns ATM virtual accounts on for the edition, on the edition page.
      await admin.goto(`/${locale}/admin/edition`);
      await hydrated(admin);
      await admin
        .getByRole('radio', {
          name: zh ? '透過藍新金流為每筆訂單產生虛擬帳號' : 'A virtual account per order through NewebPay',
        })
        .check();
      await admin.getByRole('button', { name: zh ? '儲存 ATM 設定' : 'Save the ATM setting' }).click();
      await expect(
        admin.getByRole('status').filter({ hasText: zh ? 'ATM 設定已儲存' : 'The ATM setting is saved' }),
      ).toBeVisible();
      await expect(
        admin.getByText(
          zh ? '目前：ATM 轉帳使用每筆訂單專屬的虛擬帳號' : 'Now: ATM transfers go to a virtual account per order',
        ),
      ).toBeVisible();

      await signIn(page, uniqueEmail(`atm-${locale}`), locale, 'Lin Yu-Chen');
      const order = await applyForBadge(page, zh ? 'zh-TW' : 'en');
      expect(order.status).toBe(201);
      await page.goto(`/${locale}/badges/${order.orderId}/pay`);
      await hydrated(page);
      await page.getByRole('radio', { name: zh ? 'ATM 轉帳' : 'ATM transfer' }).check();
      // Nothing to declare: no last five digits.
      await expect(page.getByLabel(zh ? '帳號末五碼' : 'Last five digits of your account')).toHaveCount(0);
      await page.getByRole('button', { name: zh ? '取得 ATM 轉帳帳號' : 'Get an ATM account' }).click();
      await page.waitForURL(/\/sandbox-gateway\//);
      await page.getByRole('button', { name: zh ? '取得轉帳帳號' : 'Get an account number' }).click();

      // Back on the pay page: the account, the amount, the deadline.
      await page.waitForURL(new RegExp(`/${locale}/badges/${order.orderId}/pay`), { timeout: 30_000 });
      const account = page.getByTestId('virtual-account');
      await expect(account).toContainText(zh ? '等待您轉帳' : 'Waiting for your transfer');
      await expect(account).toContainText(zh ? '新臺幣 1,000 元' : 'TWD 1,000');
      await expect(page.getByTestId('vacc-account')).toHaveText(/^\d{10,16}$/);
      await hydrated(page);
      await expectAccessible(page);

      // The sandbox's "simulate the ATM payment": the gateway notifies the portal; the badge is paid.
      await page.goto(`/sandbox-gateway/trades?lang=${zh ? 'zh' : 'en'}`);
      await page
        .getByRole('row')
        .filter({ hasText: `${order.orderNo}_` })
        .getByRole('button', { name: zh ? '模擬 ATM 付款' : 'Simulate the ATM payment' })
        .click();
      await page.goto(`/${locale}/account/badge`);
      await eventually(page, () =>
        expect(page.getByTestId('vacc-status')).toHaveText(zh ? '已付款' : 'Paid', { timeout: 1000 }),
      );
      await expect(page.getByRole('status').first()).toContainText(
        zh ? '您的識別證登記已完成。' : 'Your badge registration is complete.',
      );
    } finally {
      await setAtm(admin, null);
      await admin.context().close();
    }
  });
}
