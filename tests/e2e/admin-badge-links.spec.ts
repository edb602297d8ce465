import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * The back office's badge links (issue 11): links in bulk for a pasted list of addresses, each
 * e-mailed (read in the dev mailbox); a link revoked on its batch's page, and its claim page
 * refusing it in both languages.
 */

const ORGANISER = 'organiser@example.com';

/** Opens the badge links screen as the organiser, in `locale`. */
async function openLinks(page: Page, locale: 'en' | 'zh-tw') {
  await signIn(page, ORGANISER, locale, 'Olivia Organiser');
  await page.goto(`/${locale}/admin/badge-links`);
  await hydrated(page);
}

test('bulk links for a list of e-mails: each e-mailed; one revoked, its claim refused (en)', async ({
  page,
  browser,
}) => {
  const [amy, ben] = [uniqueEmail('links-amy'), uniqueEmail('links-ben')];
  await openLinks(page, 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Badge links' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Badge identity').selectOption({ label: 'VIP' });
  await page.getByRole('radio', { name: /One link per e-mail address/ }).check();
  await page.getByLabel('E-mail addresses').fill(`Amy Lin <${amy}>\n${ben}; ${amy.toUpperCase()}\nnot-an-address`);
  await expect(page.getByText('2 addresses · 1 repeated address left out')).toBeVisible();
  await expect(page.getByText('Not e-mail addresses: not-an-address')).toBeVisible();
  await page.getByRole('button', { name: 'Create and e-mail links' }).click();
  // What is not an address must go first.
  await expect(page.getByText('Correct or remove what is not an e-mail address.')).toBeVisible();
  await expect(page.getByLabel('E-mail addresses')).toBeFocused();
  await page.getByLabel('E-mail addresses').fill(`Amy Lin <${amy}>\n${ben}; ${amy.toUpperCase()}`);
  await page.getByLabel('Note (optional: who the links are for)').fill('Press');
  await page.getByRole('button', { name: 'Create and e-mail links' }).click();

  // The batch's page: made, e-mailed, the links to copy in both languages.
  await expect(page.getByRole('status').filter({ hasText: '2 links created.' })).toBeVisible();
  const batchPage = page.url();
  await expect(page.getByText('Each link was e-mailed to its address, in English and Chinese.')).toBeVisible();
  const shared = await page.getByRole('textbox', { name: 'Unused links' }).inputValue();
  const lines = shared.split('\n').map((l) => l.split('\t'));
  expect(lines.map((l) => l[0])).toEqual([amy, ben]);
  expect(lines[0]![1]).toMatch(/\/en\/get-badge\/vip\/[\w-]+$/);
  expect(lines[0]![2]).toMatch(/\/zh-tw\/get-badge\/vip\/[\w-]+$/);
  await hydrated(page);
  await expectAccessible(page);

  // Each address got its link, once (the mail worker sends within seconds).
  for (const [email, line] of [
    [amy, lines[0]!],
    [ben, lines[1]!],
  ] as const) {
    await expect(async () => {
      await page.goto(`/dev-mailbox?to=${encodeURIComponent(email)}`);
      await expect(page.getByRole('link', { name: /Your free TCCF badge/ })).toHaveCount(1, { timeout: 500 });
    }).toPass({ timeout: 30_000 });
    await page.getByRole('link', { name: /Your free TCCF badge/ }).click();
    await expect(page.locator('pre')).toContainText(line[1]!);
  }

  // Revoke Ben's link on the batch's page.
  await page.goto(batchPage);
  await hydrated(page);
  const code = /\/vip\/([\w-]+)$/.exec(lines[1]![1]!)![1]!;
  await page.getByRole('button', { name: `Revoke the link ${code.slice(0, 8)}…` }).click();
  await expect(page.getByRole('dialog', { name: 'Revoke this link?' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  const row = page.getByRole('row').filter({ hasText: ben });
  await expect(row.getByText('Revoked', { exact: true })).toBeVisible();
  await expect(row).toContainText(`by ${ORGANISER}`);

  // Ben opens it: refused, with the reason, as 410.
  const context = await browser.newContext();
  const bens = await context.newPage();
  await signIn(bens, ben, 'en');
  const res = await bens.goto(new URL(lines[1]![1]!).pathname);
  expect(res?.status()).toBe(410);
  await expect(bens.getByRole('heading', { name: 'This link has been withdrawn by the organiser.' })).toBeVisible();
  await expectAccessible(bens);
  await context.close();

  // The links list shows who made the batch, and filters by status.
  await page.goto('/en/admin/badge-links?status=revoked');
  await hydrated(page);
  await expect(page.getByRole('row').filter({ hasText: ben })).toContainText('Revoked');
  await expect(page.getByRole('row').filter({ hasText: amy })).toHaveCount(0);
});

test('links made by number, one revoked from the list; the claim page refuses it in Chinese (zh-tw)', async ({
  page,
  browser,
}) => {
  await openLinks(page, 'zh-tw');
  await expect(page.getByRole('heading', { level: 1, name: '識別證連結' })).toBeVisible();
  await page.getByLabel('識別證身分').selectOption({ label: '展商（市場展）' });
  await page.getByRole('radio', { name: '指定數量，自行分送' }).check();
  await page.getByLabel('連結數量').fill('2');
  await page.getByRole('button', { name: '建立連結' }).click();
  await expect(page.getByRole('status').filter({ hasText: '已建立 2 條連結。' })).toBeVisible();
  const [first] = (await page.getByRole('textbox', { name: '未使用的連結' }).inputValue())
    .split('\n')
    .map((l) => l.split('\t'));
  expect(first).toHaveLength(2);
  const zhUrl = first![1]!;
  const code = /\/exhibitor-market\/([\w-]+)$/.exec(zhUrl)![1]!;
  await hydrated(page);
  await expectAccessible(page);

  await page.getByRole('button', { name: `撤銷連結 ${code.slice(0, 8)}…` }).click();
  await page.getByRole('dialog', { name: '要撤銷此連結嗎？' }).getByRole('button', { name: '撤銷' }).click();
  await expect(page.getByRole('row').filter({ hasText: code.slice(0, 8) })).toContainText('已撤銷');

  const context = await browser.newContext();
  const guest = await context.newPage();
  await signIn(guest, uniqueEmail('links-guest'), 'zh-tw');
  const res = await guest.goto(new URL(zhUrl).pathname);
  expect(res?.status()).toBe(410);
  await expect(guest.getByRole('heading', { name: '此連結已被主辦單位撤回。' })).toBeVisible();
  await context.close();
});

test('a registrant is refused the badge links screen (403)', async ({ page }) => {
  await signIn(page, uniqueEmail('links-registrant'), 'en');
  const res = await page.goto('/en/admin/badge-links');
  expect(res?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'This page is for organisers' })).toBeVisible();
});
