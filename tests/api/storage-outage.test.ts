import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { files } from '@server/db/schema';
import { s3Storage } from '@server/files/s3-storage';
import { diskStorage, type DiskIo, type FileStorage } from '@server/files/storage';
import { PNG, upload } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestDatabase } from './helpers';

/*
 * Object storage and the disk failing (issue 20, decision 041): an S3 answer of 500 or 403, no
 * answer at all, a refused connection, a full disk. Uploads and downloads answer 503
 * `storage_unavailable` (507 `insufficient_storage` for a full disk) within seconds, the log says
 * storage (never "database unavailable"), nothing is recorded, no temporary file stays behind.
 */

type Mode = 'ok' | '500' | '403' | 'silent';

/** A fake S3 endpoint (path style): stores what is PUT while `ok`, else fails as `mode` says. */
async function fakeObjectStore() {
  let mode: Mode = 'ok';
  const objects = new Map<string, Buffer>();
  const sockets = new Set<Socket>();
  const s3Error = (res: http.ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
  };
  const server = http.createServer((req, res) => {
    if (mode === 'silent') return; // accepted, read, never answered
    if (mode === '500') return s3Error(res, 500, 'InternalError');
    if (mode === '403') return s3Error(res, 403, 'AccessDenied');
    const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT') {
        objects.set(key, Buffer.concat(chunks));
        res.writeHead(200, { etag: '"x"' }).end();
      } else if (req.method === 'GET' && objects.has(key)) {
        const body = objects.get(key)!;
        res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' }).end(body);
      } else if (req.method === 'HEAD') {
        res.writeHead(200).end();
      } else if (req.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204).end();
      } else s3Error(res, 404, 'NoSuchKey');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    setMode(next: Mode) {
      mode = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Line = { level: string; message: string; data?: Record<string, unknown> };

describe.each(DATABASES)('storage failures (%s)', (kind) => {
  let database: TestDatabase;
  let store: Awaited<ReturnType<typeof fakeObjectStore>>;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    store = await fakeObjectStore();
  });
  afterAll(async () => {
    await store.close();
    await database.close();
  });
  beforeEach(async () => {
    await database.reset();
    store.setMode('ok');
  });

  const fileRows = async () => (await database.db.select({ n: count() }).from(files))[0]!.n;

  async function appOn(storage: FileStorage) {
    const lines: Line[] = [];
    const app = await createTestApp(
      database,
      {},
      { storage, log: (level, message, data) => lines.push({ level, message, data }) },
    );
    const { token } = await signIn(app, 'storage@example.com');
    return { app, token, lines };
  }

  const bucket = () =>
    s3Storage({
      bucket: 'portal-uploads',
      endpoint: store.endpoint,
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      timeoutMs: 1_000,
    });

  it.each(['500', '403', 'silent'] as const)(
    'an object store answering %s: uploads and downloads answer 503 storage_unavailable within seconds, logged as storage',
    async (mode) => {
      const { app, token, lines } = await appOn(bucket());
      // A file stored while the bucket worked, read back after it fails.
      const stored = await upload(app, token, { bytes: PNG, name: 'before.png', type: 'image/png' });
      expect(stored.status).toBe(200);
      const { uid } = await stored.json();
      const rows = await fileRows();

      store.setMode(mode);
      const started = Date.now();
      const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toMatchObject({ code: 'storage_unavailable' });
      expect(await fileRows()).toBe(rows);

      const read = await app.request(`/api/v1/files/${uid}`, bearer(token));
      expect(read.status).toBe(503);
      expect(await read.json()).toMatchObject({ code: 'storage_unavailable' });

      const ready = await app.request('/readyz');
      expect(ready.status).toBe(503);
      expect((await ready.json()).checks.storage).toMatchObject({ status: 'fail' });

      const storageLines = lines.filter((l) => l.message === 'storage unavailable');
      expect(storageLines.length).toBeGreaterThanOrEqual(2);
      expect(storageLines[0]!.data).toMatchObject({ dependency: 'storage', operation: 'put' });
      expect(storageLines.map((l) => l.data!.operation)).toContain('get');
      expect(lines.some((l) => /database/.test(l.message))).toBe(false);
      expect(lines.some((l) => l.message === 'unhandled API error')).toBe(false);

      // The store answers again: so does the portal, nothing to restart.
      store.setMode('ok');
      expect((await upload(app, token, { bytes: PNG, name: 'after.png', type: 'image/png' })).status).toBe(200);
      expect((await app.request(`/api/v1/files/${uid}`, bearer(token))).status).toBe(200);
      expect((await app.request('/readyz')).status).toBe(200);
    },
  );

  it('an object store refusing connections answers 503 storage_unavailable, logged as storage (was "database unavailable")', async () => {
    const closed = await fakeObjectStore();
    await closed.close();
    const refusing = s3Storage({
      bucket: 'portal-uploads',
      endpoint: closed.endpoint,
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      timeoutMs: 1_000,
    });
    const { app, token, lines } = await appOn(refusing);
    const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'storage_unavailable' });
    const logged = lines.find((l) => l.message === 'storage unavailable');
    expect(logged?.data).toMatchObject({ dependency: 'storage', reason: expect.stringMatching(/ECONNREFUSED/) });
    expect(lines.some((l) => /database/.test(l.message))).toBe(false);
  });

  describe('a full disk', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'portal-full-disk-'));
    });
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** Every file under `dir`, relative. */
    const filesIn = (root: string) =>
      readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

    /** The disk fills up half-way through writing the temporary file, as ENOSPC does. */
    const fullDisk = (code: string): DiskIo => ({
      ...fs,
      async writeFile(path, data) {
        await fs.writeFile(path, (data as Uint8Array).subarray(0, 10));
        throw Object.assign(new Error(`${code}: no space left on device, write`), {
          code,
          errno: -28,
          syscall: 'write',
        });
      },
    });

    it('answers 507 insufficient_storage, keeps no temporary file and records nothing', async () => {
      const { app, token, lines } = await appOn(diskStorage(dir, fullDisk('ENOSPC')));
      const rows = await fileRows();
      const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' });
      expect(res.status).toBe(507);
      expect(await res.json()).toMatchObject({ code: 'insufficient_storage' });
      expect(res.headers.get('retry-after')).toBe('60');
      expect(filesIn(dir)).toEqual([]);
      expect(await fileRows()).toBe(rows);
      expect(lines.find((l) => l.message === 'storage unavailable')).toMatchObject({
        level: 'error',
        data: { dependency: 'storage', operation: 'put', reason: 'ENOSPC' },
      });
    });

    it('a quota used up (EDQUOT) is a full disk too; any other write error is 503 storage_unavailable', async () => {
      const quota = await appOn(diskStorage(dir, fullDisk('EDQUOT')));
      expect((await upload(quota.app, quota.token, { bytes: PNG, name: 'a.png', type: 'image/png' })).status).toBe(507);
      const io = await appOn(diskStorage(dir, fullDisk('EIO')));
      const res = await upload(io.app, io.token, { bytes: PNG, name: 'b.png', type: 'image/png' });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'storage_unavailable' });
      expect(filesIn(dir)).toEqual([]);
    });

    it('a disk with room stores the upload under its key (the temporary file renamed)', async () => {
      const { app, token } = await appOn(diskStorage(dir));
      const res = await upload(app, token, { bytes: PNG, name: 'me.png', type: 'image/png' });
      expect(res.status).toBe(200);
      const stored = filesIn(dir);
      expect(stored).toHaveLength(1);
      expect(stored[0]!.name).not.toMatch(/\.tmp$/);
    });
  });
});
