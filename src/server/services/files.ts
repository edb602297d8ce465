import { isUuid } from '@domain/validation';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { acceptedKind, MIME, sniffKind, UPLOAD_PURPOSES, type UploadPurpose } from '@domain/uploads';
import { ApiError, badRequest } from '../api/errors';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import type { FileStorage } from './storage';

export type StoredFile = { uid: string; name: string; url: string };

export const fileUrl = (id: string) => `/api/v1/files/${id}`;

/** Keeps what a file name needs for display and download; drops paths and control characters. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  return base.replace(/[\u0000-\u001f\u007f"]/g, '').slice(0, 200) || 'file';
}

/** Checks an upload by content, declared type and size, stores it, and records its owner. */
export async function saveUpload(
  db: Db,
  storage: FileStorage,
  input: { ownerId: string; purpose: string; file: File },
): Promise<StoredFile> {
  if (!Object.hasOwn(UPLOAD_PURPOSES, input.purpose)) {
    throw badRequest(
      'invalid_purpose',
      `Unknown upload purpose; use one of ${Object.keys(UPLOAD_PURPOSES).join(', ')}`,
    );
  }
  const purpose = input.purpose as UploadPurpose;
  const rule = UPLOAD_PURPOSES[purpose];
  const name = cleanName(input.file.name);
  if (input.file.size === 0) throw badRequest('empty_file', 'The file is empty');
  if (input.file.size > rule.maxBytes) {
    throw new ApiError(400, 'file_too_large', `The file exceeds ${Math.round(rule.maxBytes / 1024 / 1024)} MB`);
  }
  const bytes = new Uint8Array(await input.file.arrayBuffer());
  const kind = acceptedKind(purpose, sniffKind(bytes), name);
  if (!kind) throw badRequest('unsupported_file_type', `Accepted file types: ${rule.kinds.join(', ')}`);
  // A declared type that contradicts the content is refused (an image/png that is really a PDF).
  const declared = input.file.type;
  if (
    declared &&
    declared !== 'application/octet-stream' &&
    declared !== MIME[kind] &&
    !(kind === 'ai' && declared === 'application/pdf')
  ) {
    throw badRequest('unsupported_file_type', `The declared type ${declared} does not match the file's content`);
  }
  const id = randomUUID();
  const storageKey = `${id.slice(0, 2)}/${id}`;
  await storage.put(storageKey, bytes);
  await db
    .insert(files)
    .values({ id, ownerId: input.ownerId, name, contentType: MIME[kind], size: bytes.length, storageKey, purpose });
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
