import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { badgeLinkBatches, badgeLinks, emails } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { application, getJson, json, uploadPhoto } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 60 * 60 * 1000;
const OPERATOR_TOKEN = 'test-operator-token-0123456789abcdef';

/**
 * Every back-office route of the badge links, events and exports screens, with a body where it
 * takes one: each refuses a visitor (401) and a registrant (403) before reading anything.
 */
export const OPS_ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/v1/admin/badge-links'],
  ['POST', '/api/v1/admin/badge-links', { identity: 'VIP', count: 1, expires_at: '2099-01-01T00:00:00Z' }],
  ['POST', '/api/v1/admin/badge-links/00000000-0000-4000-8000-000000000000/revoke', {}],
  ['GET', '/api/v1/admin/badge-link-batches'],
  ['GET', '/api/v1/admin/badge-link-batches/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/v1/admin/badge-link-batches/00000000-0000-4000-8000-000000000000/revoke-unused', {}],
  ['GET', '/api/v1/admin/events'],
  ['GET', '/api/v1/admin/events/opening-forum'],
  ['PATCH', '/api/v1/admin/events/opening-forum', { capacity: 1 }],
  ['GET', '/api/v1/admin/exports/orders.csv'],
  ['GET', '/api/v1/admin/exports/registrations.xlsx?event=opening-forum'],
  ['GET', '/api/v1/admin/exports/badges.csv'],
];

type LinkWire = {
  id: string;
  code: string;
  email: string | null;
  path: string;
  url_en: string;
  url_zh: string;
  emailed: boolean;
};

describe.each(DATABASES)('back office: badge links (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let olivia: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, { ORGANISER_EMAILS: 'olivia@example.com' }, { operatorToken: OPERATOR_TOKEN });
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
  });

  const post = (token: string, path: string, body: unknown) => app.request(path, json(token, 'POST', body));
  const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();
  async function createBatch(body: Record<string, unknown>) {
    const res = await post(olivia, '/api/v1/admin/badge-links', { identity: 'VIP', expires_at: inDays(14), ...body });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()).data as { batch: { id: string; size: number; created_by: string }; links: LinkWire[] };
  }
  const claim = async (email: string, code: string) => {
    const { token } = await signIn(app, email, email.split('@')[0]);
    const res = await app.request(
      `/api/v1/demonstration?code=${encodeURIComponent(code)}`,
      json(token, 'PUT', application(await uploadPhoto(app, token))),
    );
    return { status: res.status, body: await res.json() };
  };
  const rows = async (table: typeof badgeLinks | typeof badgeLinkBatches | typeof emails) =>
    (await db.select({ n: count() }).from(table))[0]!.n;

  it('refuses every route of these screens to a visitor (401) and a registrant (403)', async () => {
    const { token } = await signIn(app, 'reg@example.com');
    for (const [method, path, body] of OPS_ROUTES) {
      const init = (t: string | null): RequestInit => ({
        method,
        headers: { ...(t ? { authorization: `Bearer ${t}` } : {}), 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const visitor = await app.request(path, init(null));
      expect(visitor.status, `${method} ${path} as a visitor`).toBe(401);
      const registrant = await app.request(path, init(token));
      expect(registrant.status, `${method} ${path} as a registrant`).toBe(403);
      expect(await registrant.json()).toMatchObject({ code: 'forbidden' });
    }
    expect(await rows(badgeLinkBatches)).toBe(0);
  });

  it('one link per address of a list: each bound to its address and e-mailed to it once', async () => {
    const { batch, links } = await createBatch({
      identity: 'EXHIBITOR_MARKET',
      emails: ['Amy@Example.com', 'ben@example.com', 'cai@example.com'],
      note: 'Partner delegation',
    });
    expect(batch).toMatchObject({ size: 3, created_by: 'olivia@example.com' });
    expect(links.map((l) => l.email)).toEqual(['amy@example.com', 'ben@example.com', 'cai@example.com']);
    expect(links.every((l) => l.emailed)).toBe(true);
    expect(links[0]!.url_en).toBe(`http://portal.test/en/get-badge/exhibitor-market/${links[0]!.code}`);
    expect(links[0]!.url_zh).toBe(`http://portal.test/zh-tw/get-badge/exhibitor-market/${links[0]!.code}`);

    const mails = await db.select().from(emails);
    expect(mails.map((m) => m.recipient).sort()).toEqual(['amy@example.com', 'ben@example.com', 'cai@example.com']);
    for (const link of links) {
      const mine = mails.filter((m) => m.recipient === link.email);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.key).toBe(`badge-link:${link.code}`);
      expect(mine[0]!.text).toContain(link.url_en);
      expect(mine[0]!.text).toContain(link.url_zh);
    }

    // Bound: another e-mail cannot claim Amy's link; Amy can.
    expect((await claim('dee@example.com', links[0]!.code)).status).toBe(403);
    const amy = await claim('amy@example.com', links[0]!.code);
    expect(amy.status).toBe(200);
    expect(amy.body.data).toMatchObject({ identity: 'EXHIBITOR_MARKET' });
  });

  it('a number of anonymous links, e-mailed to nobody', async () => {
    const { links } = await createBatch({ count: 3 });
    expect(links).toHaveLength(3);
    expect(new Set(links.map((l) => l.code)).size).toBe(3);
    expect(links.every((l) => l.email === null && !l.emailed)).toBe(true);
    expect(await rows(emails)).toBe(0);
  });

  it('refuses a bad list, both count and e-mails, or a past expiry, and writes nothing', async () => {
    const bad = async (body: Record<string, unknown>, path: string) => {
      const res = await post(olivia, '/api/v1/admin/badge-links', { identity: 'VIP', expires_at: inDays(14), ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await res.json();
      expect(error).toMatchObject({ code: 'validation_failed' });
      expect(error.issues.map((i: { path: string }) => i.path)).toContain(path);
    };
    await bad({ emails: ['amy@example.com', 'not-an-address'] }, 'emails.1');
    await bad({ emails: ['amy@example.com', 'AMY@example.com'] }, 'emails.1');
    await bad({ count: 2, emails: ['amy@example.com'] }, 'count');
    await bad({ count: 501 }, 'count');
    await bad({ count: 1, expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at');
    await bad({ count: 1, identity: 'GUEST' }, 'identity');
    expect([await rows(badgeLinkBatches), await rows(badgeLinks), await rows(emails)]).toEqual([0, 0, 0]);
  });

  it('revokes an unused link: its check and claim are refused (410) after; a used link cannot be revoked', async () => {
    const { links } = await createBatch({ count: 2 });
    const [open, used] = links as [LinkWire, LinkWire];
    expect((await claim('ben@example.com', used.code)).status).toBe(200);

    const revoke = (id: string) => post(olivia, `/api/v1/admin/badge-links/${id}/revoke`, {});
    const done = await revoke(open.id);
    expect(done.status).toBe(200);
    expect((await done.json()).data).toEqual({ id: open.id, result: 'revoked' });
    expect((await (await revoke(open.id)).json()).data.result).toBe('already_revoked');

    const check = await app.request(`/api/v1/demonstration/link?code=${open.code}&type=vip`);
    expect(check.status).toBe(410);
    expect(await check.json()).toMatchObject({ code: 'link_revoked' });
    const refused = await claim('cai@example.com', open.code);
    expect(refused.status).toBe(410);
    expect(refused.body).toMatchObject({ code: 'link_revoked' });

    const usedOne = await revoke(used.id);
    expect(usedOne.status).toBe(409);
    expect(await usedOne.json()).toMatchObject({ code: 'link_used' });
    expect((await revoke('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await revoke('not-a-uuid')).status).toBe(404);

    const [row] = await db.select().from(badgeLinks).where(eq(badgeLinks.id, open.id));
    expect(row).toMatchObject({ revokedBy: 'olivia@example.com', usedAt: null });
  });

  it('a claim and a revocation at the same moment: exactly one wins', async () => {
    const { links } = await createBatch({ count: 1 });
    const { token } = await signIn(app, 'ben@example.com', 'Ben');
    const photo = await uploadPhoto(app, token);
    const [claimed, revoked] = await Promise.all([
      app.request(`/api/v1/demonstration?code=${links[0]!.code}`, json(token, 'PUT', application(photo))),
      post(olivia, `/api/v1/admin/badge-links/${links[0]!.id}/revoke`, {}),
    ]);
    const outcome = [claimed.status, revoked.status];
    expect([
      [200, 409],
      [410, 200],
    ]).toContainEqual(outcome);
    const [row] = await db.select().from(badgeLinks).where(eq(badgeLinks.id, links[0]!.id));
    expect(!!row!.usedAt !== !!row!.revokedAt).toBe(true);
  });

  it('lists the links made, with who used each and when, filtered by identity, status, batch and e-mail', async () => {
    const vip = await createBatch({ count: 2 });
    const market = await createBatch({ identity: 'EXHIBITOR_MARKET', emails: ['dee@example.com'] });
    expect((await claim('ben@example.com', vip.links[0]!.code)).status).toBe(200);
    await post(olivia, `/api/v1/admin/badge-links/${vip.links[1]!.id}/revoke`, {});

    const list = async (query: string) => {
      const res = await getJson(app, `/api/v1/admin/badge-links?${query}`, olivia);
      expect(res.status, query).toBe(200);
      return res.body as { data: Record<string, unknown>[]; meta: { total: number } };
    };
    const all = await list('');
    expect(all.meta.total).toBe(3);
    const used = await list('status=used');
    expect(used.data).toHaveLength(1);
    expect(used.data[0]).toMatchObject({
      code: vip.links[0]!.code,
      status: 'used',
      used_by: { email: 'ben@example.com', name: 'ben' },
      created_by: 'olivia@example.com',
      path: `/get-badge/vip/${vip.links[0]!.code}`,
    });
    expect(used.data[0]!.used_at).toEqual(expect.any(String));
    expect(used.data[0]!.order_no).toMatch(/^TC/);
    expect((await list('status=revoked')).data[0]).toMatchObject({
      status: 'revoked',
      revoked_by: 'olivia@example.com',
    });
    expect((await list('status=unused')).data.map((l) => l.email)).toEqual(['dee@example.com']);
    expect((await list('identity=EXHIBITOR_MARKET')).meta.total).toBe(1);
    expect((await list(`batch=${vip.batch.id}`)).meta.total).toBe(2);
    expect((await list('q=BEN@')).data.map((l) => l.status)).toEqual(['used']);
    expect((await getJson(app, '/api/v1/admin/badge-links?status=lost', olivia)).status).toBe(400);

    // The batches, with their counts; one batch with its links; revoking the unused rest.
    const batches = (await getJson(app, '/api/v1/admin/badge-link-batches', olivia)).body.data;
    expect(batches.map((b: { id: string }) => b.id)).toEqual([market.batch.id, vip.batch.id]);
    expect(batches[1]).toMatchObject({ size: 2, used: 1, revoked: 1, unused: 0, expired: 0, identity: 'VIP' });
    const one = await getJson(app, `/api/v1/admin/badge-link-batches/${market.batch.id}`, olivia);
    expect(one.body.data).toMatchObject({
      size: 1,
      unused: 1,
      links: [{ email: 'dee@example.com', status: 'unused' }],
    });
    const rest = await post(olivia, `/api/v1/admin/badge-link-batches/${market.batch.id}/revoke-unused`, {});
    expect((await rest.json()).data).toEqual({ id: market.batch.id, revoked: 1 });
    expect((await list('status=unused')).meta.total).toBe(0);
    expect((await getJson(app, '/api/v1/admin/badge-link-batches/nope', olivia)).status).toBe(404);
  });

  it('a batch lists its links in the order of the pasted addresses', async () => {
    const emails = ['zoe@example.com', 'abe@example.com', 'mia@example.com', 'bo@example.com'];
    const { batch, links } = await createBatch({ emails });
    expect(links.map((l) => l.email)).toEqual(emails);
    const listed = await getJson(app, `/api/v1/admin/badge-link-batches/${batch.id}`, olivia);
    expect(listed.body.data.links.map((l: { email: string }) => l.email)).toEqual(emails);
  });

  it('npm run badge-link (the operator API) makes a batch of one, recorded with the operator', async () => {
    const res = await app.request('/api/v1/operator/badge-links', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${OPERATOR_TOKEN}`,
        'content-type': 'application/json',
        'x-operator': 'ops-lin',
      },
      body: JSON.stringify({ type: 'vip', email: 'eve@example.com' }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()).data;
    expect(body).toMatchObject({ identity: 'VIP', emailed: true });
    expect(body.url_en).toBe(`http://portal.test/en/get-badge/vip/${body.code}`);
    const [batch] = await db.select().from(badgeLinkBatches);
    expect(batch).toMatchObject({ size: 1, emailed: true, createdBy: 'ops-lin' });
    const listed = await getJson(app, '/api/v1/admin/badge-links', olivia);
    expect(listed.body.data[0]).toMatchObject({ code: body.code, email: 'eve@example.com', created_by: 'ops-lin' });
    expect(await rows(emails)).toBe(1);
  });

  it('npm run badge-link’s expiry: whole days from 1 to 366, 0 and beyond refused (not clamped)', async () => {
    const post = (body: unknown) =>
      app.request('/api/v1/operator/badge-links', {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const days of [0, 367, -1]) {
      const refused = await post({ type: 'vip', expires_days: days });
      expect(refused.status, String(days)).toBe(400);
      expect((await refused.json()).code).toBe('validation_failed');
    }
    const before = Date.now();
    const one = await post({ type: 'vip', expires_days: 1 });
    expect(one.status).toBe(201);
    const expiresAt = new Date((await one.json()).data.expires_at).getTime();
    expect(expiresAt - before).toBeGreaterThanOrEqual(86_400_000 - 5_000);
    expect(expiresAt - before).toBeLessThan(86_400_000 + 60_000);
    expect((await post({ type: 'vip', expires_days: 366 })).status).toBe(201);
  });

  it('the organiser’s API needs the Bearer token for writes (a cookie alone is not enough)', async () => {
    const res = await app.request('/api/v1/admin/badge-links', {
      method: 'POST',
      headers: { cookie: `idc-token=${olivia}`, 'content-type': 'application/json' },
      body: JSON.stringify({ identity: 'VIP', count: 1, expires_at: inDays(1) }),
    });
    expect(res.status).toBe(401);
    expect((await app.request('/api/v1/admin/badge-links', bearer(olivia))).status).toBe(200);
  });
});
