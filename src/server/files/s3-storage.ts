import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { FileStorage } from './storage';

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
  /** Per call (each retried by the SDK); 10 s. */
  timeoutMs?: number;
};

/**
 * Uploads in an S3-compatible bucket (decision 023), so every instance behind the load balancer
 * reads what another stored. Objects stay private: the portal never hands out bucket URLs, the
 * files route reads the bytes and serves them to their owner only (DESIGN D11).
 */
export function s3Storage(options: S3StorageOptions): FileStorage & { delete(key: string): Promise<void> } {
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
    maxAttempts: 3,
  });
  const prefix = (options.prefix ?? '').replace(/^\/+/, '');
  const keyOf = (key: string) => {
    if (!/^[a-z0-9/-]+$/i.test(key)) throw new Error('bad storage key');
    return `${prefix}${key}`;
  };
  const signal = () => AbortSignal.timeout(options.timeoutMs ?? 10_000);
  return {
    async put(key, bytes) {
      // A PUT is atomic in S3: a reader sees the whole object or none.
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: keyOf(key),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: 'application/octet-stream',
        }),
        { abortSignal: signal() },
      );
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: keyOf(key) }), {
          abortSignal: signal(),
        });
        return res.Body ? await res.Body.transformToByteArray() : null;
      } catch (error) {
        // A missing object is "no file" (as on disk); anything else (auth, network) is an error.
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.name === 'NotFound'))
          return null;
        throw error;
      }
    },
    async delete(key) {
      // S3 answers 204 for a key that is not there: deleting twice is harmless.
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: keyOf(key) }), {
        abortSignal: signal(),
      });
    },
  };
}
