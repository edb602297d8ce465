import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '@server/db/seed';
import { application, json, uploadPhoto } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestDatabase } from './helpers';

/**
 * Unhandled errors log no personal data (issue 12): a failed query's message holds its
 * parameters, so the log gets the error's class, code, constraint, route and request id only.
 */
describe.each(DATABASES)('unhandled API errors in the log (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
  });

  it('logs class, code, constraint, route and request id of a failed insert, never its parameters', async () => {
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
    const app = await createTestApp(
      database,
      {},
      { log: (level, message, data) => lines.push({ level, message, data }) },
    );
    const { token } = await signIn(app, 'leak@example.com', 'Leak Test');
    const photo = await uploadPhoto(app, token);
    // A rule the code does not know: the registration insert fails with an unmapped check violation.
    await database.db.execute(sql`alter table registrations add constraint test_refuse_all check (false) not valid`);
    try {
      const res = await app.request('/api/v1/demonstration_order', json(token, 'POST', application(photo)));
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'internal_error', request_id: expect.any(String) });
      expect(res.headers.get('x-request-id')).toBe(body.request_id);

      const logged = lines.filter((l) => l.message === 'unhandled API error');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.data).toMatchObject({
        requestId: body.request_id,
        method: 'POST',
        route: '/api/v1/demonstration_order',
        code: '23514',
        constraint: 'test_refuse_all',
        errorClass: expect.any(String),
        stack: expect.stringMatching(/^\s+at /),
      });
      const text = JSON.stringify(lines);
      // The applicant's phone, names and e-mail were the query's parameters.
      for (const secret of [
        '886-912-345-678',
        'Hsiao-ming Wang',
        '王小明',
        'leak@example.com',
        'params',
        'insert into',
      ])
        expect(text, secret).not.toContain(secret);
    } finally {
      await database.db.execute(sql`alter table registrations drop constraint test_refuse_all`);
    }
  });

  it('echoes a plausible x-request-id from a proxy and replaces an implausible one', async () => {
    const app = await createTestApp(database);
    const kept = await app.request('/api/v1/events', { headers: { 'x-request-id': 'lb-1234abcd' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234abcd');
    const replaced = await app.request('/api/v1/events', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
