import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { addWork, giveBadge, operator, signIn, uniqueEmail, uploadPhoto } from './fixtures';

/*
 * Every page family, in both languages, is valid HTML by the Nu HTML Checker (vnu-jar, the W3C
 * validator's engine): the server's HTML as a browser receives it, signed in where the page needs
 * it, checked in one run of the checker. Errors fail the test; warnings and info do not.
 */

const VNU = 'node_modules/vnu-jar/build/dist/vnu.jar';
const LOCALES = ['en', 'zh-tw'] as const;

type VnuMessage = { type: string; subType?: string; url: string; message: string; lastLine?: number; extract?: string };

/** Calls the API from the signed-in page (the session cookie goes along, as from an island). */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
}

/** Applies for a Professional badge through the API (photo upload, application); returns the order id. */
async function applyForBadge(page: Page): Promise<string> {
  const photo = await uploadPhoto(page);
  const { status, body } = await api<{ order_id: string }>(page, 'POST', '/api/v1/demonstration_order', {
    applicant: { name_en: 'Valid Markup', contact_phone: '886-912-345-678' },
    badge: { name_en: 'Valid Markup' },
    personal_photo_file_id: photo,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.order_id;
}

test('every page family is valid HTML in both languages (Nu HTML Checker)', async ({ browser, request, baseURL }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'html-validity-'));
  const files = new Map<string, string>();
  /** Fetches a page's HTML as the server sends it and keeps it for the checker. */
  const keep = async (client: APIRequestContext, path: string, status = 200) => {
    const res = await client.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(status);
    expect(res.headers()['content-type'], path).toMatch(/^text\/html/);
    const file = join(dir, `${files.size.toString().padStart(2, '0')}${path.replace(/[^a-z0-9]+/gi, '_')}.html`);
    writeFileSync(file, await res.text());
    files.set(`file:${file}`, path);
  };

  try {
    // Signed out: the public pages, sign-in, the wizards' signed-out state, the 404 page.
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/`,
        `/${l}/events/opening-forum`,
        `/${l}/events/online-masterclass`,
        `/${l}/events/market-online`,
        `/${l}/events/badge-professional`,
        `/${l}/signin`,
        `/${l}/badges/new`,
        `/${l}/events/opening-forum/registrations/new`,
      ])
        await keep(request, path);
      await keep(request, `/${l}/no-such-page`, 404);
    }

    // An applicant: orders (none yet), no badge yet, the badge wizard, a free-badge link; then a
    // Professional badge order waiting for its payment: pay, processing (card started), summary.
    const applicant = await browser.newPage({ baseURL });
    await signIn(applicant, uniqueEmail('html-applicant'));
    const code = /get-badge\/vip\/(\S+)/.exec(operator('badge-link', ['--type', 'vip'], baseURL!))?.[1];
    expect(code).toBeTruthy();
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/account/orders`,
        `/${l}/account/badge`,
        `/${l}/badges/new`,
        `/${l}/get-badge/vip/${code}`,
      ])
        await keep(applicant.request, path);
    }
    const badgeOrder = await applyForBadge(applicant);
    expect((await api(applicant, 'GET', `/api/v1/payment/${badgeOrder}/tradeinfo`)).status).toBe(200);
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/badges/${badgeOrder}/pay`,
        `/${l}/badges/${badgeOrder}/processing`,
        `/${l}/events/badge-professional/registrations/${badgeOrder}`,
        `/${l}/account/orders`,
      ])
        await keep(applicant.request, path);
    }
    await applicant.close();

    // A badge holder: My badge (QR code, pick-up schedule), the event wizard, an event summary.
    const holder = await browser.newPage({ baseURL });
    await signIn(holder, uniqueEmail('html-holder'));
    await giveBadge(holder, baseURL!);
    const registered = await api<{ order_id: string }>(holder, 'POST', '/api/v1/orders?event=pitching-session-audit', {
      agree_terms: true,
    });
    expect([200, 201], JSON.stringify(registered.body)).toContain(registered.status);
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/account/badge`,
        `/${l}/events/opening-forum/registrations/new`,
        `/${l}/events/pitching-session-audit/registrations/${registered.body.order_id}`,
        `/${l}/account/orders`,
      ])
        await keep(holder.request, path);
    }
    await holder.close();

    // An exhibitor (demo works on the dev content site): the Market wizard, an online registration
    // waiting for approval (pending page), an early-bird one with its badge links and contact page.
    const exhibitor = await browser.newPage({ baseURL });
    await signIn(exhibitor, uniqueEmail('html-exhibitor'));
    await addWork(exhibitor, 'Valid Markup', '有效標記');
    await exhibitor.goto('/en/'); // the content site's pages allow no fetch (CSP)
    const works = await api<{ data: { id: number }[] }>(exhibitor, 'GET', '/api/v1/contents/remote');
    const market = (identity: number) => ({
      agree_terms: true,
      agree_disclosure: true,
      market_identity: identity,
      selected_contents: works.body.data.map((w) => w.id),
      company_name_zh: '有效標記公司',
      company_name_en: 'Valid Markup Ltd.',
      company_industry: 3,
      company_business_category: [1],
      company_country: 'TWN',
      copyright_contacts: [{ name_zh: '甲', name_en: 'A', phone: '886-912-345-678', email: 'a@example.com' }],
      contact_name: 'A',
      contact_title: 'Producer',
      contact_phone: '886-912-345-678',
      contact_email: 'a@example.com',
    });
    const online = await api<{ order_id: string }>(exhibitor, 'POST', '/api/v1/orders?event=market-online', market(5));
    const early = await api<{ order_id: string }>(
      exhibitor,
      'POST',
      '/api/v1/orders?event=market-earlybird',
      market(1),
    );
    expect([online.status, early.status], JSON.stringify([online.body, early.body])).toEqual([201, 201]);
    const summary = await api<{ data: { registration_id: string } }>(
      exhibitor,
      'GET',
      `/api/v1/orders/${early.body.order_id}`,
    );
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/events/market-earlybird/registrations/new?step=form`,
        `/${l}/events/market-online/registrations/${online.body.order_id}/pending`,
        `/${l}/events/market-earlybird/registrations/${early.body.order_id}`,
        `/${l}/events/market-earlybird/registrations/${early.body.order_id}/contact?reg=${summary.body.data.registration_id}`,
      ])
        await keep(exhibitor.request, path);
    }

    // A producer (the same account): the pitching wizards, a story entry's summary and contact page.
    const outline = await exhibitor.evaluate(async () => {
      const form = new FormData();
      form.append('file', new File(['%PDF-1.4\n%%EOF\n'], 'outline.pdf', { type: 'application/pdf' }));
      form.append('purpose', 'story_outline');
      const res = await fetch('/api/v1/files/upload', {
        method: 'POST',
        body: form,
      });
      return ((await res.json()) as { uid: string }).uid;
    });
    const member = {
      name_zh: '甲',
      name_en: 'A',
      title_zh: '編劇',
      title_en: 'Writer',
      profile_zh: '簡介',
      profile_en: 'Bio',
    };
    const story = await api<{ order_id: string }>(exhibitor, 'POST', '/api/v1/orders?event=pitching-story', {
      agree_policy: true,
      agree_terms: true,
      selected_contents: [works.body.data[0]!.id],
      setting_zh: '港邊',
      setting_en: 'A harbour',
      story_summary_zh: '故事',
      story_summary_en: 'A story',
      story_genre_id: 27,
      story_genre_other: 'Maritime',
      story_outline_file_id: outline,
      screen_rights_holder_zh: '甲',
      screen_rights_holder_en: 'A',
      character_description_zh: '角色',
      character_description_en: 'Characters',
      suitable_for_film_zh: '適合',
      suitable_for_film_en: 'Suitable',
      team_members: [member],
      companies: [{ name_zh: '公司', name_en: 'Co.', profile_zh: '簡介', profile_en: 'About' }],
    });
    expect(story.status, JSON.stringify(story.body)).toBe(201);
    const storyOrder = await api<{ data: { registration_id: string } }>(
      exhibitor,
      'GET',
      `/api/v1/orders/${story.body.order_id}`,
    );
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/events/pitching-project/registrations/new`,
        `/${l}/events/pitching-story/registrations/new?step=form`,
        `/${l}/events/pitching-story/registrations/${story.body.order_id}`,
        `/${l}/events/pitching-story/registrations/${story.body.order_id}/contact?reg=${storyOrder.body.data.registration_id}`,
      ])
        await keep(exhibitor.request, path);
    }
    await exhibitor.close();

    // The back office (an organiser of playwright.config.ts): its home, the order search with
    // results, the story entry's order page with its submitted form and history, the events, the
    // edition (settings, preview, schedule, history) and the team (issue 21).
    const organiser = await browser.newPage({ baseURL });
    await signIn(organiser, 'organiser@example.com');
    const found = await api<{ data: { order_no: string }[] }>(
      organiser,
      'GET',
      '/api/v1/admin/orders?event=pitching-story',
    );
    expect(found.body.data.length).toBeGreaterThan(0);
    for (const l of LOCALES) {
      for (const path of [
        `/${l}/admin`,
        `/${l}/admin/orders?q=valid`,
        `/${l}/admin/orders/${found.body.data[0]!.order_no}`,
        // The event catalogue (issue 21): its list, a new event, an event with its forms and history.
        `/${l}/admin/events`,
        `/${l}/admin/events/new`,
        `/${l}/admin/events/opening-forum`,
        `/${l}/admin/edition`,
        `/${l}/admin/team`,
      ])
        await keep(organiser.request, path);
    }
    await organiser.close();

    // One run of the checker over every page.
    const { stdout, stderr } = await promisify(execFile)(
      'java',
      ['-jar', VNU, '--format', 'json', '--exit-zero-always', ...[...files.keys()].map((f) => f.slice(5))],
      { maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }));
    const report = JSON.parse(stderr || stdout) as { messages: VnuMessage[] };
    const errors = report.messages
      .filter((m) => m.type === 'error' || (m.type === 'non-document-error' && m.subType !== 'internal'))
      .map((m) => `${files.get(decodeURI(m.url)) ?? m.url}:${m.lastLine ?? '?'} ${m.message} [${m.extract ?? ''}]`);
    expect(files.size).toBe(LOCALES.length * 37);
    expect(errors, 'Nu HTML Checker errors').toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
