import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, hydrated, signIn, uniqueEmail } from './fixtures';

/*
 * Roles without the right to change (issue 21): a viewer reads the event catalogue, an event's
 * forms and the edition's settings and schedule, with every field disabled and no action at all
 * (no save, publish, archive, duplicate, new event, next edition or make current), in both
 * languages; a badge-desk member is refused those pages.
 */

const ADMIN = 'organiser@example.com';

/** Puts `email` on the team with `role`, from the admin's signed-in page (as the Team page's island). */
async function addMember(page: Page, email: string, role: string) {
  const status = await page.evaluate(
    async ({ email, role }) =>
      (
        await fetch('/api/v1/admin/team', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, role }),
        })
      ).status,
    { email, role },
  );
  expect(status).toBe(201);
}

test('a viewer reads the event and edition forms with no action, in both languages; the desk is refused them', async ({
  page,
  browser,
  baseURL,
}) => {
  const viewer = uniqueEmail('viewer');
  const desk = uniqueEmail('desk-only');
  await signIn(page, ADMIN, 'en');
  await addMember(page, viewer, 'viewer');
  await addMember(page, desk, 'desk');

  const context = await browser.newContext({ baseURL });
  const reader = await context.newPage();
  await signIn(reader, viewer, 'en');

  // The catalogue: no New event.
  await reader.goto('/en/admin/events');
  await expect(reader.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  await expect(reader.getByRole('link', { name: 'New event' })).toHaveCount(0);
  expect((await reader.goto('/en/admin/events/new'))?.status()).toBe(403);

  // An event: its details and settings shown, disabled, and no button at all.
  await reader.goto('/en/admin/events/opening-forum');
  await hydrated(reader);
  const main = reader.getByRole('main');
  await expect(main.getByText('Read only: your role (Viewer) shows this page but does not change it.')).toBeVisible();
  await expect(main.getByLabel('Name (English)')).toBeDisabled();
  await expect(main.getByLabel('Capacity')).toBeDisabled();
  await expect(main.getByRole('button')).toHaveCount(0);
  await expectAccessible(reader);

  // The edition: the navigation opens it; settings and schedule disabled; no save, next edition or make current.
  await reader.getByRole('navigation', { name: 'Back office sections' }).getByRole('link', { name: 'Edition' }).click();
  await expect(reader).toHaveURL(/\/en\/admin\/edition$/);
  await hydrated(reader);
  await expect(main.getByLabel('Name (English)')).toBeDisabled();
  await expect(main.getByLabel('Account number')).toBeDisabled();
  await expect(main.getByRole('img', { name: 'The badge rights of this edition' })).toBeVisible();
  await expect(main.getByRole('button')).toHaveCount(0);
  await expect(main.getByRole('heading', { name: 'Start the next edition' })).toHaveCount(0);
  await expectAccessible(reader);

  // In Chinese too.
  await reader.goto('/zh-tw/admin/events/opening-forum');
  await hydrated(reader);
  await expect(main.getByText('僅供檢視：您的角色（檢視者）可以查看此頁面，但無法變更。')).toBeVisible();
  await expect(main.getByRole('button')).toHaveCount(0);
  await reader.goto('/zh-tw/admin/edition');
  await hydrated(reader);
  await expect(main.getByRole('button')).toHaveCount(0);
  await context.close();

  // The desk member: neither page.
  const deskContext = await browser.newContext({ baseURL });
  const desker = await deskContext.newPage();
  await signIn(desker, desk, 'en');
  for (const path of ['/en/admin/events', '/en/admin/events/opening-forum', '/en/admin/edition'])
    expect((await desker.goto(path))?.status(), path).toBe(403);
  await deskContext.close();
});
