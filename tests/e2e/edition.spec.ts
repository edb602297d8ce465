import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, giveBadge, hydrated, signIn } from './fixtures';

/*
 * A portal that starts empty (issue 21; the `fresh` project: no seed, as in production with an
 * external identity provider): the public pages say there is nothing open, the first admin is
 * guided from the empty back office to an edition with its settings, pick-up schedule and a
 * published event, which registrants then see, in both languages.
 */

const ADMIN = 'first-admin@example.com';
const SLUG = `opening-${Date.now().toString(36)}`;

/** A `datetime-local` value `days` from now, in Taipei time. */
const taipei = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000 + 8 * 3_600_000);
  return `${d.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`;
};
const day = (days: number) => new Date(Date.now() + days * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);

test.describe.configure({ mode: 'serial' });

test('an empty portal: friendly public pages and a guided back office (zh-TW)', async ({ page }) => {
  const home = await page.goto('/zh-tw/');
  expect(home?.status()).toBe(200);
  await expect(page.getByRole('main')).toContainText('目前沒有開放中的報名項目');
  await signIn(page, ADMIN, 'zh-tw');
  await page.goto('/zh-tw/admin/edition');
  await expect(page.getByRole('heading', { name: '設定第一個屆次' })).toBeVisible();
  await expect(page.getByText('在本頁填寫證件領取時間。')).toBeVisible();
  await hydrated(page);
  await expectAccessible(page);
  // A refusal is named at its field, in Chinese.
  await page.getByLabel('名稱（英文）').fill('TCCF');
  await page.getByLabel('名稱（中文）').fill('TCCF');
  await page.getByLabel('網址代稱').fill('Not A Slug');
  await page.getByRole('button', { name: '建立屆次' }).click();
  await expect(page.getByText('部分欄位需要修正')).toBeVisible();
  await expect(page.getByLabel('網址代稱')).toBeFocused();
});

test('the first admin creates the edition, its settings and schedule, and publishes an event (en)', async ({
  page,
}) => {
  await signIn(page, ADMIN, 'en');
  await page.goto('/en/admin/edition');
  await hydrated(page);
  await page.getByLabel('Name (English)').fill('TCCF 2027');
  await page.getByLabel('Name (Chinese)').fill('2027 TCCF 創意內容大會');
  await page.getByLabel('Address (slug)').fill('tccf-2027');
  await page.getByRole('button', { name: 'Create the edition' }).click();
  await expect(page.getByText('Current edition: TCCF 2027.')).toBeVisible();
  await hydrated(page);

  // Settings: the preview shows what registrants see.
  await page.getByLabel('Bank and branch (English)').fill('Mega Bank, Nangang Branch');
  await page.getByLabel('Account number').fill('123-45-678901');
  await page.getByRole('button', { name: 'Save the settings' }).click();
  const preview = page.getByRole('region', { name: 'What registrants see' });
  await expect(preview.getByText('Mega Bank, Nangang Branch')).toBeVisible();
  await expect(preview.getByText('123-45-678901')).toBeVisible();
  await expect(page.getByRole('region', { name: 'History' })).toContainText(ADMIN);
  await hydrated(page);

  // The pick-up schedule: a bad row is named, then saved.
  await page.getByRole('button', { name: 'Add a pick-up slot' }).click();
  const slot = page.getByRole('group', { name: 'Pick-up slot 1' });
  await slot.getByLabel('First day').fill(day(20));
  await slot.getByLabel('Last day').fill(day(19));
  await slot.getByLabel('Place (English)').fill('Service desk, Hall 2');
  await slot.getByLabel('Place (Chinese)').fill('二館服務台');
  await page.getByRole('button', { name: 'Save the schedule' }).click();
  await expect(slot.getByText('The last day cannot be before the first day.')).toBeVisible();
  await slot.getByLabel('Last day').fill(day(22));
  await page.getByRole('button', { name: 'Save the schedule' }).click();
  await expect(page.getByText('Schedule saved.')).toBeVisible();
  await page.reload();
  await expect(preview.getByText('Service desk, Hall 2')).toBeVisible();
  await hydrated(page);
  await expectAccessible(page);

  // The first events of this edition (the free badge, then a general event), then published.
  await createAndPublish(page, 'Free badge', `free-badge-${SLUG}`, 'Free badge', '免費識別證');
  await createAndPublish(page, 'Event (general)', SLUG, 'Opening forum', '開幕論壇');
});

/** Creates an event of a type in the catalogue (a draft nobody sees), then publishes it. */
async function createAndPublish(page: Page, type: string, slug: string, nameEn: string, nameZh: string) {
  await page.goto('/en/admin/events/new');
  await hydrated(page);
  await page.getByLabel('Event type').selectOption({ label: type });
  await page.getByLabel('Address (slug)').fill(slug);
  await page.getByLabel('Name (English)').fill(nameEn);
  await page.getByLabel('Name (Chinese)').fill(nameZh);
  await page.getByLabel('Starts').fill(taipei(20, 10));
  await page.getByLabel('Ends').fill(taipei(20, 12));
  await page.getByLabel('Registration opens').fill(taipei(-1, 9));
  await page.getByLabel('Registration closes').fill(taipei(19, 23));
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/en/admin/events/${slug}\\?done=created`));
  await page.goto('/en/');
  await expect(page.getByRole('main').getByText(nameEn, { exact: true })).toHaveCount(0);
  await page.goto(`/en/admin/events/${slug}`);
  await hydrated(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('dialog', { name: 'Publish this event?' }).getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published: the event is on the public pages.')).toBeVisible();
}

test('registrants see the published event of the edition in both languages and register', async ({ page, baseURL }) => {
  await page.goto('/en/');
  await expect(page.getByRole('main').getByText('Opening forum', { exact: true })).toBeVisible();
  await page.goto('/zh-tw/');
  await expect(page.getByRole('main').getByText('開幕論壇', { exact: true })).toBeVisible();
  // A registrant with a badge registers for it; the badge pick-up is the edition's schedule.
  await signIn(page, `goer-${Date.now()}@example.com`, 'en');
  await giveBadge(page, baseURL!);
  await page.goto(`/en/events/${SLUG}/registrations/new`);
  await hydrated(page);
  await page.getByLabel(/I agree to the event terms/).check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'You are registered for this event.' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Badge pick-up days, hours and places' })).toContainText(
    'Service desk, Hall 2',
  );
});
