import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page } from '@playwright/test';

/** Waits until every island has hydrated (no astro-island left with the ssr attribute). */
export async function hydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Signs in on the dev identity service's page (the browser is already there). */
export async function fillDevSignIn(page: Page, email: string, name = '') {
  await expect(page).toHaveURL(/\/dev-identity\/signin/);
  await page.getByLabel(/E-mail|電子郵件/).fill(email);
  if (name) await page.getByLabel(/Name|姓名/).fill(name);
  await page.getByRole('button', { name: /Sign in|登入/ }).click();
}

/** Signs in from the home page of `locale` and returns where the browser landed. */
export async function signIn(page: Page, email: string, locale: 'en' | 'zh-tw' = 'en', name = '') {
  await page.goto(`/${locale}/`);
  await page
    .getByRole('main')
    .getByRole('link', { name: /Sign in \/ Register|登入／註冊/ })
    .click();
  await fillDevSignIn(page, email, name);
  await page.waitForURL(/\/(en|zh-tw)\//);
}

/**
 * Inline `style` attributes the browser refused: the portal's CSP allows no inline styles, so a
 * `style` attribute in the HTML the server sent is dropped (its declarations never apply, and a
 * violation is logged) — a component rendered on the server must style itself through classes.
 * (Styles set from scripts after hydration go through the CSSOM and are allowed.)
 */
export async function blockedInlineStyles(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement | SVGElement>('[style]')]
      .filter((el) => (el.getAttribute('style') ?? '').trim() !== '' && el.style.length === 0)
      .map((el) => `<${el.tagName.toLowerCase()} style="${el.getAttribute('style')}">`),
  );
}

/** No axe violations on the current page (WCAG 2.1 A/AA and best practices), no inline style blocked. */
export async function expectAccessible(page: Page) {
  expect(await blockedInlineStyles(page), `inline styles blocked by the CSP on ${page.url()}`).toEqual([]);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Runs an operator command (`npm run orders -- …`, `npm run badge-link -- …`) against the test
 * server, as an organiser would, and returns what it printed.
 */
export function operator(script: 'orders' | 'badge-link', args: string[], baseURL: string): string {
  return execFileSync('npx', ['tsx', `scripts/${script}.ts`, ...args], {
    env: { ...process.env, PORTAL_URL: baseURL, OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN! },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** Uploads a 1×1 PNG as the signed-in user's personal photo, through the page; returns its file id. */
export async function uploadPhoto(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'),
      (c) => c.charCodeAt(0),
    );
    const form = new FormData();
    form.append('file', new File([png], 'photo.png', { type: 'image/png' }));
    form.append('purpose', 'personal_photo');
    // Same origin: the session cookie goes along, as it does from the uploader.
    const res = await fetch('/api/v1/files/upload', { method: 'POST', body: form });
    return ((await res.json()) as { uid: string }).uid;
  });
}

/** The back office's organiser of the browser tests (ORGANISER_EMAILS of playwright.config.ts). */
export const ORGANISER = 'organiser@example.com';

/** The organiser signed in, in a browser context of their own (the registrant keeps theirs). */
export async function organiserPage(browser: Browser, locale: 'en' | 'zh-tw') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, ORGANISER, locale, 'Olivia Organiser');
  return page;
}

/**
 * Applies for a Professional badge (TWD 1,000) through the API, in `lang`, as the signed-in user
 * of `page` (the wizard has its own tests); answers the order to pay.
 */
export async function applyForBadge(page: Page, lang: 'en' | 'zh-TW' = 'en', name = 'Lin Yu-Chen') {
  const photo = await uploadPhoto(page);
  return page.evaluate(
    async ({ photo, lang, name }) => {
      const res = await fetch(`/api/v1/demonstration_order?lang=${lang}`, {
        method: 'POST',
        // The stored token, or (portal sessions) the session cookie a same-origin fetch sends.
        headers: {
          'content-type': 'application/json',
          ...(localStorage.getItem('idc-token')
            ? { authorization: `Bearer ${localStorage.getItem('idc-token')}` }
            : {}),
        },
        body: JSON.stringify({
          applicant: { name_en: name, contact_phone: '886-912-345-678' },
          badge: { name_en: name },
          same_as_applicant: false,
          personal_photo_file_id: photo,
        }),
      });
      const body = (await res.json()) as { order_id: string; order_no: string };
      return { status: res.status, orderId: body.order_id, orderNo: body.order_no };
    },
    { photo, lang, name },
  );
}

/**
 * Gives the signed-in user of `page` a free badge through a one-time link and the API, as the
 * precondition of event registration (the badge flows have their own tests).
 */
export async function giveBadge(page: Page, baseURL: string) {
  const out = operator('badge-link', ['--type', 'professional'], baseURL);
  const code = /get-badge\/professional\/(\S+)/.exec(out)?.[1];
  expect(code, out).toBeTruthy();
  const photo = await uploadPhoto(page);
  const status = await page.evaluate(
    async ({ code, photo }) => {
      const res = await fetch(`/api/v1/demonstration?code=${code}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          applicant: { name_en: 'Event Goer', contact_phone: '886-912-345-678' },
          badge: { name_en: 'Event Goer' },
          personal_photo_file_id: photo,
        }),
      });
      return res.status;
    },
    { code: code!, photo },
  );
  expect(status).toBe(200);
}

/** Adds a work (a piece unless told) on the dev content site, its form in zh-TW; returns its id. */
export async function addWork(page: Page, titleEn: string, titleZh: string, genre: 'piece' | 'project' = 'piece') {
  await page.goto('/dev-content?lang=zh-TW');
  await page.getByLabel('英文名稱').fill(titleEn);
  await page.getByLabel('中文名稱').fill(titleZh);
  await page.getByRole('radio', { name: genre === 'piece' ? '完成作品' : '開發中企劃' }).check();
  await page.getByLabel('類別').selectOption({ label: '影集' });
  await page.getByLabel('新臺幣價格（元）').fill('0');
  await page.getByLabel('美元價格（元）').fill('0');
  await page.getByRole('button', { name: '新增作品' }).click();
  await expect(page.getByRole('status')).toContainText(titleZh);
}

/** Registers the signed-in user for Market online with their works (through the API the wizard calls, same origin: the session cookie goes along); the order's id and number. */
export async function registerMarketOnline(page: Page, company = 'Harbour Pictures') {
  return page.evaluate(async (companyName) => {
    const works = (await (await fetch('/api/v1/contents/remote')).json()) as { data: { id: number }[] };
    const res = await fetch('/api/v1/orders?event=market-online', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        agree_terms: true,
        agree_disclosure: true,
        market_identity: 5,
        selected_contents: works.data.map((w) => w.id),
        company_name_zh: '港灣影業',
        company_name_en: companyName,
        company_industry: 3,
        company_business_category: [1, 2],
        company_country: 'TWN',
        copyright_contacts: [
          { name_zh: '林小美', name_en: 'May Lin', phone: '886-912-345-678', email: 'may@example.com' },
        ],
        contact_name: 'May Lin',
        contact_title: 'Producer',
        contact_phone: '886-2-1234-5678',
        contact_email: 'may@example.com',
      }),
    });
    const body = (await res.json()) as { order_id: string; order_no: string };
    return { status: res.status, orderId: body.order_id, orderNo: body.order_no };
  }, company);
}
