import { expect, test, type Browser, type Page } from '@playwright/test';
import { addWork, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * The contact page's edit window, end to end (issues 9 and 10 asked for it; issue 11's events
 * screen makes it possible): a registrant edits their form before the event's form deadline; an
 * organiser moves the deadline into the past; the edit link is gone from the summary and the
 * contact page sends the registrant back to it.
 *
 * The events are test copies of the seeded Market early-bird and Story to Screen events
 * (deadline-events.ts, run before the server starts): moving a seeded event's deadline would
 * break the other suites' contact pages, which run at the same time.
 */

const MARKET = 'deadline-market-earlybird';
const STORY = 'deadline-pitching-story';

const ORGANISER = 'organiser@example.com';

/** Calls the API as the signed-in user of `page`. */
async function api<T>(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        // The session cookie goes along with same-origin requests.
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as T };
    },
    { method, path, body },
  );
}

/** What the summary says once the form deadline has passed (a Taipei date and time). */
const CLOSED = {
  en: /^Editing of the registration form closed on \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\)\.$/,
  'zh-tw': /^報名表單已於 \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\) 截止修改。$/,
};

/** `datetime-local` text of now plus `ms`, in Taipei time. */
const taipeiInput = (ms: number) => new Date(Date.now() + ms + 8 * 3_600_000).toISOString().slice(0, 16);

/**
 * As the organiser (a browser of their own): sets the event's form deadline to `value` on its
 * page in the back office, and answers the value it had.
 */
async function setFormDeadline(browser: Browser, baseURL: string, slug: string, value: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  try {
    await signIn(page, ORGANISER, 'en');
    await page.goto(`/en/admin/events/${slug}`);
    await hydrated(page);
    const field = page.getByLabel('Form changes allowed until');
    const was = await field.inputValue();
    await field.fill(value);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    return was;
  } finally {
    await context.close();
  }
}

test('Market early-bird: the exhibitor form edited before the deadline; after it, no edit link and no contact page', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, uniqueEmail('deadline-market'), 'en');
  await addWork(page, 'Deadline Harbour', '期限港灣');
  await page.goto('/en/');
  const works = await api<{ data: { id: number }[] }>(page, 'GET', '/api/v1/contents/remote');
  const placed = await api<{ order_id: string }>(page, 'POST', `/api/v1/orders?event=${MARKET}`, {
    agree_terms: true,
    agree_disclosure: true,
    market_identity: 1,
    selected_contents: [works.body.data[0]!.id],
    company_name_zh: '期限影業',
    company_name_en: 'Deadline Pictures',
    company_industry: 3,
    company_business_category: [1],
    company_country: 'TWN',
    copyright_contacts: [{ name_zh: '甲', name_en: 'A', phone: '886-912-345-678', email: 'a@example.com' }],
    contact_name: 'Mei Chen',
    contact_title: 'Producer',
    contact_phone: '886-2-2345-6789',
    contact_email: 'mei@example.com',
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const summary = `/en/events/${MARKET}/registrations/${placed.body.order_id}`;

  // Before the deadline: the summary's edit link opens the contact page, and the edit is saved.
  await page.goto(summary);
  await page.getByRole('link', { name: 'Edit the registration form' }).click();
  await hydrated(page);
  const contactPage = page.url();
  await page.getByLabel('Company name (English)').fill('Deadline Pictures Co.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL((url) => url.pathname === summary);
  await expect(page.getByRole('status').filter({ hasText: 'Updated successfully' })).toBeVisible();

  // The organiser moves the deadline a minute into the past.
  const was = await setFormDeadline(browser, baseURL!, MARKET, taipeiInput(-60_000));
  try {
    await page.goto(summary);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit the registration form' })).toHaveCount(0);
    await expect(page.getByText(CLOSED.en)).toBeVisible();
    await page.goto(contactPage);
    await expect(page).toHaveURL((url) => url.pathname === summary);
    // The stored form kept the edit made in time.
    const stored = await api<{ data: { registration_id: string } }>(
      page,
      'GET',
      `/api/v1/orders/${placed.body.order_id}`,
    );
    const registration = await api<{ data: { form: { company_name_en: string } } }>(
      page,
      'GET',
      `/api/v1/registrations/${stored.body.data.registration_id}`,
    );
    expect(registration.body.data.form.company_name_en).toBe('Deadline Pictures Co.');
  } finally {
    await setFormDeadline(browser, baseURL!, MARKET, was);
  }
});

test('Story to Screen: the edit link goes once the story form deadline has passed', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, uniqueEmail('deadline-story'), 'en');
  await addWork(page, 'Deadline Story', '期限故事');
  await page.goto('/en/');
  const works = await api<{ data: { id: number }[] }>(page, 'GET', '/api/v1/contents/remote');
  const outline = await page.evaluate(async () => {
    const form = new FormData();
    form.append('file', new File(['%PDF-1.4\n%%EOF\n'], 'outline.pdf', { type: 'application/pdf' }));
    form.append('purpose', 'story_outline');
    const res = await fetch('/api/v1/files/upload', {
      method: 'POST',
      body: form,
    });
    return ((await res.json()) as { uid: string }).uid;
  });
  const story = await api<{ order_id: string }>(page, 'POST', `/api/v1/orders?event=${STORY}`, {
    agree_policy: true,
    agree_terms: true,
    selected_contents: [works.body.data[0]!.id],
    setting_zh: '港邊',
    setting_en: 'A harbour',
    story_summary_zh: '故事',
    story_summary_en: 'A story',
    story_genre_id: 1,
    story_outline_file_id: outline,
    screen_rights_holder_zh: '甲',
    screen_rights_holder_en: 'A',
    character_description_zh: '角色',
    character_description_en: 'Characters',
    suitable_for_film_zh: '適合',
    suitable_for_film_en: 'Suitable',
    team_members: [
      { name_zh: '甲', name_en: 'A', title_zh: '編劇', title_en: 'Writer', profile_zh: '簡介', profile_en: 'Bio' },
    ],
  });
  expect(story.status, JSON.stringify(story.body)).toBe(201);
  const summary = `/en/events/${STORY}/registrations/${story.body.order_id}`;
  await page.goto(summary);
  const edit = page.getByRole('link', { name: 'Edit the registration form' });
  await expect(edit).toBeVisible();
  // One included badge is one, not "The 1 included exhibitor badges" (issue 19), in both languages.
  await expect(
    page.getByText('The included exhibitor badge is issued as a one-time link once the registration is paid.'),
  ).toBeVisible();
  await page.goto(summary.replace('/en/', '/zh-tw/'));
  await expect(page.getByText('完成付款後，附贈的 1 張展商識別證將以一次性連結核發。')).toBeVisible();
  await page.goto(summary);
  const contactPage =
    new URL((await edit.getAttribute('href'))!, baseURL).pathname +
    new URL((await edit.getAttribute('href'))!, baseURL).search;

  const was = await setFormDeadline(browser, baseURL!, STORY, taipeiInput(-60_000));
  try {
    await page.goto(summary);
    await expect(page.getByRole('link', { name: 'Edit the registration form' })).toHaveCount(0);
    // The link does not just vanish: the page says since when editing is closed (issue 19).
    await expect(page.getByText(CLOSED.en)).toBeVisible();
    await page.goto(summary.replace('/en/', '/zh-tw/'));
    await expect(page.getByText(CLOSED['zh-tw'])).toBeVisible();
    await page.goto(contactPage);
    await expect(page).toHaveURL((url) => url.pathname === summary);
  } finally {
    await setFormDeadline(browser, baseURL!, STORY, was);
  }
});
