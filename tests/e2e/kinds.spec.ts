import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, fillDevSignIn, giveBadge, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * Registration kinds on the public pages and in their wizards (issue 19): every kind's event page
 * and home card offers its own action in both languages (Market and pitching included: defect 1),
 * and signed out that action goes through sign-in and comes back to the wizard; only visitors
 * without an exhibit badge are told an event needs one (defect 2); a full event says so when its
 * wizard opens and, after the "event is full" alert, offers the way on (defect 3).
 */

type Locale = 'en' | 'zh-tw';
type Action = 'register' | 'apply' | 'invitation';

/** One seeded event of each kind, with the action its kind offers and where that action starts. */
const KINDS: { slug: string; action: Action; path?: string; needsBadge?: true; approval?: true }[] = [
  { slug: 'badge-professional', action: 'apply', path: '/badges/new' },
  { slug: 'badge-free', action: 'invitation' },
  { slug: 'pitching-session-audit', action: 'register', needsBadge: true, approval: true },
  { slug: 'opening-forum', action: 'register', needsBadge: true },
  { slug: 'online-masterclass', action: 'register', needsBadge: true },
  { slug: 'market-earlybird', action: 'register' },
  { slug: 'market-online', action: 'register', approval: true },
  { slug: 'pitching-project', action: 'register' },
  { slug: 'pitching-story', action: 'register' },
];
const wizardPath = (k: (typeof KINDS)[number]) => k.path ?? `/events/${k.slug}/registrations/new`;

const W = {
  en: {
    register: 'Register',
    apply: 'Apply for a badge',
    invitation: 'By invitation only',
    approval: 'Places are confirmed once the organiser approves your registration.',
    steps: 'Steps',
    badgeNote: 'Registering for an event requires an exhibit badge.',
    badgeRequired: 'An exhibit badge is required to register for events.',
    terms: /I agree to the event terms/,
    seats: 'Seats',
    oneLeft: '1 seat left',
    soldOut: 'Fully booked',
    capacityFull: 'This event is full. Please go back to the home page to register for other events.',
    ok: 'OK',
    full: 'This event is fully booked.',
    others: 'See other registrations',
    conference: 'Conference home',
    submit: 'Register',
  },
  'zh-tw': {
    register: '報名',
    apply: '申請識別證',
    invitation: '僅限受邀者',
    approval: '報名經主辦單位審核通過後，才會確認名額。',
    steps: '步驟',
    badgeNote: '報名活動需持有展會識別證。',
    badgeRequired: '報名活動需持有展會識別證，請先申請專業人士識別證。',
    terms: /我同意活動條款/,
    seats: '名額',
    oneLeft: '剩餘 1 個名額',
    soldOut: '名額已滿',
    capacityFull: '此活動名額已滿，請返回首頁報名其他活動。',
    ok: '確定',
    full: '此活動名額已滿。',
    others: '查看其他報名',
    conference: '大會首頁',
    submit: '報名',
  },
} as const;

const code = (locale: Locale) => (locale === 'en' ? 'en' : 'zh-TW');
const signInTo = (locale: Locale, path: string) =>
  `/api/v1/user/signin?locale=${code(locale)}&return_to=${encodeURIComponent(`/${locale}${path}`)}`;
const actionName = (locale: Locale, action: Action) => (action === 'apply' ? W[locale].apply : W[locale].register);

/** A page of its own, signed out (the test's page may be signed in). */
async function visitor(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

for (const locale of ['en', 'zh-tw'] as const) {
  const w = W[locale];

  test(`every kind's event page and home card offers its action, through sign-in when signed out (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const names = new Map<string, string>();
    for (const kind of KINDS) {
      await page.goto(`/${locale}/events/${kind.slug}`);
      const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
      names.set(kind.slug, name);
      const main = page.getByRole('main');
      // Kinds the organiser approves say so (Market online too, whatever the event's own setting).
      await expect(main.getByText(w.approval), kind.slug).toHaveCount(kind.approval ? 1 : 0);
      if (kind.action === 'invitation') {
        await expect(main.getByText(w.invitation, { exact: true })).toBeVisible();
        await expect(main.getByRole('link', { name: w.register, exact: true })).toHaveCount(0);
        await expect(main.getByRole('link', { name: w.apply, exact: true })).toHaveCount(0);
      } else {
        await expect(
          main.getByRole('link', { name: actionName(locale, kind.action), exact: true }),
          kind.slug,
        ).toHaveAttribute('href', signInTo(locale, wizardPath(kind)));
      }
    }
    await expectAccessible(page);

    await page.goto(`/${locale}/`);
    for (const kind of KINDS) {
      const card = page.getByRole('article').filter({ has: page.locator(`#event-${kind.slug}`) });
      await expect(card.getByRole('heading', { name: names.get(kind.slug) })).toBeVisible();
      const action = card.getByRole('link', { name: new RegExp(`^${actionName(locale, kind.action)}`) });
      if (kind.action === 'invitation') {
        await expect(card.getByText(w.invitation, { exact: true })).toBeVisible();
        await expect(action).toHaveCount(0);
      } else await expect(action, kind.slug).toHaveAttribute('href', signInTo(locale, wizardPath(kind)));
    }
  });

  test(`signed out, each kind's button signs in first and comes back to its wizard (${locale})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    for (const kind of KINDS.filter((k) => k.action !== 'invitation')) {
      const page = await visitor(browser, baseURL!);
      await page.goto(`/${locale}/events/${kind.slug}`);
      await page
        .getByRole('main')
        .getByRole('link', { name: actionName(locale, kind.action), exact: true })
        .click();
      await fillDevSignIn(page, uniqueEmail(`kind-${kind.slug}`));
      await page.waitForURL(`**/${locale}${wizardPath(kind)}`);
      if (kind.needsBadge)
        // An event asks a new account for its exhibit badge first (spec §5), on the wizard's page.
        await expect(page.getByText(w.badgeRequired), kind.slug).toBeVisible();
      else {
        await hydrated(page);
        await expect(page.getByRole('navigation', { name: w.steps }), kind.slug).toBeVisible();
      }
      await page.context().close();
    }
  });
}

test('only a visitor without an exhibit badge is told an event needs one (en, zh-TW)', async ({
  page,
  browser,
  baseURL,
}) => {
  // Signed out: maybe they have none.
  const anonymous = await visitor(browser, baseURL!);
  await anonymous.goto('/en/events/opening-forum');
  await expect(anonymous.getByText(W.en.badgeNote)).toBeVisible();
  // A Market registration needs no badge: nobody is told so there.
  await anonymous.goto('/en/events/market-earlybird');
  await expect(anonymous.getByText(W.en.badgeNote)).toHaveCount(0);
  await anonymous.context().close();

  await signIn(page, uniqueEmail('badge-note'), 'zh-tw');
  await page.goto('/zh-tw/events/opening-forum');
  await expect(page.getByText(W['zh-tw'].badgeNote)).toBeVisible();
  await giveBadge(page, baseURL!);
  for (const locale of ['en', 'zh-tw'] as const) {
    await page.goto(`/${locale}/events/opening-forum`);
    await expect(page.getByRole('main').getByRole('link', { name: W[locale].register, exact: true })).toHaveAttribute(
      'href',
      `/${locale}/events/opening-forum/registrations/new`,
    );
    await expect(page.getByText(W[locale].badgeNote)).toHaveCount(0);
  }
  await expectAccessible(page);
});

test('a full event says so: after the alert, and when its wizard opens (en, zh-TW)', async ({
  page,
  browser,
  baseURL,
}) => {
  const w = W.en;
  await signIn(page, uniqueEmail('full-a'), 'en');
  await giveBadge(page, baseURL!);
  await page.goto('/en/events/full-forum/registrations/new');
  await hydrated(page);
  await expect(page.getByRole('definition').filter({ hasText: w.oneLeft })).toBeVisible();

  // Meanwhile someone else takes the last seat.
  const other = await visitor(browser, baseURL!);
  await signIn(other, uniqueEmail('full-b'), 'en');
  await giveBadge(other, baseURL!);
  const status = await other.evaluate(async () => {
    const res = await fetch('/api/v1/orders?event=full-forum', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agree_terms: true }),
    });
    return res.status;
  });
  expect(status).toBe(201);
  await other.context().close();

  // The spec's alert, then the page again, which now says it is full and offers the way on.
  await page.getByLabel(w.terms).check();
  await page.getByRole('button', { name: w.submit }).click();
  const alert = page.getByRole('alertdialog', { name: w.capacityFull });
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: w.ok }).click();
  await expect(page.getByRole('heading', { name: w.full })).toBeVisible();
  await expect(page).toHaveURL(/\/en\/events\/full-forum\/registrations\/new$/);
  await expect(page.getByRole('link', { name: w.others })).toHaveAttribute('href', '/en/#open-registrations');
  await expect(page.getByRole('link', { name: w.conference })).toHaveAttribute('href', /^https?:\/\//);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expectAccessible(page);

  // Opened again, it says so at once: no seats count of 0, no terms box, no Register.
  for (const locale of ['en', 'zh-tw'] as const) {
    await page.goto(`/${locale}/events/full-forum/registrations/new`);
    await expect(page.getByRole('heading', { name: W[locale].full })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: W[locale].soldOut })).toBeVisible();
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: W[locale].submit })).toHaveCount(0);
    await page.getByRole('link', { name: W[locale].others }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/#open-registrations$`));
  }
  await expectAccessible(page);
});
