import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@server/db/client';
import { seed } from '@server/db/seed';
import { memoryStorage, type FileStorage } from '@server/files/storage';
import { mailPass } from '@server/jobs/worker';
import { mailSettings } from '@server/mail/outbox';
import type { MailTransport } from '@server/mail/transport';
import { applyBadge, keysOf, postForm, signedCallback } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/**
 * The operations endpoints (issue 20, decision 040): liveness, readiness (database, migrations,
 * storage), Prometheus metrics (guarded by METRICS_TOKEN when set), and the request id on every
 * answer and every log line of a request.
 */

/** The value of one sample of the Prometheus text `text` (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(match[3]);
  }
  return 0;
}

const noMail: MailTransport = { kind: 'smtp', send: async () => {}, close: () => {} };

describe.each(DATABASES)('operations endpoints (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let lines: { level: string; message: string; data?: Record<string, unknown> }[];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    lines = [];
    app = await createTestApp(
      database,
      { RATE_LIMIT_SIGNIN: '2/1m' },
      {
        log: (level, message, data) => lines.push({ level, message, data }),
      },
    );
  });

  const metrics = async (target: TestApp = app, init: RequestInit = {}) => {
    const res = await target.request('/metrics', init);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  it('GET /healthz answers 200 without asking anything', async () => {
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /readyz answers 200 with each check when the database answers and is migrated', async () => {
    const res = await app.request('/readyz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({ status: 'ready', checks: { database: { status: 'ok', ms: expect.any(Number) } } });
  });

  it('GET /readyz answers 503 naming the storage when the upload storage cannot be used', async () => {
    const broken: FileStorage = { ...memoryStorage(), check: () => Promise.reject(new Error('bucket not found')) };
    const withBroken = await createTestApp(database, {}, { storage: broken });
    const res = await withBroken.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'not_ready',
      checks: {
        database: { status: 'ok', ms: expect.any(Number) },
        storage: { status: 'fail', ms: expect.any(Number), error: 'bucket not found' },
      },
    });
  });

  it('GET /readyz answers 503 within its budget when the storage does not answer', async () => {
    const silent: FileStorage = { ...memoryStorage(), check: () => new Promise(() => {}) };
    const withSilent = await createTestApp(database, {}, { storage: silent });
    const started = Date.now();
    const res = await withSilent.request('/readyz');
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect((await res.json()).checks.storage).toMatchObject({ status: 'fail', error: expect.stringMatching(/within/) });
  });

  it('GET /metrics: Prometheus text with process metrics and request durations by route pattern', async () => {
    const before = await metrics();
    await app.request('/api/v1/events/opening-forum');
    await app.request('/api/v1/events/no-such-event');
    const { status, type, text } = await metrics();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    const count = (body: string, status: string) =>
      sample(body, 'portal_http_request_duration_seconds_count', {
        route: '/api/v1/events/:eventId',
        method: 'GET',
        status,
      });
    expect(count(text, '200') - count(before.text, '200')).toBe(1);
    expect(count(text, '404') - count(before.text, '404')).toBe(1);
    // Patterns, never the paths themselves (bounded label values).
    expect(text).not.toContain('opening-forum');
    expect(sample(text, 'portal_db_available')).toBe(1);
    if (kind === 'postgres') expect(sample(text, 'portal_db_pool_connections', { state: 'max' })).toBe(60);
  });

  it('GET /metrics counts orders placed and payments confirmed by event type, and the outbox backlog', async () => {
    const before = await metrics();
    const { token } = await signIn(app, 'metrics@example.com');
    const order = await applyBadge(app, token);
    const pending = await metrics();
    expect(sample(pending.text, 'portal_outbox_backlog', { outbox: 'order_events' })).toBeGreaterThanOrEqual(1);
    expect(sample(pending.text, 'portal_outbox_oldest_age_seconds', { outbox: 'order_events' })).toBeGreaterThanOrEqual(
      0,
    );
    const notify = signedCallback(keysOf(app), { MerchantOrderNo: `${order.order_no}_1`, Amt: 1000, TradeNo: 'T1' });
    expect((await postForm(app, '/api/v1/payment/newebpay/notify', notify)).status).toBe(200);
    // Counted once the outbox worker has handled the events (after their commit, by one instance).
    await mailPass({ db: database.db, transport: noMail, settings: mailSettings(app.config), log: () => {} });
    const after = await metrics();
    const delta = (name: string) =>
      sample(after.text, name, { event_type: 'badge_professional' }) -
      sample(before.text, name, { event_type: 'badge_professional' });
    expect(delta('portal_orders_placed_total')).toBe(1);
    expect(delta('portal_payments_confirmed_total')).toBe(1);
    expect(sample(after.text, 'portal_outbox_backlog', { outbox: 'order_events' })).toBe(0);
  });

  it('GET /metrics counts rate-limit refusals by bucket', async () => {
    const before = sample((await metrics()).text, 'portal_rate_limit_refusals_total', { bucket: 'signin' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.request('/api/v1/user/signin?locale=en')).status);
    expect(statuses).toEqual([302, 302, 429]);
    expect(sample((await metrics()).text, 'portal_rate_limit_refusals_total', { bucket: 'signin' }) - before).toBe(1);
  });

  it('GET /metrics asks for METRICS_TOKEN as a Bearer token when it is set', async () => {
    const guarded = await createTestApp(database, { METRICS_TOKEN: 'scrape-token-of-the-test-0001' });
    const none = await metrics(guarded);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('process_cpu');
    expect((await guarded.request('/metrics')).headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(
      (await metrics(guarded, { headers: { authorization: 'Bearer scrape-token-of-the-test-0002' } })).status,
    ).toBe(401);
    expect((await metrics(guarded, { headers: { authorization: 'Bearer short' } })).status).toBe(401);
    const good = await metrics(guarded, { headers: { authorization: 'Bearer scrape-token-of-the-test-0001' } });
    expect(good.status).toBe(200);
    expect(good.text).toContain('process_cpu_seconds_total');
    // The probes stay open: load balancers send no credentials.
    expect((await guarded.request('/healthz')).status).toBe(200);
    expect((await guarded.request('/readyz')).status).toBe(200);
  });

  it('sends the request id back: the one given when plausible, else a new one', async () => {
    const given = await app.request('/api/v1/events', { headers: { 'x-request-id': 'lb-7f3a9c2e-0001' } });
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a9c2e-0001');
    for (const bad of ['short', 'has space in it', 'x'.repeat(200)]) {
      const res = await app.request('/api/v1/events', { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const a = (await app.request('/api/v1/events')).headers.get('x-request-id');
    const b = (await app.request('/api/v1/events')).headers.get('x-request-id');
    expect(a).not.toBe(b);
  });

  it('puts the request id on every log line written while the request is served', async () => {
    const forged = { Status: 'SUCCESS', MerchantID: 'MS_SANDBOX', TradeInfo: 'ab', TradeSha: 'CD' };
    lines = [];
    const res = await app.request('/api/v1/payment/newebpay/notify', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'trace-forged-post-01' },
      body: new URLSearchParams(forged),
    });
    expect(res.status).toBe(400);
    const logged = lines.filter((l) => l.message === 'payment notification rejected');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.data).toMatchObject({ requestId: 'trace-forged-post-01' });
    expect(lines.every((l) => l.data?.requestId === 'trace-forged-post-01')).toBe(true);
  });
});

describe('readiness of a database whose migrations are behind the code', () => {
  it('answers 503 naming the database', async () => {
    const unmigrated = await openDatabase({ migrate: false });
    try {
      const app = await createTestApp(unmigrated);
      const res = await app.request('/readyz');
      expect(res.status).toBe(503);
      expect((await res.json()).checks.database).toMatchObject({
        status: 'fail',
        error: expect.stringMatching(/migrations behind/),
      });
      expect((await app.request('/healthz')).status).toBe(200);
    } finally {
      await unmigrated.close();
    }
  });
});
