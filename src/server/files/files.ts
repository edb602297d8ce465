import { isUuid } from '@domain/validation';
import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { acceptedKind, MIME, sniffKind, UPLOAD_PURPOSES, type UploadPurpose } from '@domain/uploads';
import { DomainError } from '@domain/errors';
import type { Db, Tx } from '../db/client';
import { files } from '../db/schema';
import type { FileStorage } from './storage';

export type StoredFile = { uid: string; name: string; url: string };

export const fileUrl = (id: string) => `/api/v1/files/${id}`;

/** How much one user may upload in any 24 hours (UPLOAD_QUOTA_FILES, UPLOAD_QUOTA_BYTES). */
export type UploadQuota = { files: number; bytes: number };
const DAY_MS = 86_400_000;

/** The user's uploads of the last 24 hours: how many, how many bytes, and when the oldest was. */
async function usedQuota(db: Db | Tx, ownerId: string, now: Date) {
  const [row] = await db
    .select({
      files: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${files.size}), 0)::bigint`,
      oldest: sql<Date | string | null>`min(${files.createdAt})`,
    })
    .from(files)
    .where(and(eq(files.ownerId, ownerId), gt(files.createdAt, new Date(now.getTime() - DAY_MS))));
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0), oldest: row?.oldest ?? null };
}

/** 429 `upload_quota_exceeded`, with Retry-After until the oldest upload of the day leaves the window. */
function quotaExceeded(quota: UploadQuota, oldest: Date | string | null, now: Date) {
  const frees = oldest ? new Date(oldest).getTime() + DAY_MS : now.getTime() + DAY_MS;
  const seconds = Math.max(1, Math.ceil((frees - now.getTime()) / 1000));
  return new DomainError(
    'upload_quota_exceeded',
    `Upload limit reached: at most ${quota.files} files and ${Math.round(quota.bytes / 1024 / 1024)} MB in 24 hours`,
    { limit_files: quota.files, limit_bytes: quota.bytes },
    seconds,
  );
}

/**
 * Refuses an upload that cannot fit the user's daily quota, before its body is read: the files
 * of the last 24 hours, plus `incomingBytes` (the request's declared length, when it has one).
 */
export async function checkUploadQuota(db: Db, ownerId: string, quota: UploadQuota, incomingBytes: number, now: Date) {
  const used = await usedQuota(db, ownerId, now);
  if (used.files >= quota.files || used.bytes + incomingBytes > quota.bytes)
    throw quotaExceeded(quota, used.oldest, now);
}

/** Keeps what a file name needs for display and download; drops paths and control characters. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  return base.replace(/[\u0000-\u001f\u007f"]/g, '').slice(0, 200) || 'file';
}

/** Checks an upload by content, declared type and size, stores it, and records its owner. */
export async function saveUpload(
  db: Db,
  storage: FileStorage,
  input: { ownerId: string; purpose: string; file: File; quota: UploadQuota; now: Date },
): Promise<StoredFile> {
  if (!Object.hasOwn(UPLOAD_PURPOSES, input.purpose)) {
    throw new DomainError(
      'invalid_purpose',
      `Unknown upload purpose; use one of ${Object.keys(UPLOAD_PURPOSES).join(', ')}`,
    );
  }
  const purpose = input.purpose as UploadPurpose;
  const rule = UPLOAD_PURPOSES[purpose];
  const name = cleanName(input.file.name);
  if (input.file.size === 0) throw new DomainError('empty_file');
  if (input.file.size > rule.maxBytes) {
    throw new DomainError('file_too_large', `The file exceeds ${Math.round(rule.maxBytes / 1024 / 1024)} MB`);
  }
  const bytes = new Uint8Array(await input.file.arrayBuffer());
  const kind = acceptedKind(purpose, sniffKind(bytes), name);
  if (!kind) throw new DomainError('unsupported_file_type', `Accepted file types: ${rule.kinds.join(', ')}`);
  // A declared type that contradicts the content is refused (an image/png that is really a PDF).
  const declared = input.file.type;
  if (
    declared &&
    declared !== 'application/octet-stream' &&
    declared !== MIME[kind] &&
    !(kind === 'ai' && declared === 'application/pdf')
  ) {
    throw new DomainError('unsupported_file_type', `The declared type ${declared} does not match the file's content`);
  }
  const id = randomUUID();
  const storageKey = `${id.slice(0, 2)}/${id}`;
  await storage.put(storageKey, bytes);
  try {
    // The quota again, under a lock per user: uploads sent at once cannot pass it together.
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`upload-quota:${input.ownerId}`}, 0))`);
      const used = await usedQuota(tx, input.ownerId, input.now);
      if (used.files >= input.quota.files || used.bytes + bytes.length > input.quota.bytes)
        throw quotaExceeded(input.quota, used.oldest, input.now);
      await tx.insert(files).values({
        id,
        ownerId: input.ownerId,
        name,
        contentType: MIME[kind],
        size: bytes.length,
        storageKey,
        purpose,
        createdAt: input.now,
      });
    });
  } catch (error) {
    await storage.delete(storageKey).catch(() => {});
    throw error;
  }
  return { uid: id, name, url: fileUrl(id) };
}

/** A file of its owner (organisers later); anyone else gets nothing, as if it did not exist. */
export async function readOwnFile(db: Db, storage: FileStorage, ownerId: string, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.ownerId, ownerId)))
    .limit(1);
  if (!row) return null;
  const bytes = await storage.get(row.storageKey);
  return bytes ? { row, bytes } : null;
}

/**
 * Deletes uploads older than `olderThan` that nothing refers to: no badge's photo, no event's image,
 * no registration form (an order's applicant, exhibitor or story form) of their owner names them. Files are only
 * ever attached by their owner, so only the owner's forms are searched. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so instances sweeping at once take different files; the stored objects
 * go after the rows are gone (an object left behind by a failed delete is harmless, a row without
 * its object is not). Returns how many files went.
 */
export async function deleteUnattachedUploads(
  db: Db,
  storage: FileStorage,
  options: { olderThan: Date; batch?: number; log?: (message: string, data: Record<string, unknown>) => void },
): Promise<number> {
  const batch = options.batch ?? 100;
  let total = 0;
  for (let round = 0; round < 20; round++) {
    const result = (await db.execute(sql`
      with doomed as (
        select f.id from ${files} f
        where f.created_at < ${options.olderThan}
          and not exists (select 1 from badges b where b.personal_photo_file_id = f.id)
          and not exists (select 1 from events e where e.image_file_id = f.id)
          and not exists (
            select 1 from registrations r
            where r.user_id = f.owner_id
              and (position(f.id::text in r.form::text) > 0 or position(f.id::text in coalesce(r.contact::text, '')) > 0)
          )
        order by f.created_at
        limit ${batch}
        for update of f skip locked
      )
      delete from ${files} where id in (select id from doomed)
      returning storage_key`)) as unknown as { rows: { storage_key: string }[] };
    for (const { storage_key: key } of result.rows) {
      try {
        await storage.delete(key);
      } catch (error) {
        options.log?.('stored object of a deleted upload not removed', {
          key,
          errorClass: (error as Error)?.constructor?.name,
        });
      }
    }
    total += result.rows.length;
    if (result.rows.length < batch) break;
  }
  return total;
}
