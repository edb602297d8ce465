import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, signIn, uniqueEmail } from './fixtures';

/*
 * The public pages of issue 4: the home page's open registrations and the event info pages,
 * for visitors who arrive signed out (from a search engine or a shared link).
 */

const L = {
  en: {
    open: 'Open registrations',
    closed: 'Registration closed',
    closedState: 'Registration has closed',
    register: 'Register',
    apply: 'Apply for a badge',
    details: 'Details',
    invitation: 'By invitation only',
    forum: 'Opening forum: The future of Asian series',
    audit: 'Pitching sessions (audit)',
    professional: 'Professional badge',
    free: 'Free badge',
    market: 'TCCF Online Market',
    awards: 'Closing awards ceremony',
    preview: 'Industry preview night',
    openUntil: /^Registration open until \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\)$/,
    opens: /^Registration opens \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\)$/,
    seats: /^\d+ seats left$/,
    priceFree: 'Free',
    type: 'General event',
    auditType: 'Audit event',
    organizer: 'Taiwan Creative Content Agency',
    ogLocale: 'en_US',
    badgePrice: 'TWD 1,000',
    marketPrice: 'TWD 6,000',
    street: 'No. 2, Jingmao 2nd Rd.',
  },
  'zh-tw': {
    open: '開放報名中',
    closed: '報名已截止',
    closedState: '報名已截止',
    register: '報名',
    apply: '申請識別證',
    details: '詳細資訊',
    invitation: '僅限受邀者',
    forum: '開幕論壇：亞洲影集的未來',
    audit: '提案大會旁聽',
    professional: '專業人士識別證',
    free: '免費識別證',
    market: 'TCCF 線上市場展',
    awards: '閉幕頒獎典禮',
    preview: '產業預覽之夜',
    openUntil: /^報名開放至 \d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\)$/,
    opens: /^\d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2} \(GMT\+8\) 開放報名$/,
    seats: /^剩餘 \d+ 個名額$/,
    priceFree: '免費',
    type: '一般活動',
    auditType: '旁聽活動',
    organizer: '文化內容策進院',
    ogLocale: 'zh_TW',
    badgePrice: '新臺幣 1,000 元',
    marketPrice: '新臺幣 6,000 元',
    street: '經貿二路 2 號',
  },
} as const;

/** Signed out, an action goes through sign-in and comes back to its page (issue 19). */
const signInTo = (locale: 'en' | 'zh-tw', path: string) =>
  `/api/v1/user/signin?locale=${locale === 'en' ? 'en' : 'zh-TW'}&return_to=${encodeURIComponent(`/${locale}${path}`)}`;

const card = (page: Page, name: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** Collects Content Security Policy reports from the console while the page loads. */
function cspErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

for (const locale of ['en', 'zh-tw'] as const) {
  const m = L[locale];

  test(`the home page lists the open registrations with working links (${locale})`, async ({ page, request }) => {
    const csp = cspErrors(page);
    const res = await page.goto(`/${locale}/`);
    expect(res?.status()).toBe(200);
    const open = page.getByRole('region', { name: m.open });
    await expect(open.getByRole('heading', { level: 2, name: m.open })).toBeVisible();

    // A general event: facts, window, seats, register button and info link.
    const forum = card(page, m.forum);
    await expect(forum).toBeVisible();
    await expect(forum.getByText(m.openUntil)).toBeVisible();
    await expect(forum.getByText(m.seats)).toBeVisible();
    await expect(forum.getByText(m.priceFree, { exact: true })).toBeVisible();
    await expect(forum.getByRole('link', { name: m.forum, exact: true })).toHaveAttribute(
      'href',
      `/${locale}/events/opening-forum`,
    );
    await expect(forum.getByRole('link', { name: new RegExp(`^${m.register}`) })).toHaveAttribute(
      'href',
      signInTo(locale, '/events/opening-forum/registrations/new'),
    );
    await expect(forum.getByRole('link', { name: new RegExp(`^${m.details}`) })).toHaveAttribute(
      'href',
      `/${locale}/events/opening-forum`,
    );

    // Badges: the Professional badge is applied for; the free badge comes by invitation only.
    const professional = card(page, m.professional);
    await expect(professional.getByRole('link', { name: new RegExp(`^${m.apply}`) })).toHaveAttribute(
      'href',
      signInTo(locale, '/badges/new'),
    );
    await expect(professional.getByText(m.badgePrice)).toBeVisible();
    const free = card(page, m.free);
    await expect(free.getByText(m.invitation)).toBeVisible();
    await expect(free.getByRole('link')).toHaveCount(2); // its name and its details, no button to apply
    await expect(free.getByRole('link', { name: new RegExp(`^${m.apply}|^${m.register}`) })).toHaveCount(0);

    // Market and pitching: their registration, as any other (issue 19; every kind: kinds.spec.ts).
    const market = card(page, m.market);
    await expect(market.getByText(m.marketPrice)).toBeVisible();
    await expect(market.getByRole('link', { name: new RegExp(`^${m.register}`) })).toHaveAttribute(
      'href',
      signInTo(locale, '/events/market-online/registrations/new'),
    );
    await expect(market.getByRole('link', { name: new RegExp(`^${m.details}`) })).toHaveAttribute(
      'href',
      `/${locale}/events/market-online`,
    );

    // Not yet open: listed with its opening date, without a register button.
    const awards = card(page, m.awards);
    await expect(awards.getByText(m.opens)).toBeVisible();
    await expect(awards.getByRole('link', { name: new RegExp(`^${m.register}`) })).toHaveCount(0);

    // Closed: not among the open registrations, listed compactly below them.
    await expect(card(page, m.preview)).toHaveCount(0);
    const closed = page.getByRole('region', { name: m.closed });
    await expect(closed.getByRole('link', { name: m.preview })).toHaveAttribute(
      'href',
      `/${locale}/events/industry-preview-night`,
    );

    // Every link of the listing answers.
    const hrefs = await page
      .getByRole('main')
      .locator('a[href^="/"]')
      .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);
    expect(hrefs.length).toBeGreaterThan(15);
    for (const href of hrefs.filter((h) => !h.startsWith('/api/'))) {
      const r = await request.get(href, { maxRedirects: 0 });
      expect(r.status(), href).toBe(200);
    }
    await expect(page.locator('astro-island')).toHaveCount(0);
    await expectAccessible(page);
    expect(csp).toEqual([]);
  });

  test(`the event info page has SEO data, JSON-LD and a register button (${locale})`, async ({ page, baseURL }) => {
    const csp = cspErrors(page);
    const res = await page.goto(`/${locale}/events/opening-forum`);
    expect(res?.status()).toBe(200);
    const url = `${baseURL}/${locale}/events/opening-forum`;

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.forum);
    await expect(page).toHaveTitle(new RegExp(`^${m.forum} \\| `));
    await expect(page.getByText(m.type, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: m.openUntil })).toBeVisible();
    await expect(page.getByText(m.seats)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: m.register, exact: true })).toHaveAttribute(
      'href',
      signInTo(locale, '/events/opening-forum/registrations/new'),
    );

    const head = page.locator('head');
    await expect(head.locator('meta[name="description"]')).toHaveAttribute('content', /GMT\+8/);
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', url);
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', m.forum);
    await expect(head.locator('meta[property="og:description"]')).toHaveAttribute('content', /.+/);
    await expect(head.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
    await expect(head.locator('meta[property="og:url"]')).toHaveAttribute('content', url);
    await expect(head.locator('meta[property="og:locale"]')).toHaveAttribute('content', m.ogLocale);
    await expect(head.locator('meta[property="og:site_name"]')).toHaveAttribute('content', /TCCF/);
    await expect(head.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute(
      'href',
      `${baseURL}/en/events/opening-forum`,
    );
    await expect(head.locator('link[rel="alternate"][hreflang="zh-TW"]')).toHaveAttribute(
      'href',
      `${baseURL}/zh-tw/events/opening-forum`,
    );
    await expect(head.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      `${baseURL}/images/events/conference.jpg`,
    );
    const image = await page.request.get('/images/events/conference.jpg');
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/jpeg');

    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]!);
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('Event');
    expect(ld.name).toBe(m.forum);
    expect(ld.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    expect(ld.endDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    expect(Date.parse(ld.endDate)).toBeGreaterThan(Date.parse(ld.startDate));
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode');
    expect(ld.eventStatus).toBe('https://schema.org/EventScheduled');
    expect(ld.location).toEqual({
      '@type': 'Place',
      name: expect.any(String),
      address: {
        '@type': 'PostalAddress',
        streetAddress: m.street,
        addressLocality: expect.any(String),
        addressRegion: expect.any(String),
        postalCode: '115',
        addressCountry: 'TW',
      },
    });
    expect(ld.image).toEqual([`${baseURL}/images/events/conference.jpg`]);
    expect(ld.organizer).toEqual({ '@type': 'Organization', name: m.organizer, url: 'https://tccf.taicca.tw/' });
    expect(ld.offers).toMatchObject({
      '@type': 'Offer',
      price: 0,
      priceCurrency: 'TWD',
      availability: 'https://schema.org/InStock',
      url: `${baseURL}/${locale}/events/opening-forum/registrations/new`,
    });
    expect(ld.offers.validFrom).toMatch(/\+08:00$/);
    expect(ld.offers.validThrough).toMatch(/\+08:00$/);

    await expect(page.locator('astro-island')).toHaveCount(0);
    await expectAccessible(page);
    expect(csp, 'the JSON-LD block is data: CSP does not block or report it').toEqual([]);
  });

  test(`other event types on their info pages (${locale})`, async ({ page }) => {
    // Audit: the approval note; online: a virtual location; badge: the application; market: its wizard.
    await page.goto(`/${locale}/events/pitching-session-audit`);
    await expect(page.getByText(m.auditType, { exact: true }).first()).toBeVisible();
    await page.goto(`/${locale}/events/online-masterclass`);
    const online = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(online.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(online.location).toMatchObject({
      '@type': 'VirtualLocation',
      url: expect.stringMatching(new RegExp(`/${locale}/live/online-masterclass$`)),
    });
    const jsonLd = async () =>
      (await page.locator('script[type="application/ld+json"]').allTextContents()).map((b) => JSON.parse(b));
    await page.goto(`/${locale}/events/badge-professional`);
    await expect(page.getByRole('main').getByRole('link', { name: m.apply, exact: true })).toHaveAttribute(
      'href',
      signInTo(locale, '/badges/new'),
    );
    expect(await jsonLd(), 'a badge is not an Event').toEqual([]);
    await page.goto(`/${locale}/events/badge-free`);
    expect(await jsonLd(), 'a badge is not an Event').toEqual([]);
    await page.goto(`/${locale}/events/market-online`);
    await expect(page.getByRole('main').getByRole('link', { name: m.register, exact: true })).toHaveAttribute(
      'href',
      signInTo(locale, '/events/market-online/registrations/new'),
    );
    const [market] = await jsonLd();
    expect(market.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(market.location['@type']).toBe('VirtualLocation');
    expect(market.image).toEqual([expect.stringMatching(/\/images\/events\/market\.jpg$/)]);
    await page.goto(`/${locale}/events/closing-awards`);
    expect((await jsonLd())[0].offers.availability, 'not yet open').toBe('https://schema.org/PreOrder');
    await page.goto(`/${locale}/events/industry-preview-night`);
    await expect(page.getByRole('heading', { level: 2, name: m.closedState })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: m.register, exact: true })).toHaveCount(0);
    expect((await jsonLd())[0].offers.availability, 'closed').toBe('https://schema.org/SoldOut');
    await expectAccessible(page);
  });

  test(`an unknown event answers 404 (${locale})`, async ({ page }) => {
    const res = await page.goto(`/${locale}/events/no-such-event`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', locale === 'en' ? 'en' : 'zh-TW');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.locator('link[rel="alternate"][hreflang]'), 'no language alternates on a 404').toHaveCount(0);
    expect(res?.headers()['cache-control'] ?? '').not.toContain('public');
  });

  test(`sign-in, wizards and live pages are noindex, without language alternates (${locale})`, async ({ request }) => {
    for (const path of [
      `/${locale}/signin`,
      `/${locale}/badges/new`,
      `/${locale}/events/opening-forum/registrations/new`,
      `/${locale}/live/online-masterclass`,
    ]) {
      const html = await (await request.get(path)).text();
      expect(html, path).toContain('<meta name="robots" content="noindex">');
      expect(html, path).not.toMatch(/<link rel="alternate"[^>]*hreflang=/);
    }
    const home = await (await request.get(`/${locale}/`)).text();
    expect(home).toMatch(/<link rel="alternate" hreflang="zh-TW" href="[^"]+\/zh-tw\/"/);
    expect(home).not.toContain('noindex');
  });
}

test('public pages are cacheable signed out, private signed in', async ({ page, request }) => {
  for (const path of ['/en/', '/zh-tw/', '/en/events/opening-forum', '/zh-tw/events/opening-forum']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['cache-control'], path).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(res.headers()['vary'], path).toMatch(/\bCookie\b/i);
  }
  await signIn(page, uniqueEmail('cache'));
  for (const path of ['/en/', '/en/events/opening-forum']) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['cache-control'], path).toBe('private, no-store');
  }
});
