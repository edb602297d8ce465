import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
  await page.getByRole('main').getByRole('link', { name: /Sign in \/ Register|登入／註冊/ }).click();
  await fillDevSignIn(page, email, name);
  await page.waitForURL(/\/(en|zh-tw)\//);
}

/** No axe violations on the current page (WCAG 2.1 A/AA and best practices). */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
