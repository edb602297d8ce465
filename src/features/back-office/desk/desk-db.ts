import type { DeskBadge, PickupItem, PickupResult } from '@domain/desk';

/*
 * What the badge desk keeps in the browser (IndexedDB, decision 028), so that it works offline and
 * across a reload: the edition's badge list and when it was fetched, the pick-ups not yet sent
 * (the queue), and the conflicts the server reported. A few lines over the raw API (no library).
 */

const NAME = 'tccf-badge-desk';
const VERSION = 1;

/** A pick-up made at this desk and not yet accepted by the server. */
export type QueuedPickup = PickupItem & { desk: string };

/** A pick-up of this desk the server did not take (another desk came first, or refused). */
export type Conflict = {
  /** The pick-up's id. */
  id: string;
  badgeId: string;
  nameEn: string;
  nameZh: string;
  orderNo: string;
  /** When and where this desk handed the badge out. */
  at: string;
  desk: string;
  result: PickupResult;
};

export type Snapshot = { badges: DeskBadge[]; fetchedAt: string | null; lastSync: string | null };

let opening: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(NAME, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('kv');
      db.createObjectStore('queue', { keyPath: 'id' });
      db.createObjectStore('conflicts', { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
  }).catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening;
}

/** Runs `work` on `store` in one transaction; resolves with its request's result once committed. */
async function run<T>(
  store: 'kv' | 'queue' | 'conflicts',
  mode: IDBTransactionMode,
  work: (s: IDBObjectStore) => IDBRequest<T> | void,
): Promise<T | undefined> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const request = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(request ? request.result : undefined);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export async function loadSnapshot(): Promise<Snapshot> {
  const [badges, fetchedAt, lastSync] = await Promise.all([
    run<DeskBadge[]>('kv', 'readonly', (s) => s.get('badges')),
    run<string>('kv', 'readonly', (s) => s.get('fetchedAt')),
    run<string>('kv', 'readonly', (s) => s.get('lastSync')),
  ]);
  return { badges: badges ?? [], fetchedAt: fetchedAt ?? null, lastSync: lastSync ?? null };
}

export async function saveBadges(badges: DeskBadge[], fetchedAt: string) {
  await run('kv', 'readwrite', (s) => {
    s.put(badges, 'badges');
    s.put(fetchedAt, 'fetchedAt');
  });
}

export const saveLastSync = (at: string) => run('kv', 'readwrite', (s) => s.put(at, 'lastSync'));

export const queued = async () => (await run<QueuedPickup[]>('queue', 'readonly', (s) => s.getAll())) ?? [];
export const enqueue = (item: QueuedPickup) => run('queue', 'readwrite', (s) => s.put(item));
export const dequeue = (ids: string[]) =>
  run('queue', 'readwrite', (s) => {
    for (const id of ids) s.delete(id);
  });

export const conflicts = async () => (await run<Conflict[]>('conflicts', 'readonly', (s) => s.getAll())) ?? [];
export const addConflicts = (items: Conflict[]) =>
  run('conflicts', 'readwrite', (s) => {
    for (const c of items) s.put(c);
  });
export const dismissConflict = (id: string) => run('conflicts', 'readwrite', (s) => s.delete(id));

/** A meeting's table scan not yet sent (issue 23): its code and when it was scanned. */
export type QueuedMeetingScan = { code: string; at: string };

export const meetingScans = async () =>
  (await run<QueuedMeetingScan[]>('kv', 'readonly', (s) => s.get('meetingScans'))) ?? [];
export const saveMeetingScans = (items: QueuedMeetingScan[]) =>
  run('kv', 'readwrite', (s) => s.put(items, 'meetingScans'));
