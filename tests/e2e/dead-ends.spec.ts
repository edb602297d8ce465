import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, giveBadge, hydrated, operator, signIn, uniqueEmail, uploadPhoto } from './fixtures';

/*
 * Issue 8, "No dead ends, no misleading states": every page a registrant reaches says where they
 * stand and offers the next step, in both languages.
 */

type Locale = 'en' | 'zh-tw';
const LOCALES: Locale[] = ['en', 'zh-tw'];

const WORDS = {
  en: {
    used: 'This link has already been used.',
    expired: 'This link has expired, please contact support.',
    notForUser: 'This link was issued to another e-mail address.',
    switchAccount: 'Sign in with another account',
    browse: 'Browse registrations',
    myBadge: 'My badge',
    next: 'Continue',
    exhibitorNote: 'Exhibitors: please contact the organiser',
    resume:
      'You have already applied for a Professional badge. Finish paying for it here to complete your application.',
    alreadyOne: 'One e-mail can apply for only one badge',
    empty: 'No registration orders yet',
    applyBadge: 'Apply for a badge',
    awaitingPayment: '· Awaiting payment',
    backToSite: 'Back to the official site',
    portalHome: 'Registration home',
    registered: 'You are registered',
    viewRegistration: 'View your registration',
    alreadyRegistered: 'You are already registered for this event.',
    register: /^Register/,
    comingSoon: 'Coming soon...',
    payByCard: 'Pay by card',
    card: { number: 'Card number', expiry: 'Expiry date', cvc: 'CVC', pay: /^Pay/ },
    declined: 'Your payment did not go through',
    notOpen: 'Event not yet open',
    opens: /^Registration opens \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\)\.$/,
    backToEvent: 'Back to the event',
    seats: 'Seats',
  },
  'zh-tw': {
    used: '此連結已被使用。',
    expired: '連結已失效，請聯絡客服。',
    notForUser: '此連結是核發給其他電子郵件地址的。',
    switchAccount: '改用其他帳號登入',
    browse: '瀏覽報名項目',
    myBadge: '我的識別證',
    next: '下一步',
    exhibitorNote: '展商請直接聯絡主辦單位',
    resume: '您已申請專業人士識別證，請在此完成付款，即可完成申請。',
    alreadyOne: '每個電子郵件帳號僅能申請一張識別證',
    empty: '尚無報名訂單',
    applyBadge: '申請識別證',
    awaitingPayment: '· 待付款',
    backToSite: '返回官方網站',
    portalHome: '報名首頁',
    registered: '您已報名',
    viewRegistration: '查看報名資料',
    alreadyRegistered: '您已報名此活動。',
    register: /^報名/,
    comingSoon: '即將推出…',
    payByCard: '前往信用卡付款',
    card: { number: '卡號', expiry: '有效期限', cvc: '安全碼', pay: /^付款/ },
    declined: '您的付款未成功',
    notOpen: '活動尚未開放報名',
    opens: /^將於 \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\) 開放報名。$/,
    backToEvent: '返回活動頁面',
    seats: '名額',
  },
} as const;

/** Calls the registration API from the page, with the signed-in user's session cookie (as an island does). */
async function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

/** A badge application with a freshly uploaded photo (the body of both badge calls). */
async function application(page: Page) {
  const uid = await uploadPhoto(page);
  return {
    applicant: { name_en: 'Dead End Tester', contact_phone: '886-912-345-678' },
    badge: { name_en: 'Tester' },
    personal_photo_file_id: uid,
  };
}

/** A one-time link from the operator command: its code. */
function linkCode(baseURL: string, type: string, email?: string): string {
  const out = operator('badge-link', ['--type', type, ...(email ? ['--email', email] : [])], baseURL);
  const code = new RegExp(`get-badge/${type}/(\\S+)`).exec(out)?.[1];
  expect(code, out).toBeTruthy();
  return code!;
}

/** An unpaid Professional badge order of the signed-in user: its id. */
async function unpaidBadgeOrder(page: Page): Promise<string> {
  const res = await api(page, 'POST', '/api/v1/demonstration_order', await application(page));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.order_id;
}

async function signedInPage(browser: Browser, label: string, locale: Locale) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail(label);
  await signIn(page, email, locale);
  return { context, page, email };
}

for (const locale of LOCALES) {
  const w = WORDS[locale];

  test(`a used and an unknown link are refused when the page opens, before any form (${locale})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const code = linkCode(baseURL!, 'vip');
    // The first user claims it; opening it again takes them to their badge.
    await signIn(page, uniqueEmail(`claimer-${locale}`), locale);
    const claimed = await api(page, 'PUT', `/api/v1/demonstration?code=${code}&type=vip`, await application(page));
    expect(claimed.status).toBe(200);
    await page.goto(`/${locale}/get-badge/vip/${code}`);
    await expect(page).toHaveURL(new RegExp(`/${locale}/account/badge$`));

    const other = await signedInPage(browser, `second-${locale}`, locale);
    const used = await other.page.goto(`/${locale}/get-badge/vip/${code}`);
    expect(used?.status()).toBe(409);
    await expect(other.page.getByRole('heading', { name: w.used })).toBeVisible();
    await expect(other.page.getByRole('button', { name: w.next })).toHaveCount(0);
    await expect(other.page.getByRole('textbox')).toHaveCount(0);
    await expect(other.page.getByRole('main').getByRole('link', { name: w.browse })).toHaveAttribute(
      'href',
      `/${locale}/`,
    );
    await expect(other.page.getByRole('main').getByRole('link', { name: w.myBadge })).toHaveAttribute(
      'href',
      `/${locale}/account/badge`,
    );
    await expectAccessible(other.page);

    for (const path of ['/get-badge/vip/no-such-code', `/get-badge/exhibitor-market/${code}`, `/get-badge/nope/x`]) {
      const unknown = await other.page.goto(`/${locale}${path}`);
      expect(unknown?.status(), path).toBe(404);
      await expect(other.page.getByRole('heading', { name: w.expired })).toBeVisible();
      await expect(other.page.getByRole('button', { name: w.next })).toHaveCount(0);
    }
    await expectAccessible(other.page);
    await other.context.close();
  });

  test(`an unpaid badge order: applying again goes on to pay it (${locale})`, async ({ page }) => {
    await signIn(page, uniqueEmail(`unpaid-${locale}`), locale);
    const orderId = await unpaidBadgeOrder(page);
    await page.goto(`/${locale}/badges/new`);
    await expect(page).toHaveURL(new RegExp(`/${locale}/badges/${orderId}/pay\\?resume=1$`));
    await expect(page.getByRole('status').filter({ hasText: w.resume })).toBeVisible();
    await expect(page.getByText(w.alreadyOne)).toHaveCount(0);
    await hydrated(page);
    await expect(page.getByRole('button', { name: w.payByCard })).toBeVisible();
    await expectAccessible(page);
    // The home page's badge card says where the application stands instead of offering another.
    await page.goto(`/${locale}/`);
    const badgeCard = page.getByRole('article').filter({ has: page.locator('#event-badge-professional') });
    await expect(badgeCard.getByText(w.awaitingPayment, { exact: true })).toBeVisible();
    await expect(badgeCard.getByRole('link', { name: w.applyBadge })).toHaveCount(0);
  });

  test(`the empty order list leads on; the header links to the portal home (${locale})`, async ({ page }) => {
    await signIn(page, uniqueEmail(`empty-${locale}`), locale);
    await page.goto(`/${locale}/account/orders`);
    await expect(page.getByText(w.empty)).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: w.applyBadge })).toHaveAttribute('href', `/${locale}/badges/new`);
    await expect(main.getByRole('link', { name: w.backToSite })).toHaveAttribute('href', 'https://tccf.taicca.tw/');
    await expect(page.getByRole('banner').getByRole('link', { name: w.portalHome })).toHaveAttribute(
      'href',
      `/${locale}/`,
    );
    await expectAccessible(page);
    await main.getByRole('link', { name: w.browse }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/$`));
    await expect(page.getByRole('banner').getByRole('link', { name: w.portalHome })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test(`a registered user sees "You are registered" on the event page and the home page (${locale})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    await signIn(page, uniqueEmail(`registered-${locale}`), locale);
    await giveBadge(page, baseURL!);
    const created = await api(page, 'POST', '/api/v1/orders?event=opening-forum', { agree_terms: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const summary = `/${locale}/events/opening-forum/registrations/${created.body.order_id}`;

    const res = await page.goto(`/${locale}/events/opening-forum`);
    expect(res?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.getByText(w.registered, { exact: true })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: w.viewRegistration })).toHaveAttribute(
      'href',
      summary,
    );
    await expect(page.getByRole('main').getByRole('link', { name: w.register })).toHaveCount(0);
    await expectAccessible(page);

    await page.goto(`/${locale}/`);
    const card = page.getByRole('article').filter({ has: page.locator('#event-opening-forum') });
    await expect(card.getByText(w.registered, { exact: true })).toBeVisible();
    await expect(card.getByRole('link', { name: new RegExp(`^${w.viewRegistration}`) })).toHaveAttribute(
      'href',
      summary,
    );
    await expect(card.getByRole('link', { name: w.register })).toHaveCount(0);
    // The badge card says the badge is there, and leads to it instead of applying again.
    const badgeCard = page.getByRole('article').filter({ has: page.locator('#event-badge-professional') });
    await expect(badgeCard.getByRole('link', { name: w.myBadge })).toHaveAttribute('href', `/${locale}/account/badge`);
    await expectAccessible(page);

    // The registration wizard does not offer the form again.
    await page.goto(`/${locale}/events/opening-forum/registrations/new`);
    await expect(page.getByText(w.alreadyRegistered)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: w.viewRegistration })).toHaveAttribute(
      'href',
      summary,
    );

    // Signed out, the same pages stay public (cacheable) and offer to register.
    const visitor = await browser.newContext();
    const anonymous = await visitor.newPage();
    const pub = await anonymous.goto(`/${locale}/events/opening-forum`);
    expect(pub?.headers()['cache-control']).toMatch(/^public, max-age=60/);
    await expect(anonymous.getByRole('main').getByRole('link', { name: w.register })).toBeVisible();
    await expect(anonymous.getByText(w.registered, { exact: true })).toHaveCount(0);
    await visitor.close();
  });

  test(`the live page names its event and time; an unknown one is 404 (${locale})`, async ({ page, request }) => {
    const event = await request.get('/api/v1/events/online-masterclass', {
      headers: { 'accept-language': locale === 'en' ? 'en' : 'zh-TW' },
    });
    const name = (await event.json()).data.name as string;
    const res = await page.goto(`/${locale}/live/online-masterclass`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.locator('main time')).toHaveText(/^\d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2}–\d{2}:\d{2} \(GMT\+8\)$/);
    await expect(page.getByRole('heading', { name: w.comingSoon })).toBeVisible();
    await expect(page.getByRole('link', { name: w.backToEvent })).toHaveAttribute(
      'href',
      `/${locale}/events/online-masterclass`,
    );
    await expectAccessible(page);
    const unknown = await page.goto(`/${locale}/live/no-such-event`);
    expect(unknown?.status()).toBe(404);
  });

  test(`a declined card: the heading says the payment did not go through (${locale})`, async ({ page }) => {
    await signIn(page, uniqueEmail(`declined-${locale}`), locale);
    const orderId = await unpaidBadgeOrder(page);
    await page.goto(`/${locale}/badges/${orderId}/pay`);
    await hydrated(page);
    await page.getByRole('button', { name: w.payByCard }).click();
    await page.waitForURL(/\/sandbox-gateway\//);
    await page.getByLabel(w.card.number, { exact: true }).fill('4000-0000-0000-0002');
    await page.getByLabel(w.card.expiry).fill('12/39');
    await page.getByLabel(w.card.cvc).fill('123');
    await page.getByRole('button', { name: w.card.pay }).click();
    await page.waitForURL(new RegExp(`/${locale}/badges/${orderId}/processing$`));
    await expect(page.getByRole('heading', { level: 1, name: w.declined })).toBeVisible({ timeout: 20_000 });
    // Opened again, the page says so at once (not "processing").
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: w.declined })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(w.declined));
    await expectAccessible(page);
  });

  test(`a not-yet-open registration says when it opens and links back; closed events show no seats (${locale})`, async ({
    page,
  }) => {
    await page.goto(`/${locale}/events/closing-awards/registrations/new`);
    const status = page.getByRole('status').filter({ hasText: w.notOpen });
    await expect(status.getByText(w.opens)).toBeVisible();
    await status.getByRole('link', { name: w.backToEvent }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/events/closing-awards$`));
    // A closed registration: no seats left to speak of, on either page.
    await page.goto(`/${locale}/events/industry-preview-night`);
    await expect(page.getByRole('term').filter({ hasText: new RegExp(`^${w.seats}$`) })).toHaveCount(0);
    await page.goto(`/${locale}/events/industry-preview-night/registrations/new`);
    await expect(page.getByRole('term').filter({ hasText: new RegExp(`^${w.seats}$`) })).toHaveCount(0);
    await expectAccessible(page);
  });
}

test('/zh-TW/ in any case reaches the zh-tw page; /EN/ the en one', async ({ page }) => {
  for (const [path, target] of [
    ['/zh-TW/events/opening-forum', '/zh-tw/events/opening-forum'],
    ['/ZH-tw/', '/zh-tw/'],
    ['/zh-TW', '/zh-tw/'],
    ['/EN/events/opening-forum?x=1', '/en/events/opening-forum?x=1'],
  ]) {
    const res = await page.goto(path!);
    expect(res?.status(), path).toBe(200);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(target);
    await expect(page.locator('html')).toHaveAttribute('lang', target!.startsWith('/zh-tw') ? 'zh-TW' : 'en');
  }
});

test('a link issued to another e-mail says so before any form, and offers to switch account (zh-tw)', async ({
  page,
  baseURL,
}) => {
  const code = linkCode(baseURL!, 'exhibitor-market', uniqueEmail('owner'));
  const email = uniqueEmail('not-owner');
  await signIn(page, email, 'zh-tw');
  const res = await page.goto(`/zh-tw/get-badge/exhibitor-market/${code}`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: WORDS['zh-tw'].notForUser })).toBeVisible();
  await expect(page.getByRole('main').getByText(email, { exact: false })).toBeVisible();
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: WORDS['zh-tw'].switchAccount }).click();
  // Signed out, with the link as the page to come back to after signing in.
  await expect(page).toHaveURL(/\/zh-tw\/$/);
  expect((await page.context().cookies()).find((c) => c.name === 'portal-session')).toBeUndefined();
});

test('a valid free-badge link opens its form without the exhibitor note; the Professional flow keeps it (en)', async ({
  page,
  baseURL,
}) => {
  const code = linkCode(baseURL!, 'exhibitor-market');
  await signIn(page, uniqueEmail('valid-link'), 'en');
  await page.goto(`/en/get-badge/exhibitor-market/${code}`);
  await hydrated(page);
  await expect(page.getByText('Badge type: Exhibitor (Market)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expect(page.getByText(WORDS.en.exhibitorNote)).toHaveCount(0);
  await page.goto('/en/badges/new');
  await hydrated(page);
  await expect(page.getByText(WORDS.en.exhibitorNote)).toBeVisible();
});

test('the badge page shows a transfer; once paid the summary links to My badge; one order reads "1 order" (en)', async ({
  page,
  baseURL,
}) => {
  await signIn(page, uniqueEmail('transfer-badge'), 'en');
  const orderId = await unpaidBadgeOrder(page);
  const declared = await api(page, 'PUT', '/api/v1/demonstration_order', {
    payment: { type: 'atm', last_five_digits: '24680' },
    receipt: { kind: 'personal' },
  });
  expect(declared.status, JSON.stringify(declared.body)).toBe(200);
  const orderNo = declared.body.order_no as string;

  await page.goto('/en/account/badge');
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment.getByText('ATM transfer')).toBeVisible();
  await expect(payment.getByText('24680')).toBeVisible();
  await expect(payment.getByText('TWD 1,000')).toBeVisible();
  await expect(payment.getByText('Checking')).toBeVisible();
  await expectAccessible(page);

  await page.goto('/en/account/orders');
  const card = page.getByRole('article').filter({ hasText: orderNo });
  await expect(card.getByText('Transfer being checked', { exact: true })).toBeVisible();
  // The spec's registration status stays as the status field.
  await expect(card.getByRole('definition').filter({ hasText: /^Completed$/ })).toBeVisible();
  await expect(page.getByText('1 order', { exact: true })).toHaveCount(1);

  expect(operator('orders', ['mark-paid', orderNo], baseURL!)).toMatch(/paid/);
  await page.goto(`/en/events/badge-professional/registrations/${orderId}`);
  await expect(page.getByText('Completed', { exact: true }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Your badge is on My badge' }).click();
  await expect(page).toHaveURL(/\/en\/account\/badge$/);
  await expect(page.getByRole('region', { name: 'Payment' }).getByText('Amount paid')).toBeVisible();
});

test('the stored language is one value: the page read last decides where unprefixed routes go', async ({
  browser,
  baseURL,
}) => {
  // A browser that prefers English reads a zh-tw page: the stored choice is now zh-TW, in both places.
  const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
  const page = await context.newPage();
  await page.goto(`${baseURL}/zh-tw/`);
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-TW');
  expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('zh-TW');
  await page.goto(`${baseURL}/signin`);
  await expect(page).toHaveURL(/\/zh-tw\/signin$/);
  // The query wins over the stored choice, and becomes it.
  await page.goto(`${baseURL}/signin?locale=en`);
  await expect(page).toHaveURL(/\/en\/signin$/);
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
  expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('en');
  await page.goto(`${baseURL}/account/orders`);
  await expect(page).toHaveURL(/\/en\//);
  await context.close();
});
