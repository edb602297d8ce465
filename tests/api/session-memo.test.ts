import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@server/db/schema';
import { withRequestId } from '@server/ops/request-context';
import { createSessionStore } from '@server/sessions/sessions';
import { DATABASES, openTestDatabase, type TestDatabase } from './helpers';

/*
 * A page's in-process API calls authenticate the same credential within one request: the first
 * verify's answer is shared by the rest of that request (decision 060), and a log out in the
 * request forgets it. Outside a request, and in another request, verify asks again.
 */
describe.each(DATABASES)('session verify, once per request (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function start() {
    const store = createSessionStore({
      db: database.db,
      secret: 'x'.repeat(32),
      idleSeconds: 3600,
      absoluteSeconds: 7200,
    });
    const [user] = await database.db
      .insert(users)
      .values({ subject: `memo-${Math.random()}`, email: `memo-${Math.random()}@example.com`, name: 'Memo' })
      .returning();
    const { token } = await store.create(user!);
    return { store, token };
  }

  it('shares the answer within a request and asks again in the next', async () => {
    const { store, token } = await start();
    await withRequestId('request-one', async () => {
      const first = store.verify(token);
      const second = store.verify(token);
      expect(second).toBe(first);
      expect((await first)?.user.name).toBe('Memo');
    });
    // Outside any request, and in another request: a fresh answer each time.
    expect(store.verify(token)).not.toBe(store.verify(token));
    const other = await withRequestId('request-two', () => store.verify(token));
    expect(other?.user.name).toBe('Memo');
  });

  it('forgets the answer when the request logs out, and the ended session is refused', async () => {
    const { store, token } = await start();
    await withRequestId('request-logout', async () => {
      const verified = await store.verify(token);
      expect(verified).not.toBeNull();
      await store.revoke(verified!.session.id);
      expect(await store.verify(token)).toBeNull();
    });
    expect(await store.verify(token)).toBeNull();
  });

  it('answers each of many credentials checked at once with its own session (one statement, decision 067)', async () => {
    const started = await Promise.all(Array.from({ length: 12 }, () => start()));
    const revoked = started[5]!;
    await revoked.store.revoke((await revoked.store.verify(revoked.token))!.session.id);
    const answers = await Promise.all([...started, started[0]!].map(({ store, token }) => store.verify(token)));
    const expected = [...started, started[0]!].map((_, i) => (i === 5 ? null : 'Memo'));
    expect(answers.map((a) => a?.user.name ?? null)).toEqual(expected);
    const ids = answers.map((a) => a?.user.id);
    expect(new Set(ids.filter(Boolean)).size).toBe(11);
    expect(ids[12]).toBe(ids[0]);
  });
});
