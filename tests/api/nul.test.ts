import { count } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { loadSigner } from '@server/identity/dev-identity';
import {
  application,
  applyBadge,
  counts,
  json,
  orderState,
  PNG,
  AGENCY,
  tokenMinter,
  upload,
  uploadPhoto,
} from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/**
 * U+0000 anywhere a client can put text (body fields, query parameters, path parameters, token
 * claims, upload names) is a 400 `validation_failed` naming the field, never a 500 from
 * PostgreSQL, and nothing is written.
 */
const NUL = '\u0000';
const MESSAGE = 'Must not contain a NUL character';

describe.each(DATABASES)('NUL characters (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  const minter = tokenMinter();
  /** A token with any claims, signed with the dev identity's key. */
  const mint = async (claims: { sub: string; email: string; name?: string }) => {
    const signer = await loadSigner(minter.keyFile);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' })
      .setIssuer('dev-identity')
      .setExpirationTime('1h')
      .sign(signer.privateKey);
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database, AGENCY, { devIdentityKeyFile: minter.keyFile });
    ({ token } = await signIn(app, 'amy@example.com', 'Amy'));
  });

  const userCount = async () => (await database.db.select({ n: count() }).from(users))[0]!.n;
  /** Every table a refused request must leave alone. */
  const snapshot = async () => ({ ...(await counts(database.db)), users: await userCount() });

  /** A 400 validation_failed in the wire shape whose issues name exactly `paths`. */
  async function expectNulRefusal(res: Response, paths: string[]) {
    const body = await res.json();
    expect({ status: res.status, body }).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(body.error).toBe(body.message);
    expect(body.issues).toEqual(paths.map((path) => ({ path, message: expect.stringMatching(/NUL character/) })));
    for (const path of paths) expect(body.message).toContain(path);
    return body;
  }

  describe('badge application body (POST /demonstration_order)', () => {
    const fields = {
      applicant: ['name_zh', 'name_en', 'company_name_zh', 'company_name_en', 'contact_phone', 'contact_email'],
      badge: ['name_zh', 'name_en', 'company_name_zh', 'company_name_en'],
    } as const;
    const cases = Object.entries(fields).flatMap(([group, names]) => names.map((name) => [group, name] as const));

    it.each(cases)('%s.%s', async (group, name) => {
      const photo = await uploadPhoto(app, token);
      const before = await snapshot();
      const body = application(photo, { [group]: { [name]: `Wang${NUL}` } });
      const res = await app.request('/api/v1/demonstration_order', json(token, 'POST', body));
      const refused = await expectNulRefusal(res, [`${group}.${name}`]);
      expect(refused.issues[0].message).toBe(MESSAGE);
      expect(await snapshot()).toEqual(before);
    });

    it('every field at once, each named; and the free-badge claim (PUT /demonstration) alike', async () => {
      const photo = await uploadPhoto(app, token);
      const before = await snapshot();
      const all = application(photo, {
        applicant: Object.fromEntries(fields.applicant.map((f) => [f, NUL])),
        badge: Object.fromEntries(fields.badge.map((f) => [f, NUL])),
      });
      const paths = cases.map(([g, n]) => `${g}.${n}`);
      await expectNulRefusal(await app.request('/api/v1/demonstration_order', json(token, 'POST', all)), paths);
      await expectNulRefusal(await app.request('/api/v1/demonstration?code=abc', json(token, 'PUT', all)), paths);
      expect(await snapshot()).toEqual(before);
    });

    it('a NUL in an unknown key or a nested value the struct would refuse anyway', async () => {
      const photo = await uploadPhoto(app, token);
      const before = await snapshot();
      const body = { ...application(photo), [`ev${NUL}il`]: 'x', event_slug: `badge-free${NUL}` };
      await expectNulRefusal(await app.request('/api/v1/demonstration_order', json(token, 'POST', body)), [
        'ev\\u0000il',
        'event_slug',
      ]);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('order payment update body (PUT /orders/:id)', () => {
    const valid = {
      payment: { type: 'USD', remitter: 'Amy Wang', sender_bank: 'Bank of Taiwan', last_five_digits: '12345' },
      receipt: { kind: 'company', invoice_title: 'Good Pictures Ltd.', unified_business_number: '04595257' },
    };
    it.each([
      ['payment', 'remitter'],
      ['payment', 'sender_bank'],
      ['payment', 'last_five_digits'],
      ['receipt', 'invoice_title'],
      ['receipt', 'unified_business_number'],
    ] as const)('%s.%s', async (group, field) => {
      const { order_id } = await applyBadge(app, token);
      const before = { state: await orderState(database.db, order_id), counts: await snapshot() };
      const body = { ...valid, [group]: { ...valid[group], [field]: `12345${NUL}` } };
      await expectNulRefusal(await app.request(`/api/v1/orders/${order_id}`, json(token, 'PUT', body)), [
        `${group}.${field}`,
      ]);
      await expectNulRefusal(await app.request('/api/v1/demonstration_order', json(token, 'PUT', body)), [
        `${group}.${field}`,
      ]);
      expect({ state: await orderState(database.db, order_id), counts: await snapshot() }).toEqual(before);
      // The same update without the NUL goes through.
      const ok = await app.request(`/api/v1/orders/${order_id}`, json(token, 'PUT', valid));
      expect(ok.status).toBe(200);
    });

    it('lang in the body', async () => {
      const { order_id } = await applyBadge(app, token);
      const before = await orderState(database.db, order_id);
      await expectNulRefusal(
        await app.request(`/api/v1/orders/${order_id}`, json(token, 'PUT', { ...valid, lang: `en${NUL}` })),
        ['lang'],
      );
      expect(await orderState(database.db, order_id)).toEqual(before);
    });
  });

  describe('query parameters', () => {
    it('GET /orders?lang=%00 (validated query)', async () => {
      await expectNulRefusal(await app.request('/api/v1/orders?lang=%00', bearer(token)), ['lang']);
      await expectNulRefusal(await app.request('/api/v1/orders?page=1&lang=en%00x', bearer(token)), ['lang']);
    });

    it('POST /orders?event=…&registration_type=… (raw query reads)', async () => {
      const before = await snapshot();
      const register = (query: string) =>
        app.request(`/api/v1/orders?${query}`, json(token, 'POST', { agree_terms: true }));
      await expectNulRefusal(await register('event=opening-forum%00'), ['event']);
      await expectNulRefusal(await register('event=x%00&registration_type=GENERAL'), ['event']);
      await expectNulRefusal(await register('event=opening-forum&registration_type=GEN%00ERAL'), ['registration_type']);
      await expectNulRefusal(await register('event=%00&registration_type=%00'), ['event', 'registration_type']);
      // '+' and a literal NUL-free '%2500' are not NULs.
      expect((await register('event=no+such%2500event')).status).not.toBe(400);
      expect(await snapshot()).toEqual(before);
    });

    it('PUT /demonstration?code=%00 (and ?type=%00)', async () => {
      const photo = await uploadPhoto(app, token);
      const before = await snapshot();
      const claim = (query: string) =>
        app.request(`/api/v1/demonstration?${query}`, json(token, 'PUT', application(photo)));
      await expectNulRefusal(await claim('code=%00'), ['code']);
      await expectNulRefusal(await claim('code=abc%00def'), ['code']);
      await expectNulRefusal(await claim('code=abc&type=vip%00'), ['type']);
      expect(await snapshot()).toEqual(before);
    });

    it('a NUL in a parameter name, and on routes without a query schema, even before sign-in', async () => {
      await expectNulRefusal(await app.request('/api/v1/orders?la%00ng=en', bearer(token)), ['la\\u0000ng']);
      await expectNulRefusal(await app.request('/api/v1/events?lang=%00'), ['lang']);
      await expectNulRefusal(await app.request('/api/v1/user/signin?return_to=/x%00'), ['return_to']);
      await expectNulRefusal(await app.request('/api/v1/user/callback?code=%00&state=s'), ['code']);
      await expectNulRefusal(await app.request('/api/v1/orders?lang=%00'), ['lang']);
    });
  });

  describe('path parameters', () => {
    it('GET and PUT /orders/%00', async () => {
      const { order_id } = await applyBadge(app, token);
      const before = { state: await orderState(database.db, order_id), counts: await snapshot() };
      await expectNulRefusal(await app.request('/api/v1/orders/%00', bearer(token)), ['order_id']);
      await expectNulRefusal(await app.request(`/api/v1/orders/${order_id}%00`, bearer(token)), ['order_id']);
      await expectNulRefusal(
        await app.request('/api/v1/orders/%00', json(token, 'PUT', { payment: { type: 'credit_card' } })),
        ['order_id'],
      );
      expect({ state: await orderState(database.db, order_id), counts: await snapshot() }).toEqual(before);
    });

    it('other path parameters and unknown routes', async () => {
      await expectNulRefusal(await app.request('/api/v1/events/opening%00forum'), ['event_id']);
      await expectNulRefusal(await app.request('/api/v1/registrations/%00', bearer(token)), ['registration_id']);
      await expectNulRefusal(await app.request('/api/v1/files/%00', bearer(token)), ['file_id']);
      await expectNulRefusal(await app.request('/api/v1/operator/orders/%00/mark-paid', { method: 'POST' }), [
        'order_no',
      ]);
      await expectNulRefusal(await app.request('/api/v1/no%00such/route'), ['path']);
    });
  });

  describe('identity token claims', () => {
    it.each([
      ['name', { sub: 'sub-nul-name', email: 'nul@example.com', name: `Amy${NUL}` }],
      ['email', { sub: 'sub-nul-email', email: `nul${NUL}@example.com`, name: 'Amy' }],
      ['sub', { sub: `sub${NUL}`, email: 'nul@example.com', name: 'Amy' }],
    ] as const)('a NUL in the %s claim', async (claim, claims) => {
      const nulToken = await mint(claims);
      const before = await snapshot();
      await expectNulRefusal(await app.request('/api/v1/user/me', bearer(nulToken)), [`token.${claim}`]);
      const photo = await uploadPhoto(app, token);
      const afterPhoto = await snapshot();
      await expectNulRefusal(
        await app.request('/api/v1/demonstration_order', json(nulToken, 'POST', application(photo))),
        [`token.${claim}`],
      );
      await expectNulRefusal(await upload(app, nulToken, { bytes: PNG, name: 'me.png', type: 'image/png' }), [
        `token.${claim}`,
      ]);
      expect(afterPhoto).toEqual({ ...before, files: before.files + 1 });
      expect(await snapshot()).toEqual(afterPhoto);
    });

    it('an existing user whose identity now carries a NUL is not changed', async () => {
      const good = await mint({ sub: 'sub-amy-2', email: 'amy2@example.com', name: 'Amy' });
      expect((await app.request('/api/v1/user/me', bearer(good))).status).toBe(200);
      const before = await database.db.select().from(users);
      const bad = await mint({ sub: 'sub-amy-2', email: 'amy2@example.com', name: `Amy${NUL}` });
      await expectNulRefusal(await app.request('/api/v1/user/me', bearer(bad)), ['token.name']);
      expect(await database.db.select().from(users)).toEqual(before);
    });

    it('signing in through the dev identity with a NUL in the name fails the sign-in, not the server', async () => {
      const before = await userCount();
      const { callback } = await signIn(app, 'nul@example.com', `Amy${NUL}`);
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/en/signin?error=sign_in_failed');
      expect(callback.headers.getSetCookie().join('\n')).not.toMatch(/idc-token=[^;]/);
      expect(await userCount()).toBe(before);
    });
  });

  describe('uploads', () => {
    it('a NUL in the file name', async () => {
      const before = await snapshot();
      const res = await upload(app, token, { bytes: PNG, name: `me${NUL}.png`, type: 'image/png' });
      const body = await expectNulRefusal(res, ['file']);
      expect(body.issues[0].message).toMatch(/file name/i);
      expect(await snapshot()).toEqual(before);
    });

    it('a NUL in the purpose', async () => {
      const before = await snapshot();
      const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' }, `personal_photo${NUL}`);
      await expectNulRefusal(res, ['purpose']);
      expect(await snapshot()).toEqual(before);
    });

    it('a clean upload still goes through', async () => {
      const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' });
      expect(res.status).toBe(200);
    });
  });
});
