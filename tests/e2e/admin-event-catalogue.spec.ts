import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, signIn } from './fixtures';

/*
 * The event catalogue (issue 21): an organiser creates an event in the back office (the type
 * first, both languages), it stays a draft nobody else sees, is published after a confirmation,
 * and is then on the public home page in both languages; archived, it leaves it again.
 */

const ORGANISER = 'organiser@example.com';
const SLUG = `catalogue-forum-${Date.now().toString(36)}`;
const NAME_EN = 'Catalogue test forum';
const NAME_ZH = '目錄測試論壇';

/** A `datetime-local` value `days` from now, in Taipei time. */
const taipei = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000 + 8 * 3_600_000);
  return `${d.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`;
};

test.describe.configure({ mode: 'serial' });

async function homeCard(page: Page, locale: 'en' | 'zh-tw', name: string) {
  await page.goto(`/${locale}/`);
  return page.getByRole('main').getByText(name, { exact: true });
}

test('an organiser creates an event, publishes it, and it is on the home page in both languages', async ({ page }) => {
  await signIn(page, ORGANISER, 'en');
  await page.goto('/en/admin/events');
  await page.getByRole('link', { name: 'New event' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText('Choose the event type first')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Event type').selectOption({ label: 'Event (general)' });
  await page.getByLabel('Address (slug)').fill(SLUG);
  await page.getByLabel('Name (English)').fill(NAME_EN);
  await page.getByLabel('Name (Chinese)').fill(NAME_ZH);
  await page
    .getByLabel('Description (English)')
    .fill('Talks on adaptation.\n\nSee [the programme](https://tccf.example/programme).');
  await page.getByLabel('Description (Chinese)').fill('改編講座。');
  await page.getByLabel('Place (English)').fill('Room 401');
  await page.getByLabel('Place (Chinese)').fill('401 會議室');
  await page.getByLabel('Starts').fill(taipei(20, 10));
  await page.getByLabel('Ends').fill(taipei(20, 12));
  await page.getByLabel('Registration opens').fill(taipei(-1, 9));
  await page.getByLabel('Registration closes').fill(taipei(19, 23));
  await page.getByLabel('Capacity').fill('40');
  await page.locator('input[type="file"]').setInputFiles('tests/e2e/files/photo.png');
  await expect(page.getByText('Uploaded: photo.png')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create draft' }).click();

  await expect(page).toHaveURL(new RegExp(`/en/admin/events/${SLUG}\\?done=created`));
  await expect(page.getByText('Draft created.')).toBeVisible();
  await hydrated(page);
  await expectAccessible(page);

  // A draft: not on the home page, its public page not found.
  await expect(await homeCard(page, 'en', NAME_EN)).toHaveCount(0);
  expect((await page.goto(`/en/events/${SLUG}`))?.status()).toBe(404);

  await page.goto(`/en/admin/events/${SLUG}`);
  await hydrated(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish this event?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published: the event is on the public pages.')).toBeVisible();
  const history = page.getByRole('table', { name: 'Changes' });
  await expect(history.getByRole('row').nth(1)).toContainText('Published');
  await expect(history.getByRole('row').nth(1)).toContainText(ORGANISER);

  await expect(await homeCard(page, 'en', NAME_EN)).toBeVisible();
  await expect(await homeCard(page, 'zh-tw', NAME_ZH)).toBeVisible();
  await page.goto(`/en/events/${SLUG}`);
  await expect(page.getByRole('heading', { level: 1, name: NAME_EN })).toBeVisible();
  await expect(page.getByRole('link', { name: 'the programme' })).toHaveAttribute(
    'href',
    'https://tccf.example/programme',
  );
  // Its image, served resized to anyone.
  const image = await page.locator('meta[property="og:image"]').getAttribute('content');
  expect(image).toMatch(/\/api\/v1\/event-images\/[0-9a-f-]+\?w=1280$/);
  const served = await page.request.get(image!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('image/jpeg');
});

test('an online event\'s live page says "Coming soon..." until its live-stream link is set', async ({ page }) => {
  await signIn(page, ORGANISER, 'en');
  const slug = `${SLUG}-online`;
  const call = (method: 'post' | 'patch', path: string, data: unknown) =>
    page.request[method](path, { data, headers: { origin: new URL(page.url()).origin } });
  const created = await call('post', '/api/v1/admin/events', {
    slug,
    type: 'event_online',
    name_en: 'Catalogue online talk',
    name_zh: '目錄線上講座',
    start_time: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    end_at: new Date(Date.now() + 20 * 86_400_000 + 3_600_000).toISOString(),
    register_start_at: new Date(Date.now() - 86_400_000).toISOString(),
    register_end_at: new Date(Date.now() + 19 * 86_400_000).toISOString(),
    published: true,
  });
  expect(created.status()).toBe(201);
  await page.goto(`/en/live/${slug}`);
  await expect(page.getByRole('heading', { name: 'Coming soon...' })).toBeVisible();

  await page.goto(`/en/admin/events/${slug}`);
  await hydrated(page);
  await page.getByLabel('Live-stream link').fill('https://live.example/catalogue-talk');
  await page.getByRole('button', { name: 'Update details' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Changes' }).getByRole('row').nth(1)).toContainText(
    'Live-stream link: none → https://live.example/catalogue-talk',
  );

  await page.goto(`/zh-tw/live/${slug}`);
  await expect(page.getByRole('link', { name: '觀看直播' })).toHaveAttribute(
    'href',
    'https://live.example/catalogue-talk',
  );
  await expect(page.getByText('即將推出…')).toHaveCount(0);
  expect((await call('post', `/api/v1/admin/events/${slug}/archive`, {})).status()).toBe(200);
});

test('the form in Chinese explains refusals at their fields; archiving takes the event off the home page', async ({
  page,
}) => {
  await signIn(page, ORGANISER, 'zh-tw');
  await page.goto('/zh-tw/admin/events/new');
  await hydrated(page);
  await page.getByLabel('活動類型').selectOption({ label: '一般活動' });
  await page.getByLabel('網址代稱').fill(SLUG);
  await page.getByLabel('名稱（英文）').fill('Another');
  await page.getByLabel('名稱（中文）').fill('另一個');
  await page.getByLabel('開始時間').fill(taipei(20, 10));
  await page.getByLabel('結束時間').fill(taipei(20, 8));
  await page.getByLabel('開始報名').fill(taipei(-1, 9));
  await page.getByLabel('截止報名').fill(taipei(19, 23));
  await page.getByRole('button', { name: '建立草稿' }).click();
  await expect(page.getByText('結束時間不得早於開始時間。')).toBeVisible();
  await expect(page.getByLabel('結束時間')).toBeFocused();
  // Fixed, the taken slug comes back from the server at its field.
  await page.getByLabel('結束時間').fill(taipei(20, 12));
  await page.getByRole('button', { name: '建立草稿' }).click();
  await expect(page.getByText('此網址代稱已被其他活動使用過，請改用其他代稱。')).toBeVisible();
  await expectAccessible(page);

  await page.goto(`/zh-tw/admin/events/${SLUG}`);
  await hydrated(page);
  await page.getByRole('button', { name: '封存' }).click();
  const dialog = page.getByRole('dialog', { name: '要封存此活動嗎？' });
  await dialog.getByRole('button', { name: '封存' }).click();
  await expect(page.getByText('已封存。')).toBeVisible();
  await expect(await homeCard(page, 'zh-tw', NAME_ZH)).toHaveCount(0);
});
