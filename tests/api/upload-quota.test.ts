import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { badges, files, registrations, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { housekeepingPass } from '@server/jobs/worker';
import { memoryStorage } from '@server/files/storage';
import { applyBadge, giveBadges, PNG, upload } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const HOUR = 3_600_000;

/**
 * Per-user upload quota (count and bytes in any 24 hours) and the cleanup of uploads no order
 * refers to (issue 12).
 */
describe.each(DATABASES)('upload quota and cleanup (%s)', (kind) => {
  let database: TestDatabase;
  let clock: Date;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    clock = new Date();
  });

  const photo = { bytes: PNG, name: 'p.png', type: 'image/png' };
  const app = (env: Record<string, string> = {}) => createTestApp(database, env, { now: () => clock });
  const fileRows = () => database.db.select().from(files);

  async function expectQuota(res: Response) {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'upload_quota_exceeded', limit_files: expect.any(Number) });
    expect(body.error).toBe(body.message);
    return body;
  }

  it('refuses the upload over the daily count with 429 upload_quota_exceeded, storing nothing; a day later it is free', async () => {
    const a = await app({ UPLOAD_QUOTA_FILES: '3' });
    const { token } = await signIn(a, 'quota@example.com');
    for (let i = 0; i < 3; i++) expect((await upload(a, token, photo)).status).toBe(200);
    const res = await upload(a, token, photo);
    const retryAfter = Number(res.headers.get('retry-after'));
    await expectQuota(res);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await fileRows()).toHaveLength(3);
    // Another user has a quota of their own.
    expect((await upload(a, (await signIn(a, 'other@example.com')).token, photo)).status).toBe(200);
    clock = new Date(clock.getTime() + 24 * HOUR + 1000);
    expect((await upload(a, token, photo)).status).toBe(200);
  });

  it('refuses by bytes, and before reading a body whose declared length cannot fit', async () => {
    const a = await app({ UPLOAD_QUOTA_BYTES: String(PNG.length * 2 + 10) });
    const { token } = await signIn(a, 'bytes@example.com');
    expect((await upload(a, token, photo)).status).toBe(200);
    expect((await upload(a, token, photo)).status).toBe(200);
    await expectQuota(await upload(a, token, photo));
    // A declared 5 MB body: refused before a byte of it is read.
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65_536;
        if (pulled > 5_000_000) controller.close();
        else controller.enqueue(new Uint8Array(65_536));
      },
    });
    const res = await a.request('/api/v1/files/upload', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': '5000000',
      },
      body,
      duplex: 'half',
    } as RequestInit);
    await expectQuota(res);
    expect(pulled).toBeLessThanOrEqual(65_536 * 2);
  });

  it('lets exactly the quota through when uploads arrive at once', async () => {
    const a = await app({ UPLOAD_QUOTA_FILES: '3' });
    const { token } = await signIn(a, 'burst@example.com');
    const results = await Promise.all(Array.from({ length: 8 }, () => upload(a, token, photo)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await fileRows()).toHaveLength(3);
    // The refused ones left no object behind either.
    expect(await storedObjects(a)).toBe(3);
  });

  /** How many objects the memory storage of `a` holds. */
  const storedObjects = (a: TestApp) => (a.storage as ReturnType<typeof memoryStorage>).size();

  it('deletes uploads a day old that no badge, badge order or registration form refers to, and their objects', async () => {
    const storage = memoryStorage();
    const a = await createTestApp(database, {}, { now: () => clock, storage });
    const { token } = await signIn(a, 'keeper@example.com');
    const id = async () => (await (await upload(a, token, photo)).json()).uid as string;

    // Attached: the photo of a badge order's application (its registration form)…
    const order = await applyBadge(a, token);
    const [badgeOrderForm] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.orderId, order.order_id));
    const inBadgeOrder = (badgeOrderForm!.form as { personalPhotoFileId: string }).personalPhotoFileId;
    // …a badge's photo…
    const second = await signIn(a, 'holder@example.com');
    const [holder] = await database.db.select().from(users).where(eq(users.email, 'holder@example.com'));
    await giveBadges(database.db, [{ id: holder!.id, email: 'holder@example.com' }]);
    const badgePhoto = (await (await upload(a, second.token, photo)).json()).uid as string;
    await database.db.update(badges).set({ personalPhotoFileId: badgePhoto }).where(eq(badges.userId, holder!.id));
    // …a file named deep inside a form, and one in the contact part.
    const nested = await id();
    const inContact = await id();
    await database.db
      .update(registrations)
      .set({
        form: { ...(badgeOrderForm!.form as object), exhibitor: { companyLogoFileId: nested } },
        contact: { relationImageFileId: inContact },
      })
      .where(eq(registrations.orderId, order.order_id));
    // Not attached: two old uploads, and one too recent to go.
    const orphanA = await id();
    const orphanB = await id();
    clock = new Date(clock.getTime() + 23 * HOUR);
    const recent = await id();

    const keys = new Map((await fileRows()).map((r) => [r.id, r.storageKey]));
    clock = new Date(clock.getTime() + 2 * HOUR);
    const result = await housekeepingPass({
      db: database.db,
      log: () => {},
      now: () => clock,
      storage,
      unattachedHours: 24,
    });
    expect(result.uploads).toBe(2);
    const left = new Set((await fileRows()).map((r) => r.id));
    expect([...left].sort()).toEqual([inBadgeOrder, badgePhoto, nested, inContact, recent].sort());
    expect(await storage.get(keys.get(orphanA)!)).toBeNull();
    expect(await storage.get(keys.get(orphanB)!)).toBeNull();
    expect(await storage.get(keys.get(nested)!)).not.toBeNull();
    // The badge order's photo is still served to its owner.
    expect(
      (await a.request(`/api/v1/files/${inBadgeOrder}`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });

  it('two instances sweeping at once delete each file once', async () => {
    const storage = memoryStorage();
    const a = await createTestApp(database, {}, { now: () => clock, storage });
    const { token } = await signIn(a, 'sweep@example.com');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await (await upload(a, token, photo)).json()).uid);
    clock = new Date(clock.getTime() + 25 * HOUR);
    const pass = () =>
      housekeepingPass({ db: database.db, log: () => {}, now: () => clock, storage, unattachedHours: 24 });
    const [one, two] = await Promise.all([pass(), pass()]);
    expect(one.uploads + two.uploads).toBe(30);
    expect(await database.db.select().from(files).where(inArray(files.id, ids))).toHaveLength(0);
  });
});
