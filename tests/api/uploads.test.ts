import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { files } from '@server/db/schema';
import {
  authCookie,
  bearer,
  createTestApp,
  DATABASES,
  openTestDatabase,
  signIn,
  TEST_ORIGIN,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { JPEG, PDF, PNG, upload } from './fixtures';

describe.each(DATABASES)('uploads API (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    app = await createTestApp(database);
    ({ token } = await signIn(app, 'amy@example.com', 'Amy'));
  });

  const fileRows = () => database.db.select().from(files);

  /** A refusal: the status, the error body shape, and nothing stored. */
  async function expectRefused(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ code });
    expect(typeof body.message).toBe('string');
    expect(body.error).toBe(body.message);
    expect(await fileRows()).toHaveLength(0);
    return body;
  }

  it.each([
    ['png', PNG, 'photo.png', 'image/png'],
    ['jpeg', JPEG, 'photo.jpg', 'image/jpeg'],
    ['jpeg without a declared type', JPEG, 'photo.jpeg', ''],
  ])('accepts a %s personal photo and records its owner', async (_label, bytes, name, type) => {
    const res = await upload(app, token, { bytes, name, type });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ uid: expect.stringMatching(/^[0-9a-f-]{36}$/), name, url: `/api/v1/files/${body.uid}` });
    const rows = await fileRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: body.uid,
      purpose: 'personal_photo',
      size: bytes.length,
      contentType: name.endsWith('.png') ? 'image/png' : 'image/jpeg',
    });
  });

  it('keeps only the base name of a path-like file name', async () => {
    const res = await upload(app, token, { bytes: PNG, name: '../../etc/pass"wd.png', type: 'image/png' });
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('passwd.png');
  });

  it('refuses a .png that is really a PDF (content decides, not the name)', async () => {
    const body = await expectRefused(
      await upload(app, token, { bytes: PDF, name: 'photo.png', type: 'image/png' }),
      400,
      'unsupported_file_type',
    );
    expect(body.message).toMatch(/png, jpeg/);
  });

  it('refuses a declared type that contradicts the content', async () => {
    await expectRefused(
      await upload(app, token, { bytes: PNG, name: 'photo.png', type: 'image/jpeg' }),
      400,
      'unsupported_file_type',
    );
    await expectRefused(
      await upload(app, token, { bytes: JPEG, name: 'photo.jpg', type: 'application/pdf' }),
      400,
      'unsupported_file_type',
    );
  });

  it('refuses unknown content (a text file named .jpg)', async () => {
    await expectRefused(
      await upload(app, token, { bytes: Buffer.from('hello world'), name: 'photo.jpg', type: 'image/jpeg' }),
      400,
      'unsupported_file_type',
    );
  });

  it('refuses an empty file', async () => {
    await expectRefused(
      await upload(app, token, { bytes: new Uint8Array(0), name: 'photo.png', type: 'image/png' }),
      400,
      'empty_file',
    );
  });

  it('refuses a photo over 10 MB, and accepts one of exactly 10 MB', async () => {
    const limit = 10 * 1024 * 1024;
    const big = new Uint8Array(limit + 1);
    big.set(PNG);
    const body = await expectRefused(
      await upload(app, token, { bytes: big, name: 'big.png', type: 'image/png' }),
      400,
      'file_too_large',
    );
    expect(body.message).toMatch(/10 MB/);
    const exact = await upload(app, token, { bytes: big.subarray(0, limit), name: 'exact.png', type: 'image/png' });
    expect(exact.status).toBe(200);
  });

  it('caps the body before parsing it, with or without a content-length', async () => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' };
    const declared = await app.request('/api/v1/files/upload', {
      method: 'POST',
      headers: { ...headers, 'content-length': String(22 * 1024 * 1024) },
      body: 'x',
    });
    await expectRefused(declared, 400, 'file_too_large');
    // Chunked: no content-length; 22 MB arrive as a stream and must not be buffered whole.
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 22) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const chunked = await app.request('/api/v1/files/upload', {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectRefused(chunked, 400, 'file_too_large');
    expect(sent).toBeLessThanOrEqual(22);
  });

  it('refuses an unknown purpose', async () => {
    const body = await expectRefused(
      await upload(app, token, { bytes: PNG, name: 'photo.png', type: 'image/png' }, 'passport'),
      400,
      'invalid_purpose',
    );
    expect(body.message).toContain('personal_photo');
  });

  it('checks the kinds of each purpose: a PDF story outline yes, a PDF logo named .png no', async () => {
    expect(
      (await upload(app, token, { bytes: PDF, name: 'outline.pdf', type: 'application/pdf' }, 'story_outline')).status,
    ).toBe(200);
    expect(
      (await upload(app, token, { bytes: PNG, name: 'outline.png', type: 'image/png' }, 'story_outline')).status,
    ).toBe(400);
    expect((await upload(app, token, { bytes: PDF, name: 'logo.png', type: '' }, 'company_logo')).status).toBe(400);
    // An Illustrator file saved as PDF is a logo when it is named .ai.
    expect(
      (await upload(app, token, { bytes: PDF, name: 'logo.ai', type: 'application/pdf' }, 'company_logo')).status,
    ).toBe(200);
    expect(await fileRows()).toHaveLength(2);
  });

  it('refuses a form without a file part, and a body that is not multipart', async () => {
    const body = await expectRefused(await upload(app, token, null), 400, 'validation_failed');
    expect(body.message).toMatch(/file/);
    const notMultipart = await app.request('/api/v1/files/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await expectRefused(notMultipart, 400, 'unsupported_media_type');
  });

  it('answers 401 without a token, and stores nothing', async () => {
    await expectRefused(
      await upload(app, null, { bytes: PNG, name: 'photo.png', type: 'image/png' }),
      401,
      'unauthorized',
    );
  });

  it('serves a file to its owner (Bearer or the session cookie), 404 to anyone else, 401 without auth', async () => {
    const { uid } = await (await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' })).json();

    const own = await app.request(`/api/v1/files/${uid}`, bearer(token));
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(own.headers.get('content-disposition')).toContain("filename*=UTF-8''me.png");
    expect(Buffer.from(await own.arrayBuffer()).equals(PNG)).toBe(true);

    const byCookie = await app.request(`/api/v1/files/${uid}`, { headers: { cookie: authCookie(app, token) } });
    expect(byCookie.status).toBe(200);
    expect(Buffer.from(await byCookie.arrayBuffer()).equals(PNG)).toBe(true);

    const { token: bob } = await signIn(app, 'bob@example.com', 'Bob');
    const other = await app.request(`/api/v1/files/${uid}`, bearer(bob));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'not_found' });
    expect((await app.request(`/api/v1/files/${uid}`, { headers: { cookie: authCookie(app, bob) } })).status).toBe(404);

    const anonymous = await app.request(`/api/v1/files/${uid}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthorized' });

    expect((await app.request('/api/v1/files/not-a-uuid', bearer(token))).status).toBe(404);
    expect((await app.request('/api/v1/files/00000000-0000-4000-8000-000000000000', bearer(token))).status).toBe(404);
  });

  it('an upload authenticated by the session cookie must come from our own pages (decision 019)', async () => {
    const post = (headers: Record<string, string>) => {
      const form = new FormData();
      form.set('file', new File([PNG], 'photo.png', { type: 'image/png' }));
      form.set('purpose', 'personal_photo');
      return app.request('/api/v1/files/upload', {
        method: 'POST',
        body: form,
        headers: { cookie: authCookie(app, token), ...headers },
      });
    };
    await expectRefused(await post({}), 403, 'forbidden');
    await expectRefused(await post({ origin: 'https://evil.example' }), 403, 'forbidden');
    await expectRefused(await post({ 'sec-fetch-site': 'cross-site' }), 403, 'forbidden');
    expect((await post({ origin: TEST_ORIGIN })).status).toBe(200);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });
});
