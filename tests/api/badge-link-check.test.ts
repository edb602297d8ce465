import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { badgeLinks, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { createBadgeLink } from '@server/badges/badges';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';
import { application, counts, json, uploadPhoto } from './fixtures';

const DAY = 24 * 60 * 60 * 1000;

/** GET /demonstration/link: a one-time link checked without claiming it (the get-badge page opening). */
describe.each(DATABASES)('badge link check (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let amy: string;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database);
    ({ token: amy } = await signIn(app, 'amy@example.com', 'Amy'));
  });

  const link = (over: { email?: string; expiresAt?: Date; identity?: 'VIP' | 'EXHIBITOR_MARKET' } = {}) =>
    createBadgeLink(database.db, {
      identity: over.identity ?? 'VIP',
      email: over.email,
      expiresAt: over.expiresAt ?? new Date(Date.now() + 14 * DAY),
    });
  const check = async (token: string | null, query: Record<string, string>) => {
    const res = await app.request(
      `/api/v1/demonstration/link?${new URLSearchParams(query)}`,
      token ? bearer(token) : {},
    );
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text), text };
  };
  const claim = (token: string, code: string, body: unknown) =>
    app.request(`/api/v1/demonstration?code=${encodeURIComponent(code)}`, json(token, 'PUT', body));
  const linkRow = async (code: string) =>
    (await database.db.select().from(badgeLinks).where(eq(badgeLinks.code, code)))[0]!;

  it('a valid link answers valid with its identity and type, and stays unused', async () => {
    const { code, expiresAt } = await link();
    const before = await counts(database.db);
    const res = await check(amy, { code, type: 'vip' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { state: 'valid', identity: 'VIP', link_type: 'vip', expires_at: expiresAt.toISOString() },
    });
    expect((await linkRow(code)).usedAt).toBeNull();
    expect(await counts(database.db)).toEqual(before);
    // Without a type, and with the type in another case, the same.
    expect((await check(amy, { code })).body.data.state).toBe('valid');
    expect((await check(amy, { code, type: 'VIP' })).body.data.state).toBe('valid');
  });

  it('an unknown code, an expired link and a link of another type are 404 link_expired', async () => {
    const unknown = await check(amy, { code: 'no-such-code', type: 'vip' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      code: 'link_expired',
      message: 'This link has expired, please contact support',
    });

    const expired = await link({ expiresAt: new Date(Date.now() - 1000) });
    const res = await check(amy, { code: expired.code, type: 'vip' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'link_expired' });

    const market = await link({ identity: 'EXHIBITOR_MARKET' });
    expect((await check(amy, { code: market.code, type: 'vip' })).status).toBe(404);
    expect((await check(amy, { code: market.code, type: 'no-such-type' })).status).toBe(404);
    expect((await check(amy, { code: market.code, type: 'exhibitor-market' })).status).toBe(200);
  });

  it('a link used by someone else is 409 link_used; to the user who used it, claimed', async () => {
    const { code } = await link();
    expect((await claim(amy, code, application(await uploadPhoto(app, amy)))).status).toBe(200);
    const { token: bob } = await signIn(app, 'bob@example.com');
    const used = await check(bob, { code, type: 'vip' });
    expect(used.status).toBe(409);
    expect(used.body).toMatchObject({ code: 'link_used' });
    const mine = await check(amy, { code, type: 'vip' });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ state: 'claimed', identity: 'VIP' });
    // Signed out, a used link is used.
    expect((await check(null, { code, type: 'vip' })).status).toBe(409);
  });

  it('a link issued to another e-mail is 403 link_not_for_user; to its owner (any case) valid', async () => {
    const { code } = await link({ email: 'Bob@Example.com' });
    const other = await check(amy, { code, type: 'vip' });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: 'link_not_for_user' });
    const { token: bob } = await signIn(app, 'bob@EXAMPLE.com');
    expect((await check(bob, { code, type: 'vip' })).body.data.state).toBe('valid');
    expect((await linkRow(code)).usedAt).toBeNull();
  });

  it("tells nothing of another user: not the link's e-mail, who used it, or when", async () => {
    const issued = await link({ email: 'bob@example.com' });
    const { token: bob } = await signIn(app, 'bob@example.com', 'Bob Secret');
    expect((await claim(bob, issued.code, application(await uploadPhoto(app, bob)))).status).toBe(200);
    const bobRow = (await database.db.select().from(users).where(eq(users.email, 'bob@example.com')))[0]!;
    const used = await linkRow(issued.code);
    for (const token of [amy, null]) {
      const res = await check(token, { code: issued.code, type: 'vip' });
      expect(res.status).toBe(409);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'message']);
      for (const secret of ['bob@example.com', 'Bob Secret', bobRow.id, used.usedAt!.toISOString()])
        expect(res.text).not.toContain(secret);
    }
    const unused = await link({ email: 'bob@example.com' });
    const res = await check(amy, { code: unused.code, type: 'vip' });
    expect(res.status).toBe(403);
    expect(res.text).not.toContain('bob@example.com');
  });

  it('signed out: the state without the e-mail comparison; a bad token is 401', async () => {
    const { code } = await link({ email: 'bob@example.com' });
    const res = await check(null, { code, type: 'vip' });
    expect(res.status).toBe(200);
    expect(res.body.data.state).toBe('valid');
    expect((await check('not-a-token', { code, type: 'vip' })).status).toBe(401);
    const malformed = await app.request(`/api/v1/demonstration/link?code=${code}`, {
      headers: { authorization: 'Basic abc' },
    });
    expect(malformed.status).toBe(401);
  });

  it('a missing or overlong code is 400 validation_failed', async () => {
    for (const query of [{}, { code: '' }, { code: 'x'.repeat(101) }] as Record<string, string>[]) {
      const res = await check(amy, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('the claim refuses in the same order as the check (expired over used)', async () => {
    const { code } = await link();
    expect((await claim(amy, code, application(await uploadPhoto(app, amy)))).status).toBe(200);
    await database.db
      .update(badgeLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(badgeLinks.code, code));
    const { token: bob } = await signIn(app, 'bob@example.com');
    expect((await check(bob, { code })).status).toBe(404);
    const claimed = await claim(bob, code, application(await uploadPhoto(app, bob)));
    expect(claimed.status).toBe(404);
    expect(await claimed.json()).toMatchObject({ code: 'link_expired' });
  });
});
