import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { withinBudget } from '../ops/within-budget';
import { StorageError, type FileStorage } from './storage';

export type S3StorageOptions = {
  bucket: string;
  /** S3-compatible endpoint (MinIO, R2, a local server); unset = AWS for `region`. */
  endpoint?: string | undefined;
  region: string;
  /** Static credentials; unset = the SDK's default chain (environment, instance role …). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted stores). */
  forcePathStyle?: boolean;
  /** Prepended to every key (one bucket shared by several portals or editions). */
  prefix?: string | undefined;
  /** Per call, its retry included (S3_TIMEOUT_MS); 5 s. */
  timeoutMs?: number;
};

/** Opening a connection to the store (within the call's timeout). */
const CONNECT_TIMEOUT_MS = 2_000;

/** What failed, for the log: the store's error name and HTTP status, or the network error. */
function reasonOf(error: unknown): string {
  if (error instanceof S3ServiceException) return `${error.name} ${error.$metadata?.httpStatusCode ?? ''}`.trim();
  const e = error as { name?: string; code?: string; message?: string } | undefined;
  const name = [e?.name, e?.code].filter(Boolean).join(' ') || 'Error';
  return e?.message ? `${name}: ${e.message}`.slice(0, 160) : name;
}

/**
 * Uploads in an S3-compatible bucket (decision 023), so every instance behind the load balancer
 * reads what another stored. Objects stay private: the portal never hands out bucket URLs, the
 * files route reads the bytes and serves them to their owner only (DESIGN D11).
 */
export function s3Storage(options: S3StorageOptions): FileStorage & { delete(key: string): Promise<void> } {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: several S3-compatible stores refuse the CRC32
    // trailers the SDK sends by default since 2025.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // One retry; the call as a whole ends at timeoutMs anyway (decision 041): a store that does
    // not answer costs a request seconds, not the SDK's default of no timeout at all.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs), requestTimeout: timeoutMs },
  });
  const prefix = (options.prefix ?? '').replace(/^\/+/, '');
  const keyOf = (key: string) => {
    if (!/^[a-z0-9/-]+$/i.test(key)) throw new Error('bad storage key');
    return `${prefix}${key}`;
  };
  const signal = () => AbortSignal.timeout(timeoutMs);
  /** Runs a call; any failure of the store (an error answer, none, a refusal) is a StorageError. */
  const call = async <T>(operation: StorageError['operation'], run: () => Promise<T>): Promise<T> => {
    try {
      // The SDK's abort covers the request; the budget also covers reading a body that stalls.
      return await withinBudget(run(), timeoutMs + 500, 'object storage');
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError('storage_unavailable', operation, reasonOf(error), { cause: error });
    }
  };
  return {
    async put(key, bytes) {
      const Key = keyOf(key);
      // A PUT is atomic in S3: a reader sees the whole object or none.
      return call('put', async () => {
        await client.send(
          new PutObjectCommand({
            Bucket: options.bucket,
            Key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: 'application/octet-stream',
          }),
          { abortSignal: signal() },
        );
      });
    },
    async get(key) {
      const Key = keyOf(key);
      return call('get', async () => {
        try {
          const abortSignal = signal();
          const res = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key }), { abortSignal });
          return res.Body ? await res.Body.transformToByteArray() : null;
        } catch (error) {
          // A missing object is "no file" (as on disk); anything else (auth, network) is an error.
          if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.name === 'NotFound'))
            return null;
          throw error;
        }
      });
    },
    async delete(key) {
      const Key = keyOf(key);
      // S3 answers 204 for a key that is not there: deleting twice is harmless.
      return call('delete', async () => {
        await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key }), { abortSignal: signal() });
      });
    },
    async check() {
      return call('check', async () => {
        await client.send(new HeadBucketCommand({ Bucket: options.bucket }), { abortSignal: signal() });
      });
    },
  };
}
