import { expect, test, type Page } from '@playwright/test';
import { applyForBadge, expectAccessible, giveBadge, hydrated, signIn } from './fixtures';

/*
 * A portal that starts empty (issue 21; the `fresh` project: no seed, as in production with an
 * external identity provider): the public pages say there is nothing open, the first admin is
 * guided from the empty back office to an edition with its settings, pick-up schedule and one
 * published event of each kind the registry knows, which registrants then reach from the public
 * pages, in both languages.
 */

const ADMIN = 'first-admin@example.com';
/** The badge rights image's text (accountBadge.rightsAlt). */
const RIGHTS_ALT =
  'What the badge gives access to: the Market, pitching sessions, forums and the business meeting centre.';
const SLUG = `opening-${Date.now().toString(36)}`;

/** A `datetime-local` value `days` from now, in Taipei time. */
const taipei = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000 + 8 * 3_600_000);
  return `${d.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`;
};
const day = (days: number) => new Date(Date.now() + days * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);

/** One event of each kind the registry knows (src/domain/kinds/types.ts), by its label in the form's type list. */
const KINDS = [
  { type: 'Professional badge', slug: `badge-pro-${SLUG}`, en: 'Professional badge 2027', zh: '2027 專業人士識別證' },
  { type: 'Free badge', slug: `free-badge-${SLUG}`, en: 'Free badge', zh: '免費識別證' },
  { type: 'Event (audit)', slug: `audit-${SLUG}`, en: 'Pitching audit 2027', zh: '2027 提案大會旁聽' },
  { type: 'Event (general)', slug: SLUG, en: 'Opening forum', zh: '開幕論壇' },
  { type: 'Event (online)', slug: `online-${SLUG}`, en: 'Online masterclass 2027', zh: '2027 線上大師班' },
  { type: 'Market early-bird', slug: `market-early-${SLUG}`, en: 'Market early-bird 2027', zh: '2027 市場展早鳥報名' },
  { type: 'Market online', slug: `market-online-${SLUG}`, en: 'Market online 2027', zh: '2027 線上市場展' },
  { type: 'Pitching: Project to Screen', slug: `project-${SLUG}`, en: 'Project to Screen 2027', zh: '2027 專案提案' },
  { type: 'Pitching: Story to Screen', slug: `story-${SLUG}`, en: 'Story to Screen 2027', zh: '2027 故事提案' },
] as const;

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
  // The badge rights image: uploaded like an event's image, shown resized in the preview.
  await expect(page.getByText("No image uploaded: the badge page shows the portal's default.")).toBeVisible();
  await page.locator('input[type="file"]').setInputFiles('tests/e2e/files/photo.png');
  await expect(page.getByText('Uploaded: photo.png')).toBeVisible();
  await page.getByRole('button', { name: 'Save the settings' }).click();
  const preview = page.getByRole('region', { name: 'What registrants see' });
  await expect(preview.getByText('Mega Bank, Nangang Branch')).toBeVisible();
  await expect(preview.getByText('123-45-678901')).toBeVisible();
  const rights = preview.getByRole('img', { name: RIGHTS_ALT });
  await expect(rights).toHaveAttribute('src', /^\/api\/v1\/event-images\/[0-9a-f-]{36}\?w=1280$/);
  expect((await page.request.get((await rights.getAttribute('src'))!)).headers()['content-type']).toBe('image/jpeg');
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

  // One event of each kind the registry knows, created as a draft and then published.
  test.setTimeout(240_000);
  const types = await page.goto('/en/admin/events/new').then(async () => {
    await hydrated(page);
    return page.getByLabel('Event type').locator('option:not([value=""])').allTextContents();
  });
  expect([...types].sort()).toEqual(KINDS.map((k) => k.type).sort());
  for (const k of KINDS) await createAndPublish(page, k.type, k.slug, k.en, k.zh);
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

test('registrants reach each published event from the public pages in both languages, and register', async ({
  page,
  baseURL,
}) => {
  for (const [locale, name] of [
    ['en', 'en'],
    ['zh-tw', 'zh'],
  ] as const)
    for (const k of KINDS) {
      await page.goto(`/${locale}/`);
      await page.getByRole('main').getByRole('link', { name: k[name], exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/events/${k.slug}$`));
      await expect(page.getByRole('heading', { level: 1, name: k[name] })).toBeVisible();
    }
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
  // The badge page shows the edition's schedule and its badge rights image.
  await page.goto('/en/account/badge');
  await expect(page.getByRole('img', { name: RIGHTS_ALT })).toHaveAttribute('src', /^\/api\/v1\/event-images\//);
  await expect(page.getByRole('table', { name: 'Badge pick-up days, hours and places' })).toContainText(
    'Service desk, Hall 2',
  );
});

test('a returning visitor: last edition’s badge, a new edition current, My badge says none for it and lets them apply (en, zh-TW)', async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // The visitor holds a badge of the current edition (TCCF 2027).
  await signIn(page, `returning-${Date.now()}@example.com`, 'en');
  await giveBadge(page, baseURL!);
  await page.goto('/en/account/badge');
  await expect(page.getByText('Your badge registration is complete.')).toBeVisible();

  // The organiser starts the next edition (it becomes current) and publishes its Professional badge.
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, ADMIN, 'en');
  await admin.goto('/en/admin/edition');
  await hydrated(admin);
  const next = admin.locator('form').filter({ has: admin.getByRole('button', { name: 'Start the next edition' }) });
  await next.getByLabel('Name (English)').fill('TCCF 2028');
  await next.getByLabel('Name (Chinese)').fill('2028 TCCF 創意內容大會');
  await next.getByLabel('Address (slug)').fill('tccf-2028');
  // The same first day: the copies keep this edition's (open) registration windows.
  await next.getByLabel('First day of the fair').fill(day(20));
  await next.getByRole('button', { name: 'Start the next edition' }).click();
  await expect(admin.getByText('Current edition: TCCF 2028.')).toBeVisible();
  const copy = await admin.evaluate(async () => {
    const token = localStorage.getItem('idc-token');
    const res = await fetch('/api/v1/admin/events', { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const events = (await res.json()).data as { slug: string; type: string; status: string }[];
    return events.find((e) => e.type === 'badge_professional' && e.status === 'draft')?.slug;
  });
  expect(copy).toBeTruthy();
  await admin.goto(`/en/admin/events/${copy}`);
  await hydrated(admin);
  await admin.getByRole('button', { name: 'Publish' }).click();
  await admin.getByRole('dialog', { name: 'Publish this event?' }).getByRole('button', { name: 'Publish' }).click();
  await expect(admin.getByText('Published: the event is on the public pages.')).toBeVisible();
  await context.close();

  // My badge: none for this edition, the way to apply, and last edition's badge in My orders.
  await page.goto('/en/account/badge');
  const none = page.getByRole('alert');
  await expect(none).toContainText('You have no badge for TCCF 2028 yet.');
  await expect(none).toContainText('your badge of a past edition stays in your orders');
  await expect(none.getByRole('link', { name: 'My orders' })).toHaveAttribute('href', '/en/account/orders');
  await expectAccessible(page);
  await page.goto('/zh-tw/account/badge');
  await expect(page.getByRole('alert')).toContainText('您尚未取得2028 TCCF 創意內容大會的識別證。');
  await expect(page.getByRole('alert').getByRole('link', { name: '我的訂單' })).toBeVisible();
  await page.goto('/en/account/badge');
  await page.getByRole('link', { name: 'Read about the Professional badge and apply' }).click();
  await expect(page).toHaveURL(/\/en\/badges\/new/);
  await hydrated(page);
  // No "one e-mail, one badge" refusal: the wizard opens, and the application is taken.
  await expect(page.getByText('One e-mail can apply for only one badge.')).toHaveCount(0);
  const applied = await applyForBadge(page);
  expect(applied.status).toBe(201);
});
