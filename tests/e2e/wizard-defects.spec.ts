import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, operator, registerMarketOnline, signIn, uniqueEmail } from './fixtures';

/*
 * Issue 19 defects 8, 9 and 10, in both languages: the pitching works step refuses a 6th work or
 * a piece beside a project at the tick, with the reason beside the list; it shows the fee per work
 * once and the works without their own prices; the included exhibitor badge links of a Market
 * registration each have a Copy button and a "send by e-mail" action, on one line on a phone.
 */

type Locale = 'en' | 'zh-tw';

/** Adds works on the dev content site for the signed-in user, priced (NT$5,000 / US$200 each). */
async function addWorks(page: Page, works: { en: string; zh: string; genre: 'piece' | 'project' }[]) {
  // From a portal page (same origin; the content site's own page allows no script requests).
  if (!new URL(page.url()).pathname.match(/^\/(en|zh-tw)\//)) await page.goto('/en/');
  for (const w of works) {
    const status = await page.evaluate(async (work) => {
      const body = new URLSearchParams({
        title_en: work.en,
        title_zh: work.zh,
        genre: work.genre,
        category_id: '1',
        price_twd: '5000',
        price_usd: '200',
        lang: 'en',
      });
      return (await fetch('/dev-content/works', { method: 'POST', body })).status;
    }, w);
    expect(status).toBeLessThan(400);
  }
}

const W = {
  en: {
    policy: 'I have read and agree to the pitching policy.',
    terms: /I have read and agree to the terms of registration/,
    fee: 'The fee is TWD 1,000 per work. Overseas teams pay US$35.00 per work and transfer in US dollars.',
    sixth: '“Project 6” was not ticked: you can enter at most 5 works now (the limit is 5 works per applicant).',
    mixed:
      '“Salt Field” was not ticked: projects and pieces cannot be entered together. Untick the others first to enter it.',
    price: /5,000|200\.00/,
  },
  'zh-tw': {
    policy: '我已閱讀並同意提案辦法。',
    terms: /我已閱讀並同意報名條款/,
    fee: null,
    sixth: '「企劃 6」未勾選：您目前最多還可以報名 5 件作品（每個報名單位最多 5 件）。',
    mixed: '「鹽田」未勾選：企劃與完成作品不可同時報名。若要報名此作品，請先取消其他勾選。',
    price: /5,000|200\.00/,
  },
} as const;

for (const locale of ['en', 'zh-tw'] as const satisfies Locale[]) {
  test(`pitching works step: refused at the tick with the reason beside the list; the fee once, no work prices (${locale})`, async ({
    page,
  }) => {
    const w = W[locale];
    await signIn(page, uniqueEmail(`pitch-tick-${locale}`), locale);
    await addWorks(page, [
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ en: `Project ${n}`, zh: `企劃 ${n}`, genre: 'project' as const })),
      { en: 'Salt Field', zh: '鹽田', genre: 'piece' },
    ]);
    await page.goto(`/${locale}/events/pitching-project/registrations/new`);
    await hydrated(page);
    const list = page.getByRole('group', { name: locale === 'en' ? 'Your works on the content site' : /作品/ });
    await expect(list.getByRole('checkbox')).toHaveCount(7);

    // Defect 9: the fee per work is said once; the works carry no price of their own.
    if (w.fee) await expect(page.locator('#pitching-fee')).toHaveText(w.fee);
    const step = page.getByRole('region', { name: locale === 'en' ? 'Choose works' : '選擇作品' });
    await expect(step.getByText(/1,000/)).toHaveCount(1);
    await expect(step.getByText(/35\.00/)).toHaveCount(1);
    await expect(list).not.toContainText(w.price);

    // Defect 8: a piece beside a project is refused at the tick, the reason right after the list.
    const title = (n: number) => (locale === 'en' ? `Project ${n}` : `企劃 ${n}`);
    await list.getByRole('checkbox', { name: new RegExp(title(1)) }).check();
    const piece = list.getByRole('checkbox', { name: /Salt Field|鹽田/ });
    await piece.click();
    await expect(piece).not.toBeChecked();
    const reason = page.getByRole('alert');
    await expect(reason).toHaveText(w.mixed);
    // Beside the list: the next thing after the works' fieldset.
    expect(
      await reason.evaluate((el) => {
        const suspense = el.previousElementSibling;
        return !!suspense && (suspense.matches('fieldset') || !!suspense.querySelector('fieldset'));
      }),
    ).toBe(true);
    await expectAccessible(page);

    // Up to 5 works, the 6th refused at the tick; unticking one lets another in.
    for (const n of [2, 3, 4, 5]) await list.getByRole('checkbox', { name: new RegExp(title(n)) }).check();
    await expect(reason).toHaveCount(0);
    const sixth = list.getByRole('checkbox', { name: new RegExp(title(6)) });
    await sixth.click();
    await expect(sixth).not.toBeChecked();
    await expect(page.getByRole('alert')).toHaveText(w.sixth);
    await expect(list.getByRole('checkbox', { checked: true })).toHaveCount(5);
    await list.getByRole('checkbox', { name: new RegExp(title(5)) }).uncheck();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await sixth.check();
    await expect(list.getByRole('checkbox', { checked: true })).toHaveCount(5);
  });
}

const L = {
  en: {
    heading: 'Included badges',
    unused: 'Not used yet',
    copy: 'Copy link',
    copied: 'Link copied.',
    mail: 'Send by e-mail',
    subject: 'Your exhibitor badge for ',
    body: /This link gives you an exhibitor badge for .+ The link works once, until .+:\n\nhttps?:\/\/\S+\/en\/get-badge\/exhibitor-market\/[\w-]+/,
  },
  'zh-tw': {
    heading: '附贈識別證',
    unused: '尚未使用',
    copy: '複製連結',
    copied: '已複製連結。',
    mail: '以電子郵件寄送',
    subject: '您的',
    body: /此連結可領取.+展商識別證。.+連結僅能使用一次，有效期限至 .+：\n\nhttps?:\/\/\S+\/zh-tw\/get-badge\/exhibitor-market\/[\w-]+/,
  },
} as const;

for (const locale of ['en', 'zh-tw'] as const satisfies Locale[]) {
  test(`included badge links: copy and send by e-mail each, on one line on a phone (${locale})`, async ({
    page,
    context,
    baseURL,
  }) => {
    const l = L[locale];
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page, uniqueEmail(`badge-links-${locale}`), locale);
    await addWorks(page, [{ en: 'Harbour Lights', zh: '港灣燈火', genre: 'piece' }]);
    await page.goto(`/${locale}/`);
    const order = await registerMarketOnline(page);
    expect(order.status).toBe(201);
    expect(operator('orders', ['approve', order.orderNo], baseURL!)).toMatch(/approved/);
    expect(operator('orders', ['mark-paid', order.orderNo], baseURL!)).toMatch(/paid/);

    await page.goto(`/${locale}/events/market-online/registrations/${order.orderId}`);
    const section = page.getByRole('region', { name: l.heading });
    await expect(section).toBeVisible();
    const items = section.getByRole('listitem');
    await expect(items).toHaveCount(4);
    if (l.unused) await expect(items.filter({ hasText: l.unused })).toHaveCount(4);

    // Each link on one line (no wrapping address), with its two actions.
    const first = items.first();
    const address = first.locator('a[data-url]');
    const url = (await address.getAttribute('data-url'))!;
    expect(url).toMatch(new RegExp(`/${locale}/get-badge/exhibitor-market/[\\w-]+$`));
    const box = await address.boundingBox();
    const lineHeight = await address.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(box!.height).toBeLessThanOrEqual(lineHeight * 1.5);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await expect(first.getByRole('button', { name: l.copy })).toBeVisible();
    await expect(first.getByRole('link', { name: l.mail })).toBeVisible();
    await expect(section.getByRole('button', { name: l.copy })).toHaveCount(4);
    await expectAccessible(page);

    // Copy: the link on the clipboard, and said.
    await first.getByRole('button', { name: l.copy }).click();
    await expect(first.getByRole('status')).toHaveText(l.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // Send by e-mail: a mailto with a translated subject and a body that holds the link.
    const mailto = new URL((await first.getByRole('link', { name: l.mail }).getAttribute('href'))!);
    expect(mailto.protocol).toBe('mailto:');
    const subject = mailto.searchParams.get('subject')!;
    const body = mailto.searchParams.get('body')!;
    expect(subject.startsWith(l.subject)).toBe(true);
    expect(body).toMatch(l.body);
    expect(body).toContain(url);
  });
}
