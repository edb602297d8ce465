import { expect, test, type Page } from '@playwright/test';
import {
  addWork,
  expectAccessible,
  giveBadge,
  hydrated,
  operator,
  registerMarketOnline,
  signIn,
  uniqueEmail,
} from './fixtures';

/*
 * Market meetings (issue 23), in both languages: an exhibitor (a paid Market online
 * registration) is booked by a buyer from its booking page; the exhibitor accepts in My
 * meetings; both see the meeting with its table; the exhibitor's table scan marks it held.
 */

/** A listed exhibitor of a new user: registered, approved and paid; answers its id (the registration's). */
async function exhibitor(page: Page, baseURL: string, locale: 'en' | 'zh-tw') {
  const email = uniqueEmail('exhibitor');
  await signIn(page, email, locale, 'Exhibitor');
  await addWork(page, 'Harbour', '港灣');
  await page.goto(`/${locale}/`);
  const order = await registerMarketOnline(page, `Harbour Pictures ${locale}`);
  expect(order.status).toBe(201);
  expect(operator('orders', ['approve', order.orderNo], baseURL)).toMatch(/approved/);
  expect(operator('orders', ['mark-paid', order.orderNo], baseURL)).toMatch(/paid/);
  const id = await page.evaluate(async () => {
    const res = await fetch('/api/v1/meetings');
    return ((await res.json()) as { data: { exhibitors: { id: string }[] } }).data.exhibitors[0]!.id;
  });
  return { email, id };
}

const WORDS = {
  en: {
    submit: 'Request the meeting',
    done: 'Your request was sent',
    accept: 'Accept',
    code: /Meeting code/,
    present: 'Mark present',
    held: 'Present',
  },
  'zh-tw': {
    submit: '送出洽談邀約',
    done: '您的邀約已送出',
    accept: '接受',
    code: /洽談代碼/,
    present: '標記為已出席',
    held: '已出席',
  },
} as const;

for (const locale of ['en', 'zh-tw'] as const) {
  test(`a buyer books, the exhibitor accepts, both see it, the table scan marks it held (${locale})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const w = WORDS[locale];
    const exhibitorPage = await (await browser.newContext()).newPage();
    const ex = await exhibitor(exhibitorPage, baseURL!, locale);

    // The buyer: a badge holder, on the exhibitor's booking page.
    const buyerPage = await (await browser.newContext()).newPage();
    await signIn(buyerPage, uniqueEmail('buyer'), locale, 'Buyer');
    await giveBadge(buyerPage, baseURL!);
    await buyerPage.goto(`/${locale}/market/exhibitors/${ex.id}/meet`);
    await hydrated(buyerPage);
    await expectAccessible(buyerPage);
    await buyerPage.getByRole('textbox').fill('Looking for co-production partners.');
    await buyerPage.getByRole('button', { name: w.submit }).click();
    await expect(buyerPage.getByRole('status')).toContainText(w.done);

    // The exhibitor accepts in My meetings.
    await exhibitorPage.goto(`/${locale}/account/meetings`);
    await hydrated(exhibitorPage);
    await expectAccessible(exhibitorPage);
    await exhibitorPage.getByRole('button', { name: w.accept, exact: true }).click();
    await expect(exhibitorPage.getByText(/^[AB][1-4]$/).first()).toBeVisible();

    // The buyer sees it accepted, with its table and the check-in QR code.
    await buyerPage.goto(`/${locale}/account/meetings`);
    await hydrated(buyerPage);
    await expect(buyerPage.getByText(/^[AB][1-4]$/).first()).toBeVisible();
    await expect(buyerPage.locator('img[src^="data:image/png"]')).toBeVisible();
    await expectAccessible(buyerPage);

    // The exhibitor scans the buyer's code at the table (typed, as a scanner types it).
    const code = (await buyerPage.getByTestId('meeting-code').textContent())!.trim();
    expect(code).toMatch(/^TCCFM1\./);
    await exhibitorPage.getByLabel(w.code).fill(code);
    await exhibitorPage.getByRole('button', { name: w.present }).click();
    await expect(exhibitorPage.getByRole('status').filter({ hasText: w.held })).toBeVisible();
    await exhibitorPage.reload();
    await hydrated(exhibitorPage);
    await expect(exhibitorPage.getByText(w.held, { exact: true })).toBeVisible();
  });
}
