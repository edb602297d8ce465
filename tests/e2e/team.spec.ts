import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * The team (issue 21), in both languages: an admin invites a badge-desk member, the invitation is
 * in the dev mailbox in the admin's language; the desk member signs in and has only the badge
 * desk (the overview sends them there, other pages are refused, the navigation shows the desk
 * alone); the admin makes them a viewer; the configured admin cannot be removed or demoted (the
 * last-admin rule itself is the API suite's: here ORGANISER_EMAILS always names admins).
 */

const ADMIN = 'organiser@example.com';

test.describe.configure({ mode: 'serial' });

/** A second browser signed in as `email`. */
async function member(browser: Browser, baseURL: string, email: string, locale: 'en' | 'zh-tw') {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email, locale);
  return { page, close: () => context.close() };
}

/** Invites `email` with the role labelled `role` from the Team page. */
async function invite(page: Page, email: string, role: string, labels: { email: string; submit: string }) {
  await page.getByLabel(labels.email, { exact: true }).fill(email);
  await page.getByRole('radio', { name: role, exact: true }).check();
  await page.getByRole('button', { name: labels.submit }).click();
}

/** Waits for the mailbox of `email` to list a mail with `subject` (the worker runs every 2 s). */
async function expectMail(page: Page, email: string, lang: string, subject: string | RegExp) {
  await expect(async () => {
    await page.goto(`/dev-mailbox?lang=${lang}&to=${encodeURIComponent(email)}`);
    await expect(page.getByRole('link', { name: subject })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
}

test('an admin invites a desk member, who has only the badge desk; then makes them a viewer (en)', async ({
  page,
  browser,
  baseURL,
}) => {
  const desk = uniqueEmail('desk');
  await signIn(page, ADMIN, 'en');
  await page.goto('/en/admin/team');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Back office sections' }).getByRole('link', { name: 'Team' }),
  ).toBeVisible();
  await expectAccessible(page);
  // The configured admin (this one) is listed, and cannot be changed or removed here.
  const members = page.getByRole('table', { name: 'Members' });
  const me = members.getByRole('row', { name: `${ADMIN} (you)` });
  await expect(me).toContainText('Configuration (ORGANISER_EMAILS)');
  await expect(me.getByRole('button')).toHaveCount(0);

  // A bad address is named at its field; nothing is sent.
  await invite(page, 'not-an-address', 'Badge desk', { email: 'E-mail', submit: 'Send the invitation' });
  await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toBeFocused();

  await invite(page, desk, 'Badge desk', { email: 'E-mail', submit: 'Send the invitation' });
  await expect(page.getByRole('status')).toContainText(`${desk} is invited as Badge desk`);
  const row = members.getByRole('row').filter({ hasText: desk });
  await expect(row.getByLabel(`Role of ${desk}`)).toHaveValue('desk');
  await expect(page.getByRole('table', { name: 'Recent changes' })).toContainText(`Invited ${desk} as Badge desk`);

  // Invited twice: the API's refusal in the page's words.
  await hydrated(page);
  await invite(page, desk, 'Viewer', { email: 'E-mail', submit: 'Send the invitation' });
  await expect(page.getByRole('alert')).toContainText('This e-mail is on the team already.');

  await expectMail(page, desk, 'en', /You are invited to the TCCF back office \(Badge desk\)/);

  // The desk member: the overview sends them to the desk; the navigation shows the desk alone.
  const desker = await member(browser, baseURL!, desk, 'en');
  await desker.page.goto('/en/admin');
  await expect(desker.page).toHaveURL(/\/en\/admin\/desk$/);
  const nav = desker.page.getByRole('navigation', { name: 'Back office sections' });
  await expect(nav.getByRole('link')).toHaveText(['Badge desk']);
  for (const path of ['/en/admin/orders', '/en/admin/team', '/en/admin/transfers']) {
    const res = await desker.page.goto(path);
    expect(res?.status(), path).toBe(403);
    await expect(desker.page.getByRole('heading', { name: 'Your role does not open this page' })).toBeVisible();
  }

  // The admin makes them a viewer, after a confirmation.
  await page.goto('/en/admin/team');
  await hydrated(page);
  await row.getByLabel(`Role of ${desk}`).selectOption('viewer');
  await row.getByRole('button', { name: 'Change role' }).click();
  const dialog = page.getByRole('dialog', { name: `Change the role of ${desk}?` });
  await expect(dialog).toContainText('From Badge desk to Viewer');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByRole('status')).toContainText(`${desk} is now Viewer.`);
  await expect(page.getByRole('table', { name: 'Recent changes' })).toContainText(
    `Changed the role of ${desk} from Badge desk to Viewer`,
  );

  // On their next page: the overview, and no more desk.
  expect((await desker.page.goto('/en/admin/desk'))?.status()).toBe(403);
  await desker.page.goto('/en/admin');
  await expect(desker.page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(
    desker.page.getByRole('navigation', { name: 'Back office sections' }).getByRole('link', { name: 'Team' }),
  ).toHaveCount(0);
  await desker.close();
});

test('zh-TW: the invitation in Chinese, the member removed after a confirmation', async ({ page }) => {
  const reviewer = uniqueEmail('reviewer');
  await signIn(page, ADMIN, 'zh-tw');
  await page.goto('/zh-tw/admin/team');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: '團隊' })).toBeVisible();
  await expectAccessible(page);
  await invite(page, reviewer, '審核人員', { email: '電子郵件', submit: '寄送邀請' });
  await expect(page.getByRole('status')).toContainText(`已邀請 ${reviewer} 擔任「審核人員」`);
  await expect(page.getByRole('table', { name: '最近的變更' })).toContainText(`邀請 ${reviewer} 擔任「審核人員」`);

  await hydrated(page);
  await page.getByRole('button', { name: `移除 ${reviewer}` }).click();
  const dialog = page.getByRole('dialog', { name: `要將 ${reviewer} 從團隊移除嗎？` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '移除' }).click();
  await expect(page.getByRole('status')).toContainText(`${reviewer} 已從團隊移除。`);
  await expect(page.getByRole('table', { name: '成員' }).getByRole('row').filter({ hasText: reviewer })).toHaveCount(0);
  await expectAccessible(page);

  await expectMail(page, reviewer, 'zh-TW', /邀請您加入 TCCF 後臺管理（審核人員）/);
});
