import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '@server/db/seed';
import { counts } from './fixtures';
import { createTestApp, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/**
 * Abuse suite, part 3 (issue 12): oversized bodies and uploads are refused early, on every route
 * that takes a body: a declared length over the limit before a byte is read, a chunked body (no
 * length) as soon as it passes the limit, never after reading it all.
 */
const CHUNK = 64 * 1024;

/** A body of `total` bytes that counts what the server pulled from it. */
function countingBody(total: number) {
  const meter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (meter.pulled >= total) return controller.close();
      meter.pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
    },
  });
  return { stream, meter };
}

describe('abuse: oversized bodies are refused early', () => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  const OPERATOR = 'o'.repeat(40);
  const LIMIT = 256 * 1024;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await database.reset();
    await seed(database.db);
    app = await createTestApp(database, { API_BODY_LIMIT_BYTES: String(LIMIT) }, { operatorToken: OPERATOR });
    ({ token } = await signIn(app, 'big@example.com'));
  });
  afterAll(() => database.close());

  /** Every route that takes a body, with its path parameters filled in. */
  const bodyRoutes = () =>
    [
      ...new Set(
        app.app.routes
          .filter((r) => r.path.startsWith('/api/v1/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
          .map((r) => `${r.method} ${r.path}`),
      ),
    ].map((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return {
        route,
        method,
        path:
          path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000') +
          (path.endsWith('/orders') ? '?event=opening-forum' : ''),
        /** Where the limit is: uploads 21 MB, the gateway's posts 64 KB, the rest API_BODY_LIMIT_BYTES. */
        limit:
          path === '/api/v1/files/upload'
            ? 21 * 1024 * 1024
            : path.startsWith('/api/v1/payment/newebpay/')
              ? 64 * 1024
              : LIMIT,
      };
    });

  const send = (r: { method: string; path: string }, body: ReadableStream<Uint8Array>, length?: number) =>
    app.request(r.path, {
      method: r.method,
      headers: {
        authorization: `Bearer ${r.path.includes('/operator/') ? OPERATOR : token}`,
        'content-type': r.path.endsWith('/upload')
          ? 'multipart/form-data; boundary=abc'
          : r.path.includes('/newebpay/')
            ? 'application/x-www-form-urlencoded'
            : 'application/json',
        ...(length !== undefined ? { 'content-length': String(length) } : {}),
      },
      body,
      duplex: 'half',
    } as RequestInit);

  async function expectTooLarge(res: Response, label: string) {
    expect(res.status, label).toBe(400);
    const body = await res.json();
    expect(['payload_too_large', 'file_too_large'], label).toContain(body.code);
    expect(body.error).toBe(body.message);
  }

  it('covers the routes that take a body', () => {
    expect(bodyRoutes().length).toBeGreaterThanOrEqual(15);
  });

  it('refuses a declared length over the limit before reading the body', async () => {
    const before = await counts(database.db);
    for (const r of bodyRoutes()) {
      const { stream, meter } = countingBody(r.limit * 4);
      await expectTooLarge(await send(r, stream, r.limit * 4), r.route);
      // At most what the stream had queued before anyone asked (its high-water mark).
      expect(meter.pulled, r.route).toBeLessThanOrEqual(CHUNK);
    }
    expect(await counts(database.db)).toEqual(before);
  });

  it('refuses a chunked body (no length) once it passes the limit, not after reading it all', async () => {
    const before = await counts(database.db);
    for (const r of bodyRoutes()) {
      const total = r.limit * 2 + 8 * CHUNK;
      const { stream, meter } = countingBody(total);
      await expectTooLarge(await send(r, stream), r.route);
      expect(meter.pulled, r.route).toBeLessThanOrEqual(r.limit + 2 * CHUNK);
      expect(meter.pulled, r.route).toBeLessThan(total);
    }
    expect(await counts(database.db)).toEqual(before);
  });
});
