import { expect, test } from '@playwright/test';
import { expectAccessible, giveBadge, hydrated, operator, signIn, uniqueEmail } from './fixtures';

test.describe('event registration', () => {
  test('register for a general event and see the summary (en)', async ({ page, baseURL }) => {
    await signIn(page, uniqueEmail('general'), 'en');
    await giveBadge(page, baseURL!);
    await page.goto('/en/events/opening-forum/registrations/new');
    await hydrated(page);
    await expectAccessible(page);
    const register = page.getByRole('button', { name: 'Register' });
    await expect(register).toBeDisabled();
    await page.getByLabel(/I agree to the event terms/).check();
    await register.click();
    await page.waitForURL(/\/en\/events\/opening-forum\/registrations\/[0-9a-f-]+$/);
    await expect(page.getByRole('heading', { name: 'You are registered for this event.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Badge pick-up' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Badge pick-up days, hours and places' })).toBeVisible();
    await expectAccessible(page);
  });

  test('register for an online event and follow the live link (zh-TW)', async ({ page, baseURL }) => {
    await signIn(page, uniqueEmail('online'), 'zh-tw');
    await giveBadge(page, baseURL!);
    await page.goto('/zh-tw/events/online-masterclass/registrations/new');
    await hydrated(page);
    await page.getByLabel(/我同意活動條款/).check();
    await page.getByRole('button', { name: '報名' }).click();
    await expect(page.getByRole('heading', { name: '您已完成此線上活動報名，請於直播頁面參加。' })).toBeVisible();
    await page.getByRole('link', { name: '前往直播頁面' }).click();
    await expect(page).toHaveURL(/\/zh-tw\/live\/online-masterclass$/);
    await expect(page.getByRole('heading', { name: '即將推出…' })).toBeVisible();
  });

  test('an audit event waits for approval; the operator approves it; the order list shows it (en)', async ({
    page,
    baseURL,
  }) => {
    await signIn(page, uniqueEmail('audit'), 'en');
    await giveBadge(page, baseURL!);
    await page.goto('/en/events/pitching-session-audit/registrations/new');
    await hydrated(page);
    await expect(page.getByRole('navigation', { name: 'Steps' }).getByText('Wait for approval')).toBeVisible();
    await page.getByLabel(/I agree to the event terms/).check();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: /waiting for the organiser's approval/ })).toBeVisible();
    const orderNo = (await page.locator('dd.font-mono').first().textContent())!.trim();
    await page.goto('/en/account/orders');
    const card = page.getByRole('article').filter({ hasText: orderNo });
    // The headline says so (not a green "Completed" for a free registration), as does the approval status.
    await expect(card.getByText('Pending approval', { exact: true })).toHaveCount(2);
    await expect(card.getByText('Completed', { exact: true })).toHaveCount(1);
    expect(operator('orders', ['approve', orderNo], baseURL!)).toMatch(/approved/);
    await page.reload();
    await expect(card.getByText('Approved')).toBeVisible();
    await expect(card.getByText('Completed', { exact: true })).toHaveCount(2);
  });

  for (const [locale, words] of [
    [
      'en',
      {
        heading: 'Your registration was not approved.',
        status: 'Rejected',
        reason: 'Reason',
        pickup: 'Badge pick-up',
      },
    ],
    [
      'zh-tw',
      {
        heading: '很抱歉，您的報名未通過審核。',
        status: '未通過審核',
        reason: '原因',
        pickup: '識別證領取',
      },
    ],
  ] as const) {
    test(`a rejected audit registration shows Rejected with the reason, on the summary and the order list (${locale})`, async ({
      page,
      baseURL,
    }) => {
      await signIn(page, uniqueEmail('rejected'), locale);
      await giveBadge(page, baseURL!);
      await page.goto(`/${locale}/events/pitching-session-audit/registrations/new`);
      await hydrated(page);
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: locale === 'en' ? 'Register' : '報名' }).click();
      await expect(page).toHaveURL(/\/registrations\/[0-9a-f-]+$/);
      // Waiting for approval, the holder is coming: the pick-up schedule is there.
      await expect(page.getByRole('heading', { name: words.pickup })).toBeVisible();
      const orderNo = (await page.locator('dd.font-mono').first().textContent())!.trim();
      const reason = locale === 'en' ? 'Audit places are reserved for buyers this year.' : '今年旁聽名額保留給買家。';
      expect(operator('orders', ['reject', orderNo, '--reason', reason], baseURL!)).toMatch(/rejected/);

      await page.reload();
      await expect(page.getByRole('heading', { name: words.heading })).toBeVisible();
      await expect(page.getByText(reason)).toBeVisible();
      await expect(page.getByRole('definition').filter({ hasText: new RegExp(`^${words.status}$`) })).toBeVisible();
      // Not coming: no pick-up schedule (issue 19, defect 4).
      await expect(page.getByRole('heading', { name: words.pickup })).toHaveCount(0);
      await expectAccessible(page);

      await page.goto(`/${locale}/account/orders`);
      const card = page.getByRole('article').filter({ hasText: orderNo });
      // The headline and the approval status both say so.
      await expect(card.getByText(words.status, { exact: true })).toHaveCount(2);
      await expect(card.getByText(words.reason, { exact: true })).toBeVisible();
      await expect(card.getByText(reason)).toBeVisible();
      await expectAccessible(page);
    });
  }

  for (const locale of ['en', 'zh-tw'] as const) {
    test(`closed and not-yet-open registrations say so (${locale})`, async ({ page }) => {
      await page.goto(`/${locale}/events/industry-preview-night/registrations/new`);
      await expect(page.getByText(locale === 'en' ? 'Event registration has closed' : '活動報名已截止')).toBeVisible();
      await page.goto(`/${locale}/events/closing-awards/registrations/new`);
      await expect(page.getByText(locale === 'en' ? 'Event not yet open' : '活動尚未開放報名')).toBeVisible();
      await page.goto(`/${locale}/events/no-such-event/registrations/new`);
      await expect(
        page.getByText(locale === 'en' ? 'This event is currently not open' : '此活動目前未開放'),
      ).toBeVisible();
      await page
        .getByRole('link', { name: locale === 'en' ? 'Back to home' : '返回首頁' })
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/$`));
    });
  }

  test('without a badge the exhibit-badge message suggests the Professional badge (en)', async ({ page }) => {
    await signIn(page, uniqueEmail('nobadge'), 'en');
    await page.goto('/en/events/opening-forum/registrations/new');
    await expect(page.getByText('An exhibit badge is required to register for events.')).toBeVisible();
    await page.getByRole('link', { name: 'Apply for a Professional badge' }).click();
    await expect(page).toHaveURL(/\/en\/badges\/new$/);
  });
});
