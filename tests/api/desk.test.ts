import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '@server/db/seed';
import { badgePickups, badges, orderEvents, orders } from '@server/db/schema';
import { codeHash } from '@server/desk/desk';
import { pickupCode } from '@server/badges/pickup';
import { applyBadge, json } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/** The badge desk's routes: each must refuse visitors (401) and registrants (403). */
const DESK_ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/v1/admin/desk/badges'],
  ['POST', '/api/v1/admin/desk/verify', { code: 'TCCF1.x.y' }],
  [
    'POST',
    '/api/v1/admin/desk/pickups',
    { desk: 'A', pickups: [{ id: randomUUID(), badge_id: randomUUID(), at: new Date().toISOString() }] },
  ],
  ['GET', '/api/v1/admin/desk/photos/00000000-0000-4000-8000-000000000000'],
];

describe.each(DATABASES)('badge desk API (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let olivia: string;
  let desmond: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database, { ORGANISER_EMAILS: 'olivia@example.com,desmond@example.com' });
    olivia = (await signIn(app, 'olivia@example.com', 'Olivia')).token;
    desmond = (await signIn(app, 'desmond@example.com', 'Desmond')).token;
  });

  const post = (token: string, path: string, body: unknown) => app.request(path, json(token, 'POST', body));

  /**
   * A registrant's Professional badge in a given state: `paid` (confirmed by an organiser),
   * `checking` (a transfer declared, not yet confirmed) or `canceled` (paid, then canceled).
   */
  async function badgeOf(email: string, state: 'paid' | 'checking' | 'canceled' = 'paid') {
    const { token } = await signIn(app, email, email.split('@')[0]);
    const order = await applyBadge(app, token);
    const declared = await app.request(
      `/api/v1/orders/${order.order_id}`,
      json(token, 'PUT', { payment: { type: 'TWD', last_five_digits: '12345' } }),
    );
    expect(declared.status).toBe(200);
    if (state !== 'checking')
      expect((await post(olivia, `/api/v1/admin/orders/${order.order_no}/mark-paid`, {})).status).toBe(200);
    if (state === 'canceled')
      expect((await post(olivia, `/api/v1/admin/orders/${order.order_no}/cancel`, { reason: 'test' })).status).toBe(
        200,
      );
    const [badge] = await database.db.select().from(badges).where(eq(badges.orderId, order.order_id));
    return { ...badge!, orderNo: order.order_no, token };
  }

  const pickup = (badgeId: string, at = new Date()) => ({ id: randomUUID(), badge_id: badgeId, at: at.toISOString() });
  const pickups = async (token: string, desk: string, items: ReturnType<typeof pickup>[]) => {
    const res = await post(token, '/api/v1/admin/desk/pickups', { desk, pickups: items });
    expect(res.status).toBe(200);
    return (await res.json()).data as {
      id: string;
      badge_id: string;
      outcome: string;
      refusal: string | null;
      picked_up_at: string | null;
      picked_up_by: string | null;
      picked_up_desk: string | null;
    }[];
  };

  it('refuses every desk route to a visitor (401) and a registrant (403)', async () => {
    const { token } = await signIn(app, 'reg@example.com');
    for (const [method, path, body] of DESK_ROUTES) {
      const init = (t: string | null): RequestInit =>
        body === undefined
          ? { method, ...(t ? bearer(t) : {}) }
          : {
              method,
              headers: { 'content-type': 'application/json', ...(t ? { authorization: `Bearer ${t}` } : {}) },
              body: JSON.stringify(body),
            };
      expect((await app.request(path, init(null))).status, `${method} ${path} as a visitor`).toBe(401);
      const registrant = await app.request(path, init(token));
      expect(registrant.status, `${method} ${path} as a registrant`).toBe(403);
      expect(await registrant.json()).toMatchObject({ code: 'forbidden' });
    }
  });

  it('lists every badge with the hash of its code (never the code), its state and photo thumbnail', async () => {
    const amy = await badgeOf('amy@example.com');
    const ben = await badgeOf('ben@example.com', 'checking');
    const res = await app.request('/api/v1/admin/desk/badges', bearer(olivia));
    expect(res.status).toBe(200);
    const text = await res.text();
    // The signature part of a code never leaves the server.
    expect(text).not.toContain(amy.pickupCode.split('.')[2]);
    const body = JSON.parse(text);
    expect(body.meta.total).toBe(2);
    const byId = new Map((body.data as { id: string }[]).map((b) => [b.id, b]));
    expect(byId.get(amy.id)).toMatchObject({
      code_hash: codeHash(amy.pickupCode),
      identity: 'PROFESSIONAL',
      name_zh: '王小明',
      name_en: 'Ming Wang',
      company_name_en: 'Good Pictures',
      email: 'amy@example.com',
      order_no: amy.orderNo,
      photo_url: `/api/v1/admin/desk/photos/${amy.personalPhotoFileId}`,
      refusal: null,
      picked_up_at: null,
    });
    expect(byId.get(ben.id)).toMatchObject({ refusal: 'transfer_checking' });
  });

  it('verifies a genuine code, refuses a forged or malformed one, and tells an unknown or unissued badge', async () => {
    const amy = await badgeOf('amy@example.com');
    const ben = await badgeOf('ben@example.com', 'checking');
    const cai = await badgeOf('cai@example.com', 'canceled');
    const verify = (code: unknown) => post(olivia, '/api/v1/admin/desk/verify', { code });

    const genuine = await verify(amy.pickupCode);
    expect(genuine.status).toBe(200);
    expect((await genuine.json()).data).toMatchObject({ id: amy.id, name_en: 'Ming Wang', refusal: null });

    const [prefix, id, sig] = amy.pickupCode.split('.');
    const forgedSig = `${prefix}.${id}.${sig!.startsWith('A') ? 'B' : 'A'}${sig!.slice(1)}`;
    for (const bad of [forgedSig, `${prefix}.${ben.id}.${sig}`, 'hello', `${amy.pickupCode}x`]) {
      const res = await verify(bad);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_pickup_code' });
    }
    // Signed with the real secret but naming no badge.
    const unknown = await verify(pickupCode(randomUUID(), app.config.PICKUP_CODE_SECRET));
    expect(unknown.status).toBe(404);

    const checking = await verify(ben.pickupCode);
    expect((await checking.json()).data).toMatchObject({ id: ben.id, refusal: 'transfer_checking' });
    const canceled = await verify(cai.pickupCode);
    expect((await canceled.json()).data).toMatchObject({ id: cai.id, refusal: 'canceled' });

    const missing = await post(olivia, '/api/v1/admin/desk/verify', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('marks a badge picked up once: a second pick-up is told who, when and where; both are audited', async () => {
    const amy = await badgeOf('amy@example.com');
    const at = new Date(Date.now() - 60_000);
    const [first] = await pickups(olivia, 'Desk A', [pickup(amy.id, at)]);
    expect(first).toMatchObject({
      badge_id: amy.id,
      outcome: 'picked_up',
      picked_up_at: at.toISOString(),
      picked_up_by: 'olivia@example.com',
      picked_up_desk: 'Desk A',
    });
    const [second] = await pickups(desmond, 'Desk B', [pickup(amy.id)]);
    expect(second).toMatchObject({
      outcome: 'already_picked_up',
      picked_up_at: at.toISOString(),
      picked_up_by: 'olivia@example.com',
      picked_up_desk: 'Desk A',
    });
    const [row] = await database.db.select().from(badges).where(eq(badges.id, amy.id));
    expect(row).toMatchObject({ pickedUpAt: at, pickedUpBy: 'olivia@example.com', pickedUpDesk: 'Desk A' });
    const audit = await database.db
      .select()
      .from(badgePickups)
      .where(eq(badgePickups.badgeId, amy.id))
      .orderBy(badgePickups.recordedAt);
    expect(audit.map((a) => [a.outcome, a.organiser, a.desk])).toEqual([
      ['picked_up', 'olivia@example.com', 'Desk A'],
      ['already_picked_up', 'desmond@example.com', 'Desk B'],
    ]);
    const [order] = await database.db.select().from(orders).where(eq(orders.orderNo, amy.orderNo));
    const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order!.id));
    const picked = events.filter((e) => e.kind === 'badge_picked_up');
    expect(picked).toHaveLength(1);
    expect(picked[0]).toMatchObject({ actor: 'organiser', actorId: 'olivia@example.com', paymentStatusAfter: 'paid' });
    // The back office's order page shows it in the history.
    const detail = await (await app.request(`/api/v1/admin/orders/${amy.orderNo}`, bearer(olivia))).json();
    expect(detail.data.badge).toMatchObject({ picked_up_at: at.toISOString() });
    expect(detail.data.history.map((h: { kind: string }) => h.kind)).toContain('badge_picked_up');
  });

  it('two desks picking up the same badge at once: exactly one wins', async () => {
    const amy = await badgeOf('amy@example.com');
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pickups(i % 2 ? desmond : olivia, `Desk ${i}`, [pickup(amy.id)])),
    );
    const outcomes = attempts.map(([r]) => r!);
    const winners = outcomes.filter((r) => r.outcome === 'picked_up');
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    for (const r of outcomes.filter((o) => o !== winner))
      expect(r).toMatchObject({
        outcome: 'already_picked_up',
        picked_up_desk: winner.picked_up_desk,
        picked_up_by: winner.picked_up_by,
        picked_up_at: winner.picked_up_at,
      });
    const [row] = await database.db.select().from(badges).where(eq(badges.id, amy.id));
    expect(row!.pickedUpDesk).toBe(winner.picked_up_desk);
    const audit = await database.db.select().from(badgePickups).where(eq(badgePickups.badgeId, amy.id));
    expect(audit.filter((a) => a.outcome === 'picked_up')).toHaveLength(1);
    expect(audit).toHaveLength(6);
  });

  it('refuses a badge whose order is not issued, with the reason, and leaves it not picked up', async () => {
    const ben = await badgeOf('ben@example.com', 'checking');
    const cai = await badgeOf('cai@example.com', 'canceled');
    const results = await pickups(olivia, 'Desk A', [pickup(ben.id), pickup(cai.id), pickup(randomUUID())]);
    expect(results.map((r) => [r.outcome, r.refusal])).toEqual([
      ['refused', 'transfer_checking'],
      ['refused', 'canceled'],
      ['not_found', null],
    ]);
    const rows = await database.db.select().from(badges);
    expect(rows.every((b) => b.pickedUpAt === null)).toBe(true);
  });

  it('syncs an offline queue once (sent again: the same answers), and reports a conflict between offline desks', async () => {
    const amy = await badgeOf('amy@example.com');
    const ben = await badgeOf('ben@example.com');
    const cai = await badgeOf('cai@example.com');
    // Desk A, offline, hands out Amy's and Ben's badges; desk B, offline too, hands out Ben's and Cai's.
    const t = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const queueA = [pickup(amy.id, t(30)), pickup(ben.id, t(20))];
    const queueB = [pickup(ben.id, t(25)), pickup(cai.id, t(10))];

    // B comes back online first: both recorded.
    const syncB = await pickups(desmond, 'Desk B', queueB);
    expect(syncB.map((r) => r.outcome)).toEqual(['picked_up', 'picked_up']);
    // The pick-up time is the desk's, not the sync's.
    expect(syncB[0]!.picked_up_at).toBe(queueB[0]!.at);
    // A syncs: Amy's is recorded, Ben's is a conflict naming desk B; the server keeps B's.
    const syncA = await pickups(olivia, 'Desk A', queueA);
    expect(syncA[0]).toMatchObject({ id: queueA[0]!.id, outcome: 'picked_up', picked_up_desk: 'Desk A' });
    expect(syncA[1]).toMatchObject({
      id: queueA[1]!.id,
      outcome: 'already_picked_up',
      picked_up_by: 'desmond@example.com',
      picked_up_desk: 'Desk B',
      picked_up_at: queueB[0]!.at,
    });
    // A's answer was lost and it sends its queue again: the same answers, nothing recorded twice.
    const again = await pickups(olivia, 'Desk A', queueA);
    expect(again).toEqual(syncA);
    const audit = await database.db.select().from(badgePickups);
    expect(audit).toHaveLength(4);
    expect(audit.filter((a) => a.outcome === 'already_picked_up').map((a) => [a.badgeId, a.desk])).toEqual([
      [ben.id, 'Desk A'],
    ]);
    const picked = await database.db.select().from(orderEvents).where(eq(orderEvents.kind, 'badge_picked_up'));
    expect(picked).toHaveLength(3);
    const [benRow] = await database.db.select().from(badges).where(eq(badges.id, ben.id));
    expect(benRow).toMatchObject({ pickedUpDesk: 'Desk B', pickedUpBy: 'desmond@example.com' });
  });

  it('refuses a malformed batch with 400 and records nothing', async () => {
    const amy = await badgeOf('amy@example.com');
    const bad = [
      { desk: '', pickups: [pickup(amy.id)] },
      { desk: 'A', pickups: [] },
      { desk: 'A', pickups: [{ ...pickup(amy.id), at: 'yesterday' }] },
      { desk: 'A', pickups: [{ ...pickup(amy.id), id: 'not-a-uuid' }] },
      { desk: 'x'.repeat(41), pickups: [pickup(amy.id)] },
    ];
    for (const body of bad) {
      const res = await post(olivia, '/api/v1/admin/desk/pickups', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect(await database.db.select().from(badgePickups)).toEqual([]);
  });

  it('serves a small JPEG thumbnail of a badge photo to organisers only, and nothing else', async () => {
    const amy = await badgeOf('amy@example.com');
    const url = `/api/v1/admin/desk/photos/${amy.personalPhotoFileId}`;
    const res = await app.request(url, bearer(olivia));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(jpeg.decode(bytes, { useTArray: true }).width).toBeGreaterThan(0);
    // Made once, then served from the storage.
    expect(await app.storage.get(`thumbnails/${amy.personalPhotoFileId}-120`)).toEqual(bytes);
    expect((await app.request(url, bearer(amy.token))).status).toBe(403);
    expect((await app.request(`/api/v1/admin/desk/photos/${randomUUID()}`, bearer(olivia))).status).toBe(404);
    expect((await app.request('/api/v1/admin/desk/photos/nope', bearer(olivia))).status).toBe(404);
  });
});
