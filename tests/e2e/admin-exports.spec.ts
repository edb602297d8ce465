import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './fixtures';

/*
 * The back office's exports (issue 11): downloads through the page's form, read back: the CSV
 * with its BOM and the organiser's language in its header row, the XLSX opened with exceljs.
 */

const ORGANISER = 'organiser@example.com';

test('orders as CSV and badges as XLSX, downloaded from the exports page (en, zh-tw)', async ({ page }) => {
  await signIn(page, ORGANISER, 'en');
  await page.goto('/en/admin/exports');
  await expect(page.getByRole('heading', { level: 1, name: 'Exports' })).toBeVisible();
  await expectAccessible(page);

  // All events: the demo orders of cards@example.com are there.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Orders as CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^tccf-orders-all-events-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile((await csv.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toMatch(/^Order number,Placed \(GMT\+8\),Event,Registration type,/);
  expect(lines.filter((l) => /^T[A-Z]\w+,/.test(l)).length).toBeGreaterThanOrEqual(12);
  expect(bytes.toString('utf8')).toContain('cards@example.com');

  // One event, in Chinese, as XLSX.
  await page.goto('/zh-tw/admin/exports');
  await page.getByLabel('活動').selectOption({ label: '專業人士識別證' });
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: '下載識別證 XLSX 檔（Excel 格式）' }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^tccf-badges-badge-professional-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await xlsx.path())!)) as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.name).toBe('識別證');
  expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['訂單編號', '活動', '識別證身分']);
  await expectAccessible(page);
});
