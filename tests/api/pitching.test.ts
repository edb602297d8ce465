import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import {
  badgeLinks,
  devContentWorks,
  events,
  orderContents,
  orders,
  pitchingApplicants,
  receipts,
  registrations,
} from '@server/db/schema';
import { devSubject } from '@server/identity/dev-identity';
import { decryptTradeInfo } from '@server/payments/newebpay';
import { counts, getJson, json, keysOf, PDF, PNG, upload, operatorApi } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;
const OPERATOR_TOKEN = 'operator-token-for-the-pitching-tests-01';

const member = (n: number) => ({
  name_zh: `成員${n}`,
  name_en: `Member ${n}`,
  title_zh: '導演',
  title_en: 'Director',
  profile_zh: '資歷。',
  profile_en: 'Profile.',
});
const company = { name_zh: '好公司', name_en: 'Good Co.', profile_zh: '簡介。', profile_en: 'About us.' };

describe.each(DATABASES)('pitching entries (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let clock = new Date();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    clock = new Date();
    app = await createTestApp(database, {}, { operatorToken: OPERATOR_TOKEN, now: () => clock });
    const now = Date.now();
    const base = {
      registerStartAt: new Date(now - DAY),
      registerEndAt: new Date(now + 10 * DAY),
      startTime: new Date(now + 20 * DAY),
      endAt: new Date(now + 22 * DAY),
      formModifyExpiresAt: new Date(now + 5 * DAY),
      priceCentsTwd: 100_000,
      priceCentsUsd: 3_500,
    };
    await db.insert(events).values([
      { ...base, slug: 'pitching-project', type: 'pitching_project', nameEn: 'Project to Screen', nameZh: '專案提案' },
      { ...base, slug: 'pitching-story', type: 'pitching_story', nameEn: 'Story to Screen', nameZh: '故事提案' },
    ]);
  });

  const operator = (path: string, body?: unknown) => operatorApi(app, OPERATOR_TOKEN)(path, body);

  /** A producer with `projects` project works and `pieces` piece works on the content site. */
  async function producer(email: string, projects = 3, pieces = 2) {
    const { token } = await signIn(app, email);
    const rows = await db
      .insert(devContentWorks)
      .values(
        [
          ...Array.from({ length: projects }, (_, i) => ({
            genre: 'project',
            titleEn: `Project ${i + 1}`,
            titleZh: `企劃 ${i + 1}`,
          })),
          ...Array.from({ length: pieces }, (_, i) => ({
            genre: 'piece',
            titleEn: `Piece ${i + 1}`,
            titleZh: `作品 ${i + 1}`,
          })),
        ].map((w) => ({ ...w, ownerSubject: devSubject(email), ownerEmail: email, categoryId: 1 })),
      )
      .returning({ id: devContentWorks.id, genre: devContentWorks.genre });
    return {
      token,
      projects: rows.filter((r) => r.genre === 'project').map((r) => r.id),
      pieces: rows.filter((r) => r.genre === 'piece').map((r) => r.id),
    };
  }
  const enter = (token: string, slug: string, body: unknown) =>
    app.request(`/api/v1/orders?event=${slug}`, json(token, 'POST', body));
  const project = (works: number[], over: object = {}) => ({
    agree_policy: true,
    agree_terms: true,
    selected_contents: works,
    ...over,
  });
  async function storyBody(token: string, work: number, over: object = {}) {
    const outline = await (
      await upload(app, token, { bytes: PDF, name: 'outline.pdf', type: 'application/pdf' }, 'story_outline')
    ).json();
    return {
      agree_policy: true,
      agree_terms: true,
      selected_contents: [work],
      setting_zh: '一九八〇年代的港邊小鎮。',
      setting_en: 'A harbour town in the 1980s.',
      story_summary_zh: '燈塔看守人的故事。',
      story_summary_en: 'The story of a lighthouse keeper.',
      story_genre_id: 1,
      story_outline_file_id: outline.uid,
      screen_rights_holder_zh: '好公司',
      screen_rights_holder_en: 'Good Co.',
      character_description_zh: '主角：守燈人。',
      character_description_en: 'Lead: the keeper.',
      suitable_for_film_zh: '畫面感強。',
      suitable_for_film_en: 'Strongly visual.',
      team_members: [member(1), member(2)],
      companies: [company],
      ...over,
    };
  }

  it('a personal (two-part) invoice as the wizard sends it: empty title and number stored as none', async () => {
    const p = await producer('pia@example.com');
    const res = await enter(
      p.token,
      'pitching-project',
      project([p.projects[0]!], { receipt: { kind: 'personal', invoice_title: '', unified_business_number: '' } }),
    );
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(await db.select().from(receipts).where(eq(receipts.orderId, created.order_id))).toMatchObject([
      { kind: 'personal', invoiceTitle: null, unifiedBusinessNumber: null },
    ]);
  });

  it('a project entry: per-work price in TWD and USD fixed at order time, the invoice, works counted', async () => {
    const p = await producer('pat@example.com');
    const res = await enter(
      p.token,
      'pitching-project',
      project(p.projects.slice(0, 2), {
        receipt: { kind: 'company', invoice_title: 'Good Co.', unified_business_number: '04595257' },
      }),
    );
    expect(res.status).toBe(201);
    const created = await res.json();
    const [order] = await db.select().from(orders).where(eq(orders.id, created.order_id));
    expect(order).toMatchObject({
      registrationType: 'PITCHING_PROJECT',
      quantity: 2,
      totalTwdCents: 200_000,
      totalUsdCents: 7_000,
      unitPriceUsdCents: 3_500,
      paymentStatus: 'pending',
    });
    expect(await db.select().from(receipts).where(eq(receipts.orderId, order!.id))).toMatchObject([
      { kind: 'company', unifiedBusinessNumber: '04595257' },
    ]);
    expect(await db.select().from(pitchingApplicants)).toMatchObject([{ worksUsed: 2 }]);
    const usage = await getJson(app, '/api/v1/pitching/usage', p.token);
    expect(usage.body.data).toMatchObject({ works_used: 2, works_limit: 5 });
    expect(usage.body.data.used_content_ids.sort()).toEqual(p.projects.slice(0, 2).map(String).sort());

    // A later price change does not touch the order.
    await db.update(events).set({ priceCentsTwd: 999_900 }).where(eq(events.slug, 'pitching-project'));
    const view = await getJson(app, `/api/v1/orders/${order!.id}`, p.token);
    expect(view.body.data.payment).toMatchObject({
      amount_twd: 200_000,
      amount_usd: 7_000,
      unit_price_twd: 100_000,
      unit_price_usd: 3_500,
    });

    // Card: the gateway is charged in TWD. A USD remittance: US$35 × 2.
    const trade = await app.request(`/api/v1/payment/${order!.id}/tradeinfo`, bearer(p.token));
    const params = new URLSearchParams(decryptTradeInfo((await trade.json()).data.trade_info_hex, keysOf(app)));
    expect(params.get('Amt')).toBe('2000');
    const usd = await app.request(
      `/api/v1/orders/${order!.id}`,
      json(p.token, 'PUT', {
        payment: { type: 'USD', remitter: 'Pat Lee', sender_bank: 'Bank of Tokyo', last_five_digits: '12345' },
      }),
    );
    expect(usd.status).toBe(200);
    expect(await usd.json()).toMatchObject({ currency: 'USD', amount_cents: 7_000, payment_status: 'checking' });
  });

  it('selection rules: projects and pieces not together; Story to Screen takes one work; nothing written', async () => {
    const p = await producer('pat@example.com');
    const before = await counts(db);
    const mixed = await enter(p.token, 'pitching-project', project([p.projects[0]!, p.pieces[0]!]));
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toMatchObject({ code: 'mixed_work_genres' });
    const two = await enter(
      p.token,
      'pitching-story',
      await storyBody(p.token, p.pieces[0]!, { selected_contents: p.pieces }),
    );
    expect(two.status).toBe(400);
    const foreign = await producer('eve@example.com');
    const stolen = await enter(p.token, 'pitching-project', project([foreign.projects[0]!]));
    expect(await stolen.json()).toMatchObject({ code: 'work_not_found' });
    const noPolicy = await enter(p.token, 'pitching-project', project([p.projects[0]!], { agree_policy: false }));
    expect(noPolicy.status).toBe(400);
    const after = await counts(db);
    expect({ ...after, files: before.files }).toEqual(before);
    expect(await db.select().from(pitchingApplicants)).toEqual([]);
  });

  it('at most 5 works per applicant across its entries; a canceled entry gives its works back', async () => {
    const p = await producer('pat@example.com', 4, 3);
    expect((await enter(p.token, 'pitching-project', project(p.projects.slice(0, 3)))).status).toBe(201);
    const second = await (await enter(p.token, 'pitching-story', await storyBody(p.token, p.pieces[0]!))).json();
    expect(second.order_id).toBeTruthy();
    expect((await enter(p.token, 'pitching-story', await storyBody(p.token, p.pieces[1]!))).status).toBe(201);
    const before = await counts(db);
    const sixth = await enter(p.token, 'pitching-project', project([p.projects[3]!]));
    expect(sixth.status).toBe(400);
    expect(await sixth.json()).toMatchObject({ code: 'pitching_work_limit' });
    expect({ ...(await counts(db)), files: before.files }).toEqual(before);

    const [row] = await db.select().from(orders).where(eq(orders.id, second.order_id));
    expect((await operator(`/orders/${row!.orderNo}/cancel`, { reason: 'Withdrawn' })).status).toBe(200);
    expect(await db.select().from(pitchingApplicants)).toMatchObject([{ worksUsed: 4 }]);
    expect((await enter(p.token, 'pitching-project', project([p.projects[3]!]))).status).toBe(201);
    // The canceled entry's work is free again too.
    expect((await enter(p.token, 'pitching-story', await storyBody(p.token, p.pieces[0]!))).status).toBe(400); // 6 works
  });

  it('10 concurrent single-work entries: exactly 5 accepted, the rest refused with the limit', async () => {
    const p = await producer('pat@example.com', 10, 0);
    const results = await Promise.all(p.projects.map((w) => enter(p.token, 'pitching-project', project([w]))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    const refused = await Promise.all(results.filter((r) => r.status !== 201).map((r) => r.json()));
    expect(refused.map((b) => b.code)).toEqual(Array(5).fill('pitching_work_limit'));
    expect(await db.select().from(pitchingApplicants)).toMatchObject([{ worksUsed: 5 }]);
    expect(await db.select().from(orders)).toHaveLength(5);
  });

  it('a work already in a live entry → code 1 naming it, sequentially and concurrently (exactly one wins)', async () => {
    const p = await producer('pat@example.com');
    const work = p.projects[0]!;
    expect((await enter(p.token, 'pitching-project', project([work]))).status).toBe(201);
    const again = await enter(p.token, 'pitching-project', project([work, p.projects[1]!]));
    expect(again.status).toBe(400);
    const body = await again.json();
    expect(body).toMatchObject({ code: '1', work_id: Number(work) });
    expect(body.message).toBe(`The work ${work} is already used in another pitching registration, please choose again`);
    // Project and story cannot be entered together: the work entered as a project is refused as a story.
    const asStory = await enter(p.token, 'pitching-story', await storyBody(p.token, work));
    expect(asStory.status).toBe(400);
    expect(await asStory.json()).toMatchObject({ code: '1', work_id: Number(work) });

    const racer = p.projects[2]!;
    const race = await Promise.all([0, 1, 2].map(() => enter(p.token, 'pitching-project', project([racer]))));
    expect(race.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    for (const r of race.filter((x) => x.status === 400)) expect((await r.json()).code).toBe('1');
    const live = await db
      .select()
      .from(orderContents)
      .where(eq(orderContents.contentId, String(racer)));
    expect(live).toHaveLength(1);
  });

  it('story form: limits, the "other" genre, the outline is the user\'s own upload', async () => {
    const p = await producer('pat@example.com');
    const other = await producer('eve@example.com');
    const work = p.pieces[0]!;
    const cases: [object, string][] = [
      [{ story_genre_id: 27 }, 'story_genre_other'],
      [{ story_genre_id: 28 }, 'story_genre_id'],
      [{ setting_zh: '字'.repeat(201) }, 'setting_zh'],
      [{ story_summary_en: 'x'.repeat(3001) }, 'story_summary_en'],
      [{ suitable_for_film_zh: '字'.repeat(501) }, 'suitable_for_film_zh'],
      [{ team_members: [] }, 'team_members'],
      [{ team_members: [{ ...member(1), profile_zh: '' }] }, 'team_members'],
      [{ companies: [{ ...company, recommended_ip_en: 'x'.repeat(3001) }] }, 'companies'],
      [{ story_outline_file_id: undefined }, 'story_outline_file_id'],
    ];
    for (const [over, path] of cases) {
      const res = await enter(p.token, 'pitching-story', await storyBody(p.token, work, over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      const b = await res.json();
      expect(b.issues.map((i: { path: string }) => i.path).join(' '), JSON.stringify(over)).toContain(path);
    }
    const theirs = await (
      await upload(app, other.token, { bytes: PDF, name: 'o.pdf', type: 'application/pdf' }, 'story_outline')
    ).json();
    const stolen = await enter(
      p.token,
      'pitching-story',
      await storyBody(p.token, work, { story_outline_file_id: theirs.uid }),
    );
    expect(await stolen.json()).toMatchObject({ code: 'invalid_upload' });
    const image = await (
      await upload(app, p.token, { bytes: PNG, name: 'r.png', type: 'image/png' }, 'relation_image')
    ).json();
    const ok = await enter(
      p.token,
      'pitching-story',
      await storyBody(p.token, work, {
        story_genre_id: 27,
        story_genre_other: 'Maritime',
        relation_image_file_id: image.uid,
      }),
    );
    expect(ok.status).toBe(201);
    expect(await db.select().from(orders)).toHaveLength(1);
  });

  it('the story form is edited before the deadline (never the works), refused after; paid entries get their badge link', async () => {
    const p = await producer('pat@example.com');
    const created = await (await enter(p.token, 'pitching-story', await storyBody(p.token, p.pieces[0]!))).json();
    const [reg] = await db.select().from(registrations).where(eq(registrations.orderId, created.order_id));
    const read = await getJson(app, `/api/v1/registrations/${reg!.id}`, p.token);
    expect(read.body.data).toMatchObject({ form_type: 'story', editable: true });
    const { agree_policy, agree_terms, selected_contents, ...form } = await storyBody(p.token, p.pieces[0]!);
    void [agree_policy, agree_terms, selected_contents];
    const edit = await app.request(
      `/api/v1/registrations/${reg!.id}`,
      json(p.token, 'PUT', { ...form, setting_en: 'A harbour town in 1985.' }),
    );
    expect(edit.status).toBe(200);
    expect((await edit.json()).data.form).toMatchObject({ setting_en: 'A harbour town in 1985.', agree_policy: true });
    expect(await db.select().from(orderContents).where(eq(orderContents.orderId, created.order_id))).toHaveLength(1);

    const [row] = await db.select().from(orders).where(eq(orders.id, created.order_id));
    expect((await operator(`/orders/${row!.orderNo}/mark-paid`)).status).toBe(200);
    expect(await db.select().from(badgeLinks).where(eq(badgeLinks.orderId, row!.id))).toMatchObject([
      { identity: 'EXHIBITOR_PITCHING' },
    ]);

    clock = new Date(Date.now() + 6 * DAY);
    const late = await app.request(`/api/v1/registrations/${reg!.id}`, json(p.token, 'PUT', form));
    expect(late.status).toBe(409);
  });

  it('several entries of one event per user (Story to Screen takes one work each)', async () => {
    const p = await producer('pat@example.com');
    expect((await enter(p.token, 'pitching-story', await storyBody(p.token, p.pieces[0]!))).status).toBe(201);
    expect((await enter(p.token, 'pitching-story', await storyBody(p.token, p.pieces[1]!))).status).toBe(201);
    expect(await db.select().from(orders)).toHaveLength(2);
  });
});
