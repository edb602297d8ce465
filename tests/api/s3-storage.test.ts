import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { files } from '@server/db/schema';
import { parseConfig } from '@server/config';
import { uploadStorage } from '@server/server-app';
import { s3Storage } from '@server/files/s3-storage';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';
import { PNG, upload } from './fixtures';

/**
 * Uploads in an S3-compatible bucket (decision 023), against a real S3 server on a local port
 * (`@20minutes/s3rver`: the S3 REST protocol with signature V4 checks, objects on disk).
 */
const BUCKET = 'portal-uploads';
let s3: S3rver;
let s3Dir: string;
let endpoint: string;

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 'portal-s3-test-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = (await s3.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

/** The configuration an instance of a cluster gets (s3rver's fixed key pair). */
const s3Env = () => ({
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: endpoint,
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
  S3_PREFIX: 'test/',
});

describe('S3 storage', () => {
  it('is chosen by S3_BUCKET, and stores, reads and deletes objects under the prefix', async () => {
    const storage = uploadStorage(parseConfig(s3Env())) as ReturnType<typeof s3Storage>;
    expect(typeof storage.delete).toBe('function');
    const bytes = new Uint8Array([1, 2, 3, 250]);
    await storage.put('ab/abcdef', bytes);
    expect(Array.from((await storage.get('ab/abcdef'))!)).toEqual([1, 2, 3, 250]);
    // Really in the bucket, under the prefix (not somewhere in the process).
    const direct = s3Storage({ ...storageOptions(), prefix: '' });
    expect(await direct.get('test/ab/abcdef')).not.toBeNull();
    await storage.delete('ab/abcdef');
    expect(await storage.get('ab/abcdef')).toBeNull();
    // Deleting what is not there is harmless.
    await storage.delete('ab/abcdef');
  });

  it('refuses keys that are not generated ones', async () => {
    const storage = s3Storage(storageOptions());
    await expect(storage.put('../etc/passwd', new Uint8Array([1]))).rejects.toThrow('bad storage key');
  });

  it('fails loudly on wrong credentials (never "no file")', async () => {
    const storage = s3Storage({ ...storageOptions(), secretAccessKey: 'wrong-secret' });
    await expect(storage.get('ab/abcdef')).rejects.toThrow();
  });

  it('refuses half a key pair and an endpoint without a bucket', () => {
    expect(() => parseConfig({ S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: 'x' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => parseConfig({ S3_ENDPOINT: 'http://127.0.0.1:9' })).toThrow(/S3_BUCKET is required/);
    expect(() => parseConfig({ S3_BUCKET: 'Not A Bucket' })).toThrow(/S3_BUCKET/);
  });
});

const storageOptions = () => ({
  bucket: BUCKET,
  endpoint,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  prefix: 'test/',
});

describe.each(DATABASES)('uploads API on S3 storage (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  // Both instances verify tokens with the same identity keys (in production: the provider's JWKS).
  const keyDir = mkdtempSync(join(tmpdir(), 'portal-s3-key-'));
  const keyFile = join(keyDir, 'dev-identity-key.json');
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
    rmSync(keyDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.reset();
    // The app as an instance of a cluster builds it: storage from the configuration.
    const config = parseConfig(s3Env());
    app = await createTestApp(database, s3Env(), { storage: uploadStorage(config), devIdentityKeyFile: keyFile });
  });

  it('stores an upload in the bucket, serves it to its owner only, and forgets it once deleted', async () => {
    const { token: amy } = await signIn(app, 'amy@example.com', 'Amy');
    const { token: ben } = await signIn(app, 'ben@example.com', 'Ben');
    const res = await upload(app, amy, { bytes: PNG, name: 'me.png', type: 'image/png' });
    expect(res.status).toBe(200);
    const { uid } = await res.json();
    const [row] = await database.db.select().from(files);
    expect(row).toMatchObject({ id: uid, size: PNG.length });

    // Another app over the same database and bucket (a second instance) reads it back.
    const other = await createTestApp(database, s3Env(), {
      storage: uploadStorage(parseConfig(s3Env())),
      devIdentityKeyFile: keyFile,
    });
    const read = await other.request(`/api/v1/files/${uid}`, bearer(amy));
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await read.arrayBuffer()).equals(PNG)).toBe(true);

    // Not to another user, nor without a token: as if it did not exist.
    const refused = await app.request(`/api/v1/files/${uid}`, bearer(ben));
    expect(refused.status).toBe(404);
    expect((await refused.json()).code).toBe('not_found');
    expect((await app.request(`/api/v1/files/${uid}`)).status).toBe(401);

    // The object is in the bucket; deleted there, the owner gets a 404 too (no stale copy).
    const bucket = s3Storage(storageOptions());
    expect(await bucket.get(row!.storageKey)).not.toBeNull();
    await bucket.delete(row!.storageKey);
    expect(await bucket.get(row!.storageKey)).toBeNull();
    expect((await app.request(`/api/v1/files/${uid}`, bearer(amy))).status).toBe(404);
  });
});
