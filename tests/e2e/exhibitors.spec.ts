import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { addWork, expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * The exhibitor directory (issue 23), in both languages: a visitor reaches it from the home page,
 * filters it, opens an exhibitor (the demo exhibitors the embedded default seeds); an exhibitor
 * that opts out on its contact page leaves it. axe on every page, and the Nu HTML Checker.
 */

const L = {
  en: {
    browse: 'Browse the exhibitor directory',
    title: 'Exhibitor directory',
    workCategory: 'Work category',
    apply: 'Show exhibitors',
    jade: 'Jade Mountain Animation',
    harbour: 'Harbour Light Pictures',
    work: 'Little Bear of Alishan',
    meet: 'Request a meeting',
    noMatch: 'No exhibitor matches your search. Try another word or fewer filters.',
  },
  'zh-tw': {
    browse: '瀏覽展商名錄',
    title: '展商名錄',
    workCategory: '作品類別',
    apply: '顯示展商',
    jade: '玉山動畫',
    harbour: '港光影業',
    work: '阿里山小熊',
    meet: '申請商洽',
    noMatch: '沒有符合搜尋條件的展商，請換個關鍵字或減少篩選條件。',
  },
} as const;

const resultNames = (page: Page) => page.getByRole('listitem').getByRole('heading', { level: 3 });

for (const l of ['en', 'zh-tw'] as const) {
  test(`${l}: from the home page to the directory, a filter, an exhibitor`, async ({ page }) => {
    await page.goto(`/${l}/`);
    await page.getByRole('link', { name: L[l].browse }).click();
    await expect(page).toHaveURL(new RegExp(`/${l}/market/exhibitors$`));
    await expect(page.getByRole('heading', { level: 1, name: L[l].title })).toBeVisible();
    await expect(resultNames(page).filter({ hasText: L[l].harbour })).toHaveCount(1);
    await expectAccessible(page);

    // Publishing (work category 5): the animation studio's works only.
    await page.getByLabel(L[l].workCategory).selectOption('5');
    await page.getByRole('button', { name: L[l].apply }).click();
    await expect(page).toHaveURL(/work_category=5/);
    await expect(page.getByLabel(L[l].workCategory)).toHaveValue('5');
    await expect(resultNames(page).filter({ hasText: L[l].jade })).toHaveCount(1);
    await expect(resultNames(page).filter({ hasText: L[l].harbour })).toHaveCount(0);

    await page.getByRole('link', { name: L[l].jade, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${l}/market/exhibitors/[0-9a-f-]{36}$`));
    await expect(page.getByRole('heading', { level: 1, name: L[l].jade })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: L[l].work })).toBeVisible();
    await expect(page.getByRole('img', { name: new RegExp(L[l].jade) })).toBeVisible();
    const id = page.url().split('/').pop()!;
    await expect(page.getByRole('link', { name: L[l].meet })).toHaveAttribute(
      'href',
      `/${l}/market/exhibitors/${id}/meet`,
    );
    await expectAccessible(page);
    // Nothing of the contact info on the page.
    expect(await page.content()).not.toMatch(/@example\.com|(?<![0-9a-fA-F])886-/);
  });
}

test('an exhibitor that opts out on its contact page leaves the directory', async ({ page }) => {
  const company = `Optout Pictures ${Date.now()}`;
  await signIn(page, uniqueEmail('directory-optout'), 'en');
  await addWork(page, 'Quiet Harbour', '靜港');
  // The API from a portal page (the dev content site's page has its own policy).
  await page.goto('/en/');
  // A free early-bird registration: complete at once, so listed.
  const order = await page.evaluate(async (companyName) => {
    const works = (await (await fetch('/api/v1/contents/remote')).json()) as { data: { id: number }[] };
    const res = await fetch('/api/v1/orders?event=market-earlybird', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        agree_terms: true,
        agree_disclosure: true,
        market_identity: 1,
        selected_contents: works.data.map((w) => w.id),
        company_name_zh: '退出影業',
        company_name_en: companyName,
        company_industry: 3,
        company_business_category: [1],
        company_country: 'TWN',
        copyright_contacts: [{ name_zh: '林', name_en: 'Lin', phone: '886-912-345-678', email: 'lin@example.com' }],
        contact_name: 'May Lin',
        contact_title: 'Producer',
        contact_phone: '886-2-1234-5678',
        contact_email: 'may@example.com',
      }),
    });
    return { status: res.status, body: (await res.json()) as { order_id: string; payment_status: string } };
  }, company);
  expect(order.status).toBe(201);
  expect(order.body.payment_status).toBe('free');

  const search = `/en/market/exhibitors?q=${encodeURIComponent(company)}`;
  await page.goto(search);
  await expect(resultNames(page)).toHaveText([company]);
  const profile = await page.getByRole('link', { name: company }).getAttribute('href');

  // The contact page: untick the directory choice and save.
  await page.goto(`/en/events/market-earlybird/registrations/${order.body.order_id}`);
  await page.getByRole('link', { name: /Edit/ }).click();
  await hydrated(page);
  const listed = page.getByRole('checkbox', { name: 'List us in the exhibitor directory' });
  await expect(listed).toBeChecked();
  await expectAccessible(page);
  await listed.uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Updated successfully' })).toBeVisible();

  await page.goto(search);
  await expect(page.getByText(L.en.noMatch)).toBeVisible();
  expect((await page.goto(profile!))?.status()).toBe(404);
});

test('the directory pages are valid HTML in both languages (Nu HTML Checker)', async ({ request }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'exhibitors-html-'));
  try {
    const files: string[] = [];
    const keep = async (path: string) => {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const file = join(dir, `${files.length}.html`);
      writeFileSync(file, await res.text());
      files.push(file);
    };
    const list = (await (await request.get('/api/v1/market/exhibitors')).json()) as { data: { id: string }[] };
    for (const l of ['en', 'zh-tw']) {
      await keep(`/${l}/market/exhibitors`);
      await keep(`/${l}/market/exhibitors?q=nothing-matches-this&industry=8`);
      await keep(`/${l}/market/exhibitors/${list.data[0]!.id}`);
    }
    const { stdout, stderr } = await promisify(execFile)(
      'java',
      ['-jar', 'node_modules/vnu-jar/build/dist/vnu.jar', '--format', 'json', '--exit-zero-always', ...files],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const report = JSON.parse(stderr || stdout) as { messages: { type: string; message: string; url: string }[] };
    expect(report.messages.filter((m) => m.type === 'error').map((m) => `${m.url}: ${m.message}`)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
