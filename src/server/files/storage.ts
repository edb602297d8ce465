import * as fs from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { DomainError } from '@domain/errors';

/** Where uploaded bytes live; the database keeps only the key (on disk, or an S3 bucket). */
export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the object; a key that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Resolves when the storage can be used now (readiness); rejects saying why not. */
  check?(): Promise<void>;
}

/**
 * The storage failed (decision 041): `storage_unavailable` (503, retry later: the store answered
 * an error, refused, or did not answer in time) or `insufficient_storage` (507: the disk is
 * full). The API logs it as a storage failure with its cause, never as the database's.
 */
export class StorageError extends DomainError {
  constructor(
    code: 'storage_unavailable' | 'insufficient_storage',
    readonly operation: 'put' | 'get' | 'delete' | 'check',
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(code);
    this.name = 'StorageError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** Errno codes of a disk that has no room left (ENOSPC) or a quota that is used up (EDQUOT). */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** The file system calls disk storage makes (tests replace them to simulate a full disk). */
export type DiskIo = Pick<typeof fs, 'mkdir' | 'readFile' | 'rename' | 'unlink' | 'writeFile' | 'access'>;

/** Files on disk under `root` (default DATA_DIR/uploads). Keys are generated, never user input. */
export function diskStorage(root: string, io: DiskIo = fs): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!/^[a-z0-9/-]+$/i.test(key)) throw new Error('bad storage key');
    return join(base, key);
  };
  const failure = (operation: StorageError['operation'], error: unknown) => {
    const code = (error as NodeJS.ErrnoException)?.code ?? 'unknown';
    return new StorageError(FULL.has(code) ? 'insufficient_storage' : 'storage_unavailable', operation, code, {
      cause: error,
    });
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      const temporary = `${path}.tmp`;
      try {
        await io.mkdir(dirname(path), { recursive: true });
        // Write then rename: a reader never sees half a file.
        await io.writeFile(temporary, bytes);
        await io.rename(temporary, path);
      } catch (error) {
        // A full disk leaves half a file behind: never keep it.
        await io.unlink(temporary).catch(() => {});
        throw failure('put', error);
      }
    },
    async get(key) {
      const path = pathOf(key);
      try {
        return new Uint8Array(await io.readFile(path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw failure('get', error);
      }
    },
    async delete(key) {
      const path = pathOf(key);
      try {
        await io.unlink(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw failure('delete', error);
      }
    },
    async check() {
      try {
        await io.mkdir(base, { recursive: true });
        await io.access(base, fs.constants.W_OK);
      } catch (error) {
        throw failure('check', error);
      }
    },
  };
}

/** In-memory storage for tests; `size()` tells how many objects it holds. */
export function memoryStorage(): FileStorage & { size(): number } {
  const files = new Map<string, Uint8Array>();
  return {
    async put(key, bytes) {
      files.set(key, bytes);
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async delete(key) {
      files.delete(key);
    },
    size: () => files.size,
  };
}
