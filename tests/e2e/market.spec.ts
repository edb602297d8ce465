import { expect, test, type Page } from '@playwright/test';
import { addWork, expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * The Market exhibitor wizard (issue 9; spec §2 Wizard steps by flow, §3 Exhibitor registration
 * form, §5) and its contact page. The works list is answered here (page.route) so the steps can be
 * walked without the content site; the submits need the server's Market orders.
 */

const WORKS = [
  {
    id: 101,
    genre_id: 'piece',
    category_id: 1,
    language_en: { title: 'Harbour Lights' },
    language_zh_tw: { title: '港灣燈火' },
    name: 'Harbour Lights',
    price_twd: { cents: 0, currency: 'TWD' },
    price_usd: { cents: 0, currency: 'USD' },
  },
  {
    id: 102,
    genre_id: 'project',
    category_id: 2,
    language_en: { title: 'Night Market Stories' },
    language_zh_tw: { title: '夜市故事' },
    name: 'Night Market Stories',
    price_twd: { cents: 0, currency: 'TWD' },
    price_usd: { cents: 0, currency: 'USD' },
  },
];

/** Answers the works list with two works (the content site is not part of these tests). */
async function serveWorks(page: Page) {
  await page.route('**/api/v1/contents/remote*', (route) => route.fulfill({ json: { data: WORKS } }));
}

/** Walks a signed-in user to the form step of a Market event (en). */
async function toFormStep(page: Page, slug: 'market-online' | 'market-earlybird', options = { fakeWorks: true }) {
  if (options.fakeWorks) await serveWorks(page);
  await page.goto(`/en/events/${slug}/registrations/new`);
  await hydrated(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  if (slug === 'market-earlybird') await page.getByRole('radio').first().check();
  await page.getByLabel('I have read the purchase notice and agree to it').check();
  await page.getByLabel(/I agree that my registration data is disclosed/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Choose works' })).toBeFocused();
  await page.getByRole('checkbox', { name: /Harbour Lights/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Fill in the form' })).toBeFocused();
  await expect(page).toHaveURL(/step=form/);
}

/** Fills every required field of the exhibitor form with valid values. */
async function fillForm(page: Page) {
  await page.getByLabel('Company name (Chinese)').fill('港灣影像有限公司');
  await page.getByLabel('Company name (English)').fill('Harbour Pictures Ltd.');
  await page.getByLabel('Industry').selectOption({ index: 3 });
  await page.getByLabel('Country or region').selectOption({ index: 1 });
  const contact = page.getByRole('group', { name: 'Contact 1' });
  await contact.getByLabel('Name (Chinese)').fill('林小華');
  await contact.getByLabel('Name (English)').fill('Hua Lin');
  await contact.getByLabel('Phone').fill('886-912-345-678');
  await contact.getByLabel('E-mail').fill('hua@example.com');
  await page.getByLabel('Contact name').fill('Mei Chen');
  await page.getByLabel('Contact title').fill('Producer');
  await page.getByLabel('Contact phone').fill('886-2-2345-6789');
  await page.getByLabel('Contact e-mail').fill('mei@example.com');
}

test.describe('Market wizard', () => {
  for (const [locale, w] of [
    [
      'en',
      {
        step: 'Upload content',
        link: 'Go to the content database',
        includes: 'Includes 4 badges, no physical booth',
        original: 'Original price',
      },
    ],
    ['zh-tw', { step: '上傳作品', link: '前往內容資料庫', includes: '含 4 張識別證，不含實體攤位', original: '原價' }],
  ] as const) {
    test(`renders the online Market's first step with its prices (${locale})`, async ({ page }) => {
      await page.goto(`/${locale}/events/market-online/registrations/new`);
      await hydrated(page);
      await expect(page.getByRole('heading', { name: w.step, level: 2 })).toBeVisible();
      await expect(
        page.getByRole('navigation', { name: locale === 'en' ? 'Steps' : '步驟' }).getByRole('listitem'),
      ).toHaveCount(6);
      await expect(page.getByRole('link', { name: new RegExp(w.link) })).toHaveAttribute('href', /dev-content\?lang=/);
      const struck = page.locator('s');
      await expect(struck).toContainText(w.original);
      await expect(struck).toContainText('10,000');
      await expect(page.getByText(w.includes)).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('signed out: the identity and works steps ask to sign in; the works list says sign in first', async ({
    page,
  }) => {
    await page.goto('/en/events/market-online/registrations/new');
    await hydrated(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    const main = page.getByRole('main');
    await expect(main.getByText('Please sign in or register to continue.')).toBeVisible();
    await expect(main.getByRole('link', { name: 'Sign in / Register' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('I have read the purchase notice and agree to it').check();
    await page.getByLabel(/I agree that my registration data is disclosed/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Choose works' })).toBeVisible();
    await expect(main.getByText('Please sign in or register to continue.')).toBeVisible();
    await expect(main.getByText(/please sign in first/i)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await expectAccessible(page);
  });

  test('identity step: online offers only type 5, chosen; Continue waits for both agreements', async ({ page }) => {
    await signIn(page, uniqueEmail('market-id'), 'en');
    await page.goto('/en/events/market-online/registrations/new?step=identity');
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Choose participation type' })).toBeVisible();
    const radios = page.getByRole('group', { name: 'Participation type' }).getByRole('radio');
    await expect(radios).toHaveCount(1);
    await expect(radios.first()).toBeChecked();
    await expect(radios.first()).toHaveAttribute('value', '5');
    const next = page.getByRole('button', { name: 'Continue' });
    await expect(next).toBeDisabled();
    await page.getByLabel('I have read the purchase notice and agree to it').check();
    await expect(next).toBeDisabled();
    await page.getByLabel(/I agree that my registration data is disclosed/).check();
    await expect(next).toBeEnabled();
    await expectAccessible(page);
  });

  test('identity step: early-bird offers types 1–4, none chosen until the user picks one', async ({ page }) => {
    await signIn(page, uniqueEmail('market-eb'), 'en');
    await page.goto('/en/events/market-earlybird/registrations/new?step=identity');
    await hydrated(page);
    const radios = page.getByRole('group', { name: 'Participation type' }).getByRole('radio');
    await expect(radios).toHaveCount(4);
    for (const r of await radios.all()) await expect(r).not.toBeChecked();
    await page.getByLabel('I have read the purchase notice and agree to it').check();
    await page.getByLabel(/I agree that my registration data is disclosed/).check();
    const next = page.getByRole('button', { name: 'Continue' });
    await expect(next).toBeDisabled();
    await radios.nth(2).check();
    await expect(next).toBeEnabled();
  });

  test('works step: at least one work', async ({ page }) => {
    await signIn(page, uniqueEmail('market-works'), 'en');
    await serveWorks(page);
    await page.goto('/en/events/market-online/registrations/new?step=identity');
    await hydrated(page);
    await page.getByLabel('I have read the purchase notice and agree to it').check();
    await page.getByLabel(/I agree that my registration data is disclosed/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('checkbox', { name: /Harbour Lights/ })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Please choose at least one work')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Choose works' })).toBeVisible();
  });

  test('form step: counters, a fourth business category is ignored, contacts added and removed, e-mail checked', async ({
    page,
  }) => {
    await signIn(page, uniqueEmail('market-form'), 'en');
    await toFormStep(page, 'market-online');
    await expectAccessible(page);

    // Live counters (length/limit).
    const nameEn = page.getByLabel('Company name (English)');
    await expect(page.locator('#exhibitor-companyNameEn-count')).toHaveText('0/256');
    await nameEn.fill('Harbour');
    await expect(page.locator('#exhibitor-companyNameEn-count')).toHaveText('7/256');
    await page.getByLabel('Company profile (Chinese)').fill('一二三四五');
    await expect(page.locator('#exhibitor-companyProfileZh-count')).toHaveText('5/80');
    await expect(page.locator('#exhibitor-companyProfileEn-count')).toHaveText('0/400');

    // Business categories: up to 3; a fourth tick is ignored.
    const categories = page.getByRole('group', { name: 'Business categories' }).getByRole('checkbox');
    await expect(categories).toHaveCount(14);
    for (const i of [0, 1, 2]) await categories.nth(i).check();
    await categories.nth(3).click();
    await expect(categories.nth(3)).not.toBeChecked();
    await expect(page.getByText('Choose up to 3 (3 of 3 chosen).')).toBeVisible();
    await categories.nth(1).uncheck();
    await categories.nth(3).check();
    await expect(categories.nth(3)).toBeChecked();

    // Copyright contacts: one shown, no remove button; add and remove.
    await expect(page.getByRole('group', { name: /^Contact \d$/ })).toHaveCount(1);
    await expect(page.getByRole('button', { name: /Remove contact/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Add a contact' }).click();
    await expect(page.getByRole('group', { name: 'Contact 2' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Contact 2' }).getByLabel('Name (Chinese)')).toBeFocused();
    await page.getByRole('group', { name: 'Contact 2' }).getByLabel('Name (English)').fill('Second');
    await page.getByRole('button', { name: 'Remove contact 2' }).click();
    await expect(page.getByRole('group', { name: /^Contact \d$/ })).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Add a contact' })).toBeFocused();

    // E-mail inputs: type=email with the hint; an invalid one is named on Continue.
    const email = page.getByRole('group', { name: 'Contact 1' }).getByLabel('E-mail');
    await expect(email).toHaveAttribute('type', 'email');
    await expect(page.getByText('Please enter a valid e-mail address').first()).toBeVisible();
    await fillForm(page);
    await email.fill('not-an-e-mail');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    await expect(email).toHaveAccessibleDescription(/Please enter a valid e-mail address/);
    await expectAccessible(page);
    await email.fill('hua@example.com');
    await expect(email).not.toHaveAttribute('aria-invalid');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Wait for approval', level: 2 })).toBeVisible();
    await expect(page.getByText(/waits for the organiser's approval before payment/)).toBeVisible();
    await expect(page.getByText('Harbour Lights')).toBeVisible();
    await expectAccessible(page);
  });

  test('required fields are named on submit (zh-TW)', async ({ page }) => {
    await signIn(page, uniqueEmail('market-req'), 'zh-tw');
    await serveWorks(page);
    await page.goto('/zh-tw/events/market-earlybird/registrations/new?step=identity');
    await hydrated(page);
    await page.getByRole('radio').first().check();
    await page.getByLabel('我已閱讀並同意購買須知').check();
    await page.getByLabel(/我同意將報名資料/).check();
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByRole('checkbox', { name: /Harbour Lights/ }).check();
    await page.getByRole('button', { name: '下一步' }).click();
    await expect(page.getByRole('heading', { name: '填寫表單' })).toBeVisible();
    await page.getByRole('button', { name: '送出' }).click();
    await expect(page.getByLabel('公司中文名稱')).toBeFocused();
    await expect(page.getByText('此欄位為必填').first()).toBeVisible();
    await expect(page.getByLabel('產業類別')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
  });

  test('the draft survives a reload and a language switch, on the same step', async ({ page }) => {
    await signIn(page, uniqueEmail('market-draft'), 'en');
    await toFormStep(page, 'market-online');
    await page.getByLabel('Company name (English)').fill('Harbour Pictures Ltd.');
    const categories = page.getByRole('group', { name: 'Business categories' }).getByRole('checkbox');
    await categories.nth(4).check();
    await page.getByRole('button', { name: 'Add a contact' }).click();
    await page.getByRole('group', { name: 'Contact 2' }).getByLabel('Phone').fill('886-2-1234-5678');
    page.on('dialog', (d) => void d.accept());
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Fill in the form' })).toBeVisible();
    await expect(page.getByLabel('Company name (English)')).toHaveValue('Harbour Pictures Ltd.');
    await expect(categories.nth(4)).toBeChecked();
    await expect(page.getByRole('group', { name: 'Contact 2' }).getByLabel('Phone')).toHaveValue('886-2-1234-5678');
    await page.goto('/zh-tw/events/market-online/registrations/new?step=form');
    await hydrated(page);
    await expect(page.getByLabel('公司英文名稱')).toHaveValue('Harbour Pictures Ltd.');
    // Back goes one step and keeps the values.
    await page.getByRole('button', { name: '上一步' }).click();
    await expect(page.getByRole('heading', { name: '選擇作品' })).toBeVisible();
  });

  test('online: submitting goes to the pending page', async ({ page }) => {
    await signIn(page, uniqueEmail('market-submit'), 'en');
    await addWork(page, 'Harbour Lights', '港灣燈火');
    await toFormStep(page, 'market-online', { fakeWorks: false });
    await fillForm(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page).toHaveURL(/\/en\/events\/market-online\/registrations\/[^/]+\/pending$/);
  });

  test('early-bird: submitting a free registration goes to the summary', async ({ page }) => {
    await signIn(page, uniqueEmail('market-eb-submit'), 'en');
    await addWork(page, 'Harbour Lights', '港灣燈火');
    await toFormStep(page, 'market-earlybird', { fakeWorks: false });
    await fillForm(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/en\/events\/market-earlybird\/registrations\/[^/?]+$/);
  });
});

test.describe('contact page', () => {
  test('without reg it goes to the summary; signed out it asks to sign in', async ({ page }) => {
    const res = await page.request.get('/en/events/market-earlybird/registrations/some-order/contact', {
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toBe('/en/');
    await signIn(page, uniqueEmail('contact-noreg'), 'en');
    await page.goto('/en/events/market-earlybird/registrations/00000000-0000-4000-8000-000000000000/contact');
    // No reg → the summary, whose unknown order → registrations/new (spec §8).
    await expect(page).toHaveURL(/\/en\/events\/market-earlybird\/registrations\/(new|00000000-[0-9a-f-]+)$/);
  });

  test('edits the exhibitor form and returns to the summary', async ({ page }) => {
    await signIn(page, uniqueEmail('contact-edit'), 'en');
    await addWork(page, 'Harbour Lights', '港灣燈火');
    await toFormStep(page, 'market-earlybird', { fakeWorks: false });
    await fillForm(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/registrations\/[^/?]+$/);
    const summary = page.url();
    await page.getByRole('link', { name: /Edit/ }).click();
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Edit registration form' })).toBeVisible();
    await expect(page.getByText('The works of an entry cannot be changed after submission.')).toBeVisible();
    await expect(page.getByLabel('Company name (English)')).toHaveValue('Harbour Pictures Ltd.');
    await page.getByLabel('Company name (English)').fill('Harbour Pictures Co.');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.href.startsWith(summary));
    await expect(page.getByRole('status').filter({ hasText: 'Updated successfully' })).toBeVisible();
    // The edit is stored: the contact page shows it again.
    await page.getByRole('link', { name: /Edit/ }).click();
    await hydrated(page);
    await expect(page.getByLabel('Company name (English)')).toHaveValue('Harbour Pictures Co.');
  });
});
