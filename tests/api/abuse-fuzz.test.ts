import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devContentWorks, orders, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { devSubject } from '@server/identity/dev-identity';
import { createBadgeLink } from '@server/badges/badges';
import {
  application,
  applyBadge,
  counts,
  giveBadges,
  JPEG,
  json,
  keysOf,
  orderState,
  PDF,
  PNG,
  signedCallback,
  uploadPhoto,
} from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/**
 * Abuse suite, part 2 (issue 12): property-based fuzzing (fast-check) of every JSON and form
 * endpoint, and of the query strings of every GET route. Whatever is sent: never a 500, an error
 * answer in the `{code, message, error}` shape, and a refusal writes nothing (the row counts of
 * the order tables and the target order are unchanged).
 *
 * Seeded and short for CI. Longer runs: FUZZ_RUNS=2000 (runs per endpoint), FUZZ_SEED=<n> to
 * replay or vary, FUZZ_DATABASES=all to fuzz the PostgreSQL server of TEST_DATABASE_URL as well.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const TARGETS = process.env.FUZZ_DATABASES === 'all' ? DATABASES : (['pglite'] as const);
const options = { numRuns: RUNS, seed: SEED, endOnFailure: true };
/** Time for one endpoint's runs (they go through the database). */
const TIMEOUT = 60_000 + RUNS * 500;

// ---- Arbitraries -----------------------------------------------------------------------------

/** Values that break naive code: empty, huge, NUL, control and surrogate characters, big numbers. */
const nasty = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\u202E',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "'; drop table orders; --",
    'x'.repeat(70_000),
    '1e309',
    '-0',
    '__proto__',
    0,
    -1,
    1.5,
    2 ** 53,
    -(2 ** 31),
    1e308,
    true,
    false,
    null,
    [],
    {},
    [[[[[]]]]],
    { __proto__: { admin: true } },
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A JSON body built from `base`: a field replaced, removed or added, or something else entirely. */
function bodies(base: Record<string, unknown>) {
  const keys = Object.keys(base);
  const mutated = fc
    .tuple(fc.constantFrom(...keys), fc.oneof(nasty, fc.constant(undefined)), fc.boolean())
    .map(([key, value, nested]) => {
      const body: Record<string, unknown> = structuredClone(base);
      const target =
        nested && body[key] && typeof body[key] === 'object' ? (body[key] as Record<string, unknown>) : body;
      const field = target === body ? key : (Object.keys(target)[0] ?? key);
      if (value === undefined) delete target[field];
      else target[field] = value;
      return JSON.stringify(body);
    });
  const extraKey = fc
    .tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'a.b', 'A_B'), fc.string()), nasty)
    .map(([k, v]) => JSON.stringify({ ...base, [k]: v }));
  const raw = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('', '{', '[', 'null', '{"a":', '['.repeat(3000) + ']'.repeat(3000), '{"__proto__":{"x":1}}'),
  );
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 2, arbitrary: extraKey }, { weight: 2, arbitrary: raw });
}

// ---- The suite -------------------------------------------------------------------------------

describe.each(TARGETS)('abuse: fuzzing every JSON and form endpoint (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let fresh: string;
  let holder: string;
  let payer: { token: string; orderId: string; orderNo: string };
  let eventOrderId: string;
  let photo: string;
  let linkCode: string;
  let works: number[];
  const OPERATOR = 'o'.repeat(40);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.reset();
    await seed(database.db);
    // Limits out of the way: the fuzzer is one user sending hundreds of requests.
    app = await createTestApp(
      database,
      {
        RATE_LIMIT_ORDERS: '1000000/1m',
        RATE_LIMIT_UPLOADS: '1000000/1m',
        RATE_LIMIT_PAYMENT_REJECTS: '1000000/1m',
        UPLOAD_QUOTA_FILES: '1000000',
        UPLOAD_QUOTA_BYTES: '2000000000',
      },
      { operatorToken: OPERATOR },
    );
    fresh = (await signIn(app, 'fuzz-fresh@example.com')).token;
    photo = await uploadPhoto(app, fresh);
    // A badge holder with works on the dev content site: registers for events, Market, pitching.
    holder = (await signIn(app, 'fuzz-holder@example.com')).token;
    const [holderRow] = await database.db.select().from(users).where(eq(users.email, 'fuzz-holder@example.com'));
    await giveBadges(database.db, [{ id: holderRow!.id, email: 'fuzz-holder@example.com' }]);
    works = (
      await database.db
        .insert(devContentWorks)
        .values(
          [1, 2, 3].map((i) => ({
            ownerSubject: devSubject('fuzz-holder@example.com'),
            ownerEmail: 'fuzz-holder@example.com',
            genre: 'piece',
            categoryId: 1,
            titleEn: `Work ${i}`,
            titleZh: `作品 ${i}`,
          })),
        )
        .returning({ id: devContentWorks.id })
    ).map((w) => w.id);
    const event = await app.request('/api/v1/orders?event=opening-forum', json(holder, 'POST', { agree_terms: true }));
    eventOrderId = (await event.json()).order_id;
    // A pending badge order to update.
    const payerToken = (await signIn(app, 'fuzz-payer@example.com')).token;
    const order = await applyBadge(app, payerToken);
    payer = { token: payerToken, orderId: order.order_id, orderNo: order.order_no };
    linkCode = (await createBadgeLink(database.db, { identity: 'VIP', expiresAt: new Date(Date.now() + 86_400_000) }))
      .code;
  });
  afterAll(() => database.close());

  /** Row counts and the watched orders: what a refusal must leave as it was. */
  const snapshot = async (orderIds: string[]) => ({
    counts: await counts(database.db),
    orders: await Promise.all(orderIds.map((id) => orderState(database.db, id))),
  });

  /** Sends each generated body; checks status, error shape and (on refusal) that nothing changed. */
  async function fuzz(
    arbitrary: fc.Arbitrary<string>,
    send: (body: string) => Response | Promise<Response>,
    watch: string[] = [],
  ) {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (body) => {
        const before = await snapshot(watch);
        const res = await send(body);
        const text = await res.text();
        expect(res.status, `${res.status} for ${body.slice(0, 200)}: ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) {
          const error = JSON.parse(text);
          expect(typeof error.code, text).toBe('string');
          expect(typeof error.message, text).toBe('string');
          expect(error.error, text).toBe(error.message);
          expect(await snapshot(watch), `refused ${res.status} but wrote: ${body.slice(0, 200)}`).toEqual(before);
        }
      }),
      options,
    );
  }

  const sendJson = (token: string, method: string, path: string) => (body: string) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('POST /demonstration_order (a badge application)', { timeout: TIMEOUT }, async () => {
    await fuzz(bodies(application(photo)), sendJson(fresh, 'POST', '/api/v1/demonstration_order'));
  });

  it('PUT /demonstration?code= (a free-badge claim)', { timeout: TIMEOUT }, async () => {
    await fuzz(bodies(application(photo)), sendJson(fresh, 'PUT', `/api/v1/demonstration?code=${linkCode}`));
  });

  it('PUT /demonstration_order and PUT /orders/:id (payment details and invoice)', { timeout: TIMEOUT }, async () => {
    const base = {
      payment: { type: 'TWD', last_five_digits: '12345', remitter: 'Fuzz', sender_bank: 'Bank' },
      receipt: { kind: 'company', invoice_title: 'Fuzz Ltd.', unified_business_number: '12345678' },
    };
    await fuzz(bodies(base), sendJson(payer.token, 'PUT', '/api/v1/demonstration_order'), [payer.orderId]);
    await fuzz(bodies(base), sendJson(payer.token, 'PUT', `/api/v1/orders/${payer.orderId}`), [payer.orderId]);
  });

  it('POST /orders for an event, the Market and both pitching kinds', { timeout: TIMEOUT * 2 }, async () => {
    await fuzz(bodies({ agree_terms: true }), sendJson(holder, 'POST', '/api/v1/orders?event=opening-forum'), [
      eventOrderId,
    ]);
    const market = {
      agree_terms: true,
      agree_disclosure: true,
      market_identity: 1,
      selected_contents: works,
      company_name_zh: '好故事影業',
      company_name_en: 'Good Story Pictures',
      company_industry: 3,
      company_business_category: [1, 2],
      company_country: 'TWN',
      copyright_contacts: [{ name_en: 'Ming Wang', phone: '886-912-345-678', email: 'ming@example.com' }],
      contact_name: 'Amy Lin',
      contact_phone: '886-2-1234-5678',
      contact_email: 'amy@example.com',
    };
    await fuzz(bodies(market), sendJson(holder, 'POST', '/api/v1/orders?event=market-earlybird'));
    const pitching = { agree_policy: true, agree_terms: true, selected_contents: [works[0]], story_genre_id: 1 };
    await fuzz(bodies(pitching), sendJson(holder, 'POST', '/api/v1/orders?event=pitching-story'));
    await fuzz(bodies(pitching), sendJson(holder, 'POST', '/api/v1/orders?event=pitching-project'));
  });

  it('PUT /registrations/:id (the contact page forms)', { timeout: TIMEOUT }, async () => {
    const registration = (await (await app.request(`/api/v1/orders/${eventOrderId}`, bearer(holder))).json()).data
      .registration_id as string;
    await fuzz(
      bodies({ company_name_en: 'Good Story', contact_email: 'amy@example.com' }),
      sendJson(holder, 'PUT', `/api/v1/registrations/${registration}`),
      [eventOrderId],
    );
  });

  it('the operator API’s JSON posts', { timeout: TIMEOUT }, async () => {
    await fuzz(
      bodies({ reason: 'Not eligible' }),
      sendJson(OPERATOR, 'POST', `/api/v1/operator/orders/${payer.orderNo}/reject`),
      [payer.orderId],
    );
    await fuzz(
      bodies({ type: 'vip', email: 'guest@example.com', expires_days: 14 }),
      sendJson(OPERATOR, 'POST', '/api/v1/operator/badge-links'),
    );
  });

  it('the gateway’s form posts (notify and return)', { timeout: TIMEOUT }, async () => {
    const genuine = signedCallback(keysOf(app), { MerchantOrderNo: `${payer.orderNo}_9`, Amt: 999 });
    const fields = fc.oneof(
      // The genuine post with one field replaced, removed or cut.
      fc
        .tuple(
          fc.constantFrom(...Object.keys(genuine)),
          fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.constant(null)),
        )
        .map(([key, value]) => {
          const copy: Record<string, string> = { ...genuine };
          if (value === null) delete copy[key];
          else copy[key] = value;
          return copy;
        }),
      fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 60 }), { maxKeys: 8 }),
    );
    for (const path of ['/api/v1/payment/newebpay/notify', '/api/v1/payment/newebpay/return']) {
      await fc.assert(
        fc.asyncProperty(fields, async (form) => {
          const before = await snapshot([payer.orderId]);
          const res = await app.request(path, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form),
          });
          expect(res.status, JSON.stringify(form).slice(0, 200)).toBeLessThan(500);
          // The payer's order is unpaid and was never charged: nothing posted here may change it.
          expect(await snapshot([payer.orderId])).toEqual(before);
        }),
        options,
      );
    }
  });

  it('POST /files/upload (multipart)', { timeout: TIMEOUT }, async () => {
    const part = fc.record({
      bytes: fc.oneof(
        fc.constantFrom(PNG, JPEG, PDF, Buffer.alloc(0), Buffer.from('%PDF'), Buffer.from([0xff, 0xd8])),
        fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)),
      ),
      name: fc.oneof(
        fc.constantFrom('a.png', 'a.jpg', 'a.pdf', '', '../x.png', 'a\u0000.png', 'é.png'),
        fc.string({ unit: 'binary', maxLength: 40 }),
      ),
      type: fc.oneof(
        fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', '', 'text/html'),
        fc.string({ maxLength: 30 }),
      ),
      purpose: fc.oneof(
        fc.constantFrom(
          'personal_photo',
          'company_logo',
          'story_outline',
          'relation_image',
          '__proto__',
          'constructor',
          '',
        ),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.constant(null),
      ),
      extra: fc.option(
        fc.tuple(fc.string({ unit: 'binary', maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 30 })),
      ),
    });
    await fc.assert(
      fc.asyncProperty(part, async ({ bytes, name, type, purpose, extra }) => {
        const before = await counts(database.db);
        const form = new FormData();
        form.set('file', new File([new Uint8Array(bytes)], name, { type }));
        if (purpose !== null) form.set('purpose', purpose);
        if (extra) form.set(extra[0], extra[1]);
        const res = await app.request('/api/v1/files/upload', {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${fresh}` },
        });
        const text = await res.text();
        expect(res.status, text.slice(0, 300)).toBeLessThan(500);
        const after = await counts(database.db);
        if (res.status >= 400) expect(after).toEqual(before);
        else expect(after.files).toBe(before.files + 1);
      }),
      options,
    );
  });

  it('the query strings and path parameters of every GET route', { timeout: TIMEOUT * 2 }, async () => {
    const routes = [
      ...new Set(app.app.routes.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/')).map((r) => r.path)),
    ];
    const query = fc.dictionary(
      fc.oneof(
        fc.constantFrom(
          'limit',
          'page',
          'lang',
          'event',
          'status',
          'code',
          'type',
          'state',
          'name',
          'return_to',
          'locale',
        ),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom('1.5', '-1', '0', '1e3', '99999999999999999999', '%00', 'NaN'),
      ),
      { maxKeys: 4 },
    );
    const param = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('-'.repeat(36), '00000000-0000-0000-0000-000000000000', '%00', '..', 'a'.repeat(300)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), param, query, fc.boolean(), async (route, value, q, operator) => {
        const path = route.replace(/:[A-Za-z]+/g, () => encodeURIComponent(value));
        const search = new URLSearchParams(q).toString();
        const res = await app.request(`${path}${search ? `?${search}` : ''}`, bearer(operator ? OPERATOR : holder));
        expect(res.status, `${path}?${search}`).toBeLessThan(500);
      }),
      { ...options, numRuns: RUNS * 3 },
    );
  });

  it('leaves the watched orders as they were', async () => {
    // The orders the fuzzers wrote to are still readable by their owners (no half-written rows).
    for (const [token, id] of [
      [payer.token, payer.orderId],
      [holder, eventOrderId],
    ] as const)
      expect((await app.request(`/api/v1/orders/${id}`, bearer(token))).status).toBe(200);
    expect((await database.db.select().from(orders)).every((o) => o.amountCents >= 0)).toBe(true);
  });
});
