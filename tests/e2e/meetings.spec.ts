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
 * Market meetings (issue 23), in both languages: a buyer finds an exhibitor (a paid Market online
 * registration) in the directory by search and filter and books it from its booking page; the
 * exhibitor accepts in My meetings; both see the meeting with its table; the exhibitor's table
 * scan marks it held; the organiser moves it (the "changed" mail reaches the dev mailbox); the
 * badge desk's scanner reads the meeting's code and marks it held again.
 */

const ORGANISER = 'organiser@example.com';

/** A listed exhibitor of a new user: registered, approved and paid; answers its id (the registration's). */
async function exhibitor(page: Page, baseURL: string, locale: 'en' | 'zh-tw') {
  const email = uniqueEmail('exhibitor');
  const company = `Harbour Pictures ${locale} ${Date.now() % 1_000_000}`;
  await signIn(page, email, locale, 'Exhibitor');
  await addWork(page, 'Harbour', '港灣');
  await page.goto(`/${locale}/`);
  const order = await registerMarketOnline(page, company);
  expect(order.status).toBe(201);
  expect(operator('orders', ['approve', order.orderNo], baseURL)).toMatch(/approved/);
  expect(operator('orders', ['mark-paid', order.orderNo], baseURL)).toMatch(/paid/);
  const id = await page.evaluate(async () => {
    const res = await fetch('/api/v1/meetings');
    return ((await res.json()) as { data: { exhibitors: { id: string }[] } }).data.exhibitors[0]!.id;
  });
  return { email, id, company };
}

const WORDS = {
  en: {
    submit: 'Request the meeting',
    done: 'Your request was sent',
    accept: 'Accept',
    code: /Meeting code/,
    present: 'Mark present',
    held: 'Present',
    search: 'Search',
    country: 'Country or region',
    apply: 'Show exhibitors',
    meet: 'Request a meeting',
    name: (company: string) => company,
    slot: 'Slot',
    move: 'Move',
    moved: 'Moved. Both parties were e-mailed.',
    changed: /^Meeting changed:/,
    lang: 'en',
    deskField: 'Pick-up code, or search',
    deskHeld: /^Meeting checked in:/,
  },
  'zh-tw': {
    submit: '送出洽談邀約',
    done: '您的邀約已送出',
    accept: '接受',
    code: /洽談代碼/,
    present: '標記為已出席',
    held: '已出席',
    search: '搜尋',
    country: '國家或地區',
    apply: '顯示展商',
    meet: '申請商洽',
    name: () => '港灣影業',
    slot: '時段',
    move: '調整',
    moved: '已調整，並已寄信通知雙方。',
    changed: /^洽談已變更：/,
    lang: 'zh-TW',
    deskField: '領取碼或搜尋',
    deskHeld: /^洽談已報到：/,
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

    // The buyer, a badge holder, finds the exhibitor in the directory (search and a filter) and
    // opens its booking page from its profile.
    const buyerPage = await (await browser.newContext()).newPage();
    const buyerEmail = uniqueEmail('buyer');
    await signIn(buyerPage, buyerEmail, locale, 'Buyer');
    await giveBadge(buyerPage, baseURL!);
    await buyerPage.goto(`/${locale}/market/exhibitors`);
    await buyerPage.getByLabel(w.search, { exact: true }).fill(ex.company);
    await buyerPage.getByLabel(w.country).selectOption('TWN');
    await buyerPage.getByRole('button', { name: w.apply }).click();
    await buyerPage.getByRole('link', { name: w.name(ex.company), exact: true }).click();
    await expect(buyerPage).toHaveURL(new RegExp(`/market/exhibitors/${ex.id}$`));
    await buyerPage.getByRole('link', { name: w.meet }).click();
    await expect(buyerPage).toHaveURL(new RegExp(`/market/exhibitors/${ex.id}/meet$`));
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

    // The organiser moves it to another slot; the buyer's mailbox gets the "changed" mail.
    const meetingId = code.split('.')[1]!;
    const organiser = await (await browser.newContext()).newPage();
    await signIn(organiser, ORGANISER, locale);
    await organiser.goto(`/${locale}/admin/meetings`);
    await hydrated(organiser);
    const row = organiser.locator(`li[data-meeting="${meetingId}"]`);
    const slot = row.getByLabel(w.slot);
    const options = await slot.locator('option').evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value));
    await slot.selectOption(options.at(-1)!);
    await row.getByRole('button', { name: w.move }).click();
    await expect(row.getByRole('status')).toHaveText(w.moved);
    await expectAccessible(organiser);
    const mailbox = await (await browser.newContext()).newPage();
    await expect(async () => {
      await mailbox.goto(`/dev-mailbox?lang=${w.lang}&to=${encodeURIComponent(buyerEmail)}`);
      await expect(mailbox.getByRole('link', { name: w.changed })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 30_000 });

    // The badge desk's scanner reads the meeting's code (as a USB scanner types it): held.
    await organiser.goto(`/${locale}/admin/desk`);
    await hydrated(organiser);
    const field = organiser.getByLabel(w.deskField);
    await field.focus();
    await organiser.keyboard.type(code, { delay: 0 });
    await organiser.keyboard.press('Enter');
    await expect(organiser.getByTestId('desk-result').getByText(w.deskHeld)).toBeVisible();
    await exhibitorPage.reload();
    await hydrated(exhibitorPage);
    await expect(exhibitorPage.getByText(w.held, { exact: true })).toBeVisible();
  });
}
