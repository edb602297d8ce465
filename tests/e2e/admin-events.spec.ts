import { expect, test } from '@playwright/test';
import { expectAccessible, hydrated, signIn } from './fixtures';

/*
 * The back office's events (issue 11): an event's capacity changed and the public event page
 * showing the seats left; a refused change explained in Chinese. The event is "closing-awards",
 * whose registration is not open yet: no other test takes its seats, so the count is exact.
 */

const ORGANISER = 'organiser@example.com';

test.describe.configure({ mode: 'serial' });

test('capacity changed: the event page shows the seats left; the change is in the history (en)', async ({ page }) => {
  await signIn(page, ORGANISER, 'en');
  await page.goto('/en/admin/events');
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Closing awards ceremony' }).click();
  await hydrated(page);
  await expect(page.getByText('0 taken, 300 left of 300')).toBeVisible();
  await expect(page.getByText('New prices apply to new orders only')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Capacity').fill('250');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByText('0 taken, 250 left of 250')).toBeVisible();
  const history = page.getByRole('table', { name: 'Changes' });
  await expect(history.getByRole('row').nth(1)).toContainText(ORGANISER);
  await expect(history.getByRole('row').nth(1)).toContainText('Capacity: 300 → 250');

  await page.goto('/en/events/closing-awards');
  await expect(page.getByText('250 seats left')).toBeVisible();

  // Back as it was, for the other suites.
  await page.goto('/en/admin/events/closing-awards');
  await hydrated(page);
  await page.getByLabel('Capacity').fill('300');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('0 taken, 300 left of 300')).toBeVisible();
});

test('a change the rules refuse is explained at its field, in Chinese (zh-tw)', async ({ page }) => {
  await signIn(page, ORGANISER, 'zh-tw');
  await page.goto('/zh-tw/admin/events/closing-awards');
  await hydrated(page);
  await expect(page.getByText('日期與時間皆為臺北時間 (GMT+8)。').first()).toBeVisible();
  const opens = await page.getByLabel('開始報名').inputValue();
  // Closing an hour before it opens.
  const before = new Date(Date.parse(`${opens}:00+08:00`) - 3_600_000 + 8 * 3_600_000).toISOString().slice(0, 16);
  await page.getByLabel('截止報名').fill(before);
  await page.getByLabel('價格（新臺幣）').fill('12.5');
  await page.getByRole('button', { name: '儲存' }).click();
  // Both fields say what is wrong; the first of them has the focus; nothing is saved.
  await expect(page.getByText('截止報名時間不得早於開始報名時間。')).toBeVisible();
  await expect(page.getByText('新臺幣價格須為整數元，信用卡以整數元扣款。')).toBeVisible();
  await expect(page.getByLabel('截止報名')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('截止報名')).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: '請檢查下方標示的欄位。' })).toBeVisible();
  await expectAccessible(page);
});
