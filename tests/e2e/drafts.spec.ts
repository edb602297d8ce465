import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, operator, signIn, uniqueEmail } from './fixtures';

/*
 * Forms never lose work (issue 8): the badge wizard keeps its draft per user and form in the tab
 * across language switch, reload, browser Back and Forward; same-as-applicant copies into
 * editable fields; alerts are in-page dialogs; drafts go on log out.
 */

const PHOTO = 'tests/e2e/files/photo.png';
type Locale = 'en' | 'zh-tw';

const W = {
  en: {
    agree: 'I have read the purchase notice and agree to it',
    agreeFree: 'I have read the notice and agree to it',
    next: 'Continue',
    back: 'Back',
    fillForm: 'Fill in the form',
    checkIdentity: 'Check identity',
    same: 'Same as applicant',
    uploaded: 'Uploaded: photo.png',
    preview: 'Preview of photo.png',
    language: 'Language',
    langName: 'English',
    submit: 'Submit',
    alreadyHas: 'One e-mail can apply for only one badge.',
    ok: 'OK',
    tooLong:
      'Some copied values are too long for the printed badge. Please shorten: Chinese company name (at most 9 characters), English company name (at most 20 characters).',
    tooLongEnOnly: 'Please shorten: Chinese company name (at most 9 characters).',
    squareWarning: 'The badge photo is square; this image will be cropped.',
  },
  'zh-tw': {
    agree: '我已閱讀並同意購買須知',
    agreeFree: '我已閱讀並同意上述須知',
    next: '下一步',
    back: '上一步',
    fillForm: '填寫表單',
    checkIdentity: '確認身分',
    same: '同申請人資料',
    uploaded: '已上傳：photo.png',
    preview: 'photo.png 的預覽',
    language: '語言',
    langName: '繁體中文',
    submit: '送出',
    alreadyHas: '每個電子郵件帳號僅能申請一張識別證。',
    ok: '確定',
    tooLong: '部分複製的資料超過識別證字數上限，請縮短：中文公司名稱（最多 9 字）、英文公司名稱（最多 20 字）。',
    tooLongEnOnly: '請縮短：中文公司名稱（最多 9 字）。',
    squareWarning: '識別證照片為正方形，此圖片會被裁切。',
  },
} as const;

/** Every field of the form step, by id (the same in both languages). */
const VALUES = {
  'applicant-nameZh': '王小明',
  'applicant-nameEn': 'Hsiao-ming Wang',
  'applicant-companyNameZh': '文化內容策進院',
  'applicant-companyNameEn': 'TAICCA',
  'applicant-contactPhone': '886-912-345-678',
  'badge-nameZh': '王小明',
  'badge-nameEn': 'Ming Wang',
  'badge-companyNameZh': '文策院',
  'badge-companyNameEn': 'TAICCA',
};

async function expectValues(page: Page, locale: Locale) {
  for (const [id, value] of Object.entries(VALUES)) await expect(page.locator(`#${id}`)).toHaveValue(value);
  await expect(page.getByText(W[locale].uploaded)).toBeVisible();
  await expect(page.getByRole('img', { name: W[locale].preview })).toBeVisible();
}

async function toFormStep(page: Page, locale: Locale) {
  await page.goto(`/${locale}/badges/new`);
  await hydrated(page);
  await page.getByLabel(W[locale].agree).check();
  await page.getByRole('button', { name: W[locale].next }).click();
  await expect(page).toHaveURL(new RegExp(`/${locale}/badges/new\\?step=form$`));
  await expect(page.getByRole('heading', { name: W[locale].fillForm })).toBeFocused();
}

/** Accepts the browser's "leave site?" prompt and records that it was asked. */
function acceptLeavePrompts(page: Page) {
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss());
  });
  return asked;
}

/** A PNG of the given size (one grey RGB image), for the size and square warnings. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3, 0x80);
  row[0] = 0; // filter: none
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const [from, to] of [
  ['en', 'zh-tw'],
  ['zh-tw', 'en'],
] as const) {
  test(`language switch, browser Back and Forward and reload keep every value and the photo (${from} → ${to})`, async ({
    page,
  }) => {
    const asked = acceptLeavePrompts(page);
    await signIn(page, uniqueEmail('draft'), from);
    await toFormStep(page, from);
    for (const [id, value] of Object.entries(VALUES)) await page.locator(`#${id}`).fill(value);
    await page.locator('#personal_photo').setInputFiles(PHOTO);
    await expectValues(page, from);

    // The language selector keeps the step and the values, without asking (the draft stays).
    await page.getByRole('navigation', { name: W[from].language }).getByRole('link', { name: W[to].langName }).click();
    await expect(page).toHaveURL(new RegExp(`/${to}/badges/new\\?step=form$`));
    await hydrated(page);
    await expect(page.getByRole('heading', { name: W[to].fillForm })).toBeVisible();
    await expectValues(page, to);
    expect(asked).toEqual([]);
    await expectAccessible(page);

    // The in-page Back goes one step back (a history entry) and keeps the values.
    await page.getByRole('button', { name: W[to].back }).click();
    await expect(page).toHaveURL(new RegExp(`/${to}/badges/new$`));
    await expect(page.getByRole('heading', { name: W[to].checkIdentity })).toBeFocused();
    await expect(page.getByLabel(W[to].agree)).toBeChecked();
    // The browser's Back and Forward move between the steps.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/${to}/badges/new\\?step=form$`));
    await expectValues(page, to);
    await page.goForward();
    await expect(page.getByRole('heading', { name: W[to].checkIdentity })).toBeVisible();
    await page.goBack();
    await expectValues(page, to);

    // Back again: the previous language's page, same step, same values…
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/${from}/badges/new\\?step=form$`));
    await hydrated(page);
    await expect(page.getByRole('heading', { name: W[from].fillForm })).toBeVisible();
    await expectValues(page, from);
    // …and one more Back is the step before it, one history entry per step.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/${from}/badges/new$`));
    await hydrated(page);
    await expect(page.getByRole('heading', { name: W[from].checkIdentity })).toBeVisible();
    await expect(page.getByLabel(W[from].agree)).toBeChecked();
    await page.goForward();
    await hydrated(page);
    await expect(page.getByRole('heading', { name: W[from].fillForm })).toBeVisible();
    await expectValues(page, from);

    // A reload asks first (the browser's prompt), then shows the same step and values.
    await page.reload();
    await hydrated(page);
    expect(asked).toContain('beforeunload');
    await expectValues(page, from);
  });
}

for (const locale of ['en', 'zh-tw'] as const) {
  test(`same as applicant copies into editable fields and names the values too long for the badge (${locale})`, async ({
    page,
  }) => {
    await signIn(page, uniqueEmail('same'), locale);
    await toFormStep(page, locale);
    await page.locator('#applicant-nameEn').fill('Hsiao-ming Wang');
    await page.locator('#applicant-companyNameZh').fill('文化內容策進院國際合作處');
    await page.locator('#applicant-companyNameEn').fill('Taiwan Creative Content Agency');
    await page.getByLabel(W[locale].same).check();

    const companyEn = page.locator('#badge-companyNameEn');
    await expect(companyEn).toHaveValue('Taiwan Creative Content Agency');
    await expect(companyEn).toBeEditable();
    await expect(companyEn).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#badge-companyNameZh')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#badge-nameEn')).toHaveValue('Hsiao-ming Wang');
    await expect(page.locator('#badge-nameEn')).not.toHaveAttribute('aria-invalid');
    await expect(page.getByText(W[locale].tooLong)).toBeVisible();
    await expectAccessible(page);

    // Shortening a field clears its error and its mention at once.
    await companyEn.fill('TAICCA');
    await expect(companyEn).not.toHaveAttribute('aria-invalid');
    await expect(page.getByText(W[locale].tooLongEnOnly, { exact: false })).toBeVisible();
    await page.locator('#badge-companyNameZh').fill('文策院');
    await expect(page.getByText(W[locale].tooLongEnOnly, { exact: false })).toHaveCount(0);

    // While ticked, an applicant field the user has not changed on the badge follows; an edited one stays.
    await page.locator('#applicant-nameEn').fill('Hsiao-Ming Wang');
    await expect(page.locator('#badge-nameEn')).toHaveValue('Hsiao-Ming Wang');
    await expect(companyEn).toHaveValue('TAICCA');

    // Unticking keeps the values.
    await page.getByLabel(W[locale].same).uncheck();
    await expect(page.locator('#badge-nameEn')).toHaveValue('Hsiao-Ming Wang');
    await expect(companyEn).toHaveValue('TAICCA');
    await expect(page.locator('#badge-companyNameZh')).toHaveValue('文策院');

    // A large photo that is not square: a warning, and it is kept.
    await page.locator('#personal_photo').setInputFiles({
      name: 'wide.png',
      mimeType: 'image/png',
      buffer: png(1200, 1000),
    });
    await expect(page.getByText(W[locale].squareWarning, { exact: false })).toBeVisible();
    await expect(page.getByText(/1000×1000/)).toHaveCount(1); // only the field's hint, no size warning
  });
}

test('free badge (zh-TW): the identity step asks for the terms; a second application gets an alert dialog', async ({
  page,
  baseURL,
}) => {
  const out = operator('badge-link', ['--type', 'exhibitor-market'], baseURL!);
  const path = new URL(/https?:\/\/\S+\/en\/get-badge\/\S+/.exec(out)![0]).pathname.replace(/^\/en\//, '/zh-tw/');
  await signIn(page, uniqueEmail('free-zh'), 'zh-tw');
  await page.goto(path);
  await hydrated(page);
  const next = page.getByRole('button', { name: W['zh-tw'].next });
  await expect(next).toBeDisabled();
  await expect(page.getByText('您同意將報名資料提供給主辦單位', { exact: false })).toBeVisible();
  // Exhibitor links come from the organiser: no "contact the organiser" note here.
  await expect(page.getByText('展商請直接聯絡主辦單位領取識別證', { exact: false })).toHaveCount(0);
  await page.getByLabel(W['zh-tw'].agreeFree).check();
  await expectAccessible(page);
  await next.click();
  await page.locator('#applicant-nameEn').fill('Chen Mei-Ling');
  await page.locator('#applicant-contactPhone').fill('886-2-2345-6789');
  await page.getByLabel(W['zh-tw'].same).check();
  await page.locator('#personal_photo').setInputFiles(PHOTO);
  await expect(page.getByText(W['zh-tw'].uploaded)).toBeVisible();
  await page.getByRole('button', { name: W['zh-tw'].submit }).click();
  await page.getByRole('dialog').getByRole('button', { name: W['zh-tw'].submit }).click();
  await page.waitForURL(/\/zh-tw\/account\/badge$/);
  // The draft went with the successful submit.
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:')))).toEqual([]);

  await page.goto('/zh-tw/badges/new');
  const alert = page.getByRole('alertdialog', { name: W['zh-tw'].alreadyHas });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: W['zh-tw'].ok })).toBeFocused();
  await page.keyboard.press('Escape');
  await page.waitForURL(/\/zh-tw\/account\/badge$/);
});

test('the user menu closes on Escape; log out asks first and removes the drafts (en)', async ({ page }) => {
  const email = uniqueEmail('logout');
  const asked = acceptLeavePrompts(page);
  await signIn(page, email, 'en');
  await toFormStep(page, 'en');
  await page.locator('#applicant-nameEn').fill('Draft Person');
  await expect
    .poll(() => page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'))))
    .toHaveLength(1);

  const menu = page.locator('details.user-menu');
  const summary = menu.locator('summary');
  await summary.click();
  await expect(menu).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');
  await expect(menu).not.toHaveAttribute('open');
  await expect(summary).toBeFocused();

  await summary.click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/\/en\/$/);
  expect(asked).toEqual(['beforeunload']);
  await expect
    .poll(() => page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'))))
    .toEqual([]);

  // Signed in again, the same user starts from an empty form.
  await signIn(page, email, 'en');
  await page.goto('/en/badges/new?step=form');
  await hydrated(page);
  await expect(page).toHaveURL(/\/en\/badges\/new$/);
  await page.getByLabel(W.en.agree).check();
  await page.getByRole('button', { name: W.en.next }).click();
  await expect(page.locator('#applicant-nameEn')).toHaveValue('');
});
