/*
 * The typed client over the SSR pages' in-process seam (decisions 024, 043), against the real
 * API: a JSON success is handed over (no JSON in between) and equals what the same client reads
 * over HTTP; errors arrive as the same ApiError; the typed functions reach their routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '@server/db/seed';
import { ApiError, type FetchFn } from '@lib/api';
import { createApiClient } from '@lib/api/client';
import { inProcessFetch, type InProcessCall } from '@lib/api/in-process';
import { createTestApp, openTestDatabase, signIn, TEST_ORIGIN, type TestApp, type TestDatabase } from './helpers';

describe('the typed client in process (pglite)', () => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  const handed: boolean[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await seed(database.db);
    app = await createTestApp(database);
    ({ token } = await signIn(app, 'client@example.com', 'Client'));
  });
  afterAll(() => database?.close());

  const inProcess = (auth: string | null) => {
    const call: InProcessCall = async (request) => {
      const answer = await app.inProcessCall(request);
      handed.push('data' in answer);
      return answer;
    };
    return createApiClient({
      baseURL: 'http://embedded.invalid',
      token: auth,
      locale: 'zh-TW',
      fetch: inProcessFetch(call),
    });
  };
  /** The same client over "HTTP": the app's own fetch, the JSON parsed by the transport. */
  const overHttp = (auth: string | null) => {
    const fetch: FetchFn = async (input, init) => app.app.fetch(new Request(input, init));
    return createApiClient({ baseURL: TEST_ORIGIN, token: auth, locale: 'zh-TW', fetch });
  };

  it('hands the events over, equal to what the client reads over HTTP', async () => {
    handed.length = 0;
    const direct = await inProcess(null).events.list();
    expect(handed).toEqual([true]);
    const http = await overHttp(null).events.list();
    expect(direct).toEqual(http);
    expect(direct.data.length).toBeGreaterThan(0);
    expect(direct.data[0]).toMatchObject({ slug: expect.any(String), registrationState: expect.any(String) });
  });

  it('reads the signed-in user through the typed functions', async () => {
    const api = inProcess(token);
    const [me, orders, version] = await Promise.all([
      api.user.me(),
      api.orders.list({ limit: 5 }),
      api.user.pageVersion(),
    ]);
    expect(me.data.email).toBe('client@example.com');
    expect(orders).toEqual({ data: [], meta: { page: 1, limit: 5, total: 0 } });
    expect(version.data.userId).toBe(me.data.id);
  });

  it('answers a refusal as the same ApiError in process and over HTTP', async () => {
    const direct = await inProcess(token)
      .orders.get('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    const http = await overHttp(token)
      .orders.get('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(ApiError);
    expect(direct).toMatchObject({ status: 404, code: (http as ApiError).code, message: (http as ApiError).message });
    await expect(inProcess(null).badges.get()).rejects.toMatchObject({ status: 401 });
  });
});
