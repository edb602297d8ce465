import { DESK_NAME_MAX, DESK_SYNC_MAX, parsePickupCode, searchBadges, type DeskBadge } from '@domain/desk';
import { HttpError, Offline, type DeskApi, type MeetingScanAnswer } from './desk-api';
import type * as db from './desk-db';
import { applyResults, badgeMap, hashCode, type BadgeMap } from './desk-state';

/*
 * The badge desk's state and what it does (issue 11, decision 028), apart from its views: the
 * badges by id (each scan is answered from them), the pick-ups waiting on this device (the queue),
 * the conflicts the server reported, the connection, and the answer to the last scan or search.
 * The views read `$state` and call the actions; the API, the device's storage and the clock come
 * in as dependencies, so that the tests run it without a browser. `$state` is a store of a few
 * lines rather than nanostores': that one sits in the islands' shared chunk, whose weight would
 * take the desk over its 100 KB budget (decision 027); React reads it with useSyncExternalStore.
 */

/** A value and its listeners (the shape of a nanostores atom's get / set / subscribe). */
export function valueStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      for (const listener of listeners) listener();
    },
    /** Calls `listener` on each change; returns the unsubscribe. */
    listen(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The answer to a scan, a search, or a hand-out. */
export type DeskResult =
  | { kind: 'badge'; badgeId: string; via: 'code' | 'search'; handedOut?: boolean }
  | { kind: 'invalid' }
  | { kind: 'forged' }
  | { kind: 'unknown'; offline: boolean }
  /** A meeting's table scan (issue 23): checked in, kept on this device until online, or refused. */
  | { kind: 'meeting'; state: 'present'; meeting: MeetingScanAnswer }
  | { kind: 'meeting'; state: 'queued' }
  | { kind: 'meeting'; state: 'refused'; reason: string };

/**
 * Whether a reload without network shows the desk (decision 076): not known yet, the page and its
 * files are kept by the service worker that controls it, not all kept yet, or not on this browser.
 */
export type OfflineCopy = 'checking' | 'kept' | 'missing' | 'unavailable';

/** Why the desk cannot work as it should: signed out, no storage on this device, the server refused. */
export type DeskProblem = 'auth' | 'storage' | 'server';

export type DeskState = {
  badges: BadgeMap;
  /** The list kept on this device is loaded. */
  ready: boolean;
  online: boolean;
  /** Whether the desk opens offline; it says `kept` only once the service worker said so. */
  offlineCopy: OfflineCopy;
  syncing: boolean;
  lastSync: string | null;
  /** When the server listed the badges the desk holds. */
  fetchedAt: string | null;
  queue: db.QueuedPickup[];
  /** Newest first. */
  conflicts: db.Conflict[];
  problem: DeskProblem | null;
  /** The desk's name as typed (its pick-ups carry the trimmed name). */
  desk: string;
  /** The scan field's text. */
  text: string;
  result: DeskResult | null;
  /** Meeting scans waiting on this device. */
  meetingQueue: db.QueuedMeetingScan[];
  /** Meeting scans the server refused when they were synced (their reasons), newest first. */
  meetingRefusals: string[];
};

/** What the desk keeps on the device (./desk-db.ts over IndexedDB; the tests give a map). */
export type DeskDb = Pick<
  typeof db,
  | 'loadSnapshot'
  | 'saveBadges'
  | 'saveLastSync'
  | 'queued'
  | 'enqueue'
  | 'dequeue'
  | 'conflicts'
  | 'addConflicts'
  | 'dismissConflict'
> &
  Partial<Pick<typeof db, 'meetingScans' | 'saveMeetingScans'>>;

export type DeskDeps = {
  api: DeskApi;
  db: DeskDb;
  /** The signed-in organiser's e-mail (shown on this desk's own pick-ups until they sync). */
  organiser: string;
  /** Where the desk's name is kept across reloads (localStorage). */
  names: { get(): string | null; set(name: string): void };
  /** What the browser says of the network. */
  online: () => boolean;
  now?: () => Date;
  /** Milliseconds for the scan-to-answer figure. */
  clock?: () => number;
  newId?: () => string;
  newDeskName?: () => string;
  /** Told each badge list fetched (the photos' cache). */
  onList?: (badges: DeskBadge[]) => void;
  /** Has the page and its files kept for a reload offline; resolves to what the device holds (./desk-offline.ts). */
  keepOffline?: () => Promise<OfflineCopy>;
};

const initial = (): DeskState => ({
  badges: new Map(),
  ready: false,
  online: true,
  offlineCopy: 'checking',
  syncing: false,
  lastSync: null,
  fetchedAt: null,
  queue: [],
  conflicts: [],
  problem: null,
  desk: '',
  text: '',
  result: null,
  meetingQueue: [],
  meetingRefusals: [],
});

/** A meeting's check-in code (issue 23) rather than a badge's. */
const isMeetingCode = (text: string) => /^\s*TCCFM1\./i.test(text);

/** Text that is (or starts as) a pick-up code rather than a search. */
const looksLikeCode = (text: string) => /^\s*TCCF/i.test(text);

/** The badge ids with a pick-up waiting on this device. */
export const pendingIds = (s: DeskState) => new Set(s.queue.map((q) => q.badgeId));

/** The scan field's text is a search (two letters or more, not a code). */
export const isSearch = (s: DeskState) => s.text.trim().length >= 2 && !looksLikeCode(s.text);

/** The badges the search finds. */
export const matches = (s: DeskState) => (isSearch(s) ? searchBadges(s.badges.values(), s.text) : []);

/** The badge the answer shows. */
export const shownBadge = (s: DeskState) => (s.result?.kind === 'badge' ? s.badges.get(s.result.badgeId) : undefined);

export function createDesk(deps: DeskDeps) {
  const now = deps.now ?? (() => new Date());
  const clock = deps.clock ?? (() => performance.now());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const newDeskName = deps.newDeskName ?? (() => `Desk ${Math.random().toString(36).slice(2, 6).toUpperCase()}`);
  const $state = valueStore<DeskState>(initial());
  const get = () => $state.get();
  const set = (patch: Partial<DeskState>) => $state.set({ ...get(), ...patch });
  /** The name this desk's pick-ups carry (the last non-empty one typed). */
  let deskName = '';
  let flushing = false;
  /** When the scan or search being answered started (`clock()`), for the scan-to-answer figure. */
  let startedAt: number | null = null;
  const handingOut = new Set<string>();

  const show = (result: DeskResult) => set({ result });

  /** The queue on the device; null when it cannot be read (no IndexedDB: problem `storage`). */
  const queued = () =>
    deps.db.queued().catch(() => {
      set({ problem: 'storage' });
      return null;
    });

  /** The queue and conflicts as the device holds them (what cannot be read stays as shown). */
  const reloadLocal = async () => {
    const [queue, conflicts] = await Promise.all([queued(), deps.db.conflicts().catch(() => null)]);
    set({
      queue: queue ?? get().queue,
      conflicts: conflicts ? conflicts.sort((a, b) => b.at.localeCompare(a.at)) : get().conflicts,
    });
  };

  const synced = async () => {
    const at = now().toISOString();
    set({ lastSync: at, online: true, problem: get().problem === 'storage' ? 'storage' : null });
    await deps.db.saveLastSync(at).catch(() => {});
  };

  /** A failed exchange: offline, signed out, or refused by the server; the queue stays on the device. */
  const failed = (error: unknown) => {
    if (error instanceof Offline) set({ online: false });
    else if (error instanceof HttpError && (error.status === 401 || error.status === 403)) set({ problem: 'auth' });
    else set({ problem: 'server' });
  };

  /** Sends the queued pick-ups (by desk, in batches); applies the answers; keeps the refusals as conflicts. */
  async function flush() {
    if (flushing) return;
    const items = await queued();
    if (!items?.length) return;
    flushing = true;
    set({ syncing: true });
    try {
      const byDesk = new Map<string, db.QueuedPickup[]>();
      for (const item of items) byDesk.set(item.desk, [...(byDesk.get(item.desk) ?? []), item]);
      for (const [name, group] of byDesk)
        for (let i = 0; i < group.length; i += DESK_SYNC_MAX) {
          const chunk = group.slice(i, i + DESK_SYNC_MAX);
          const answers = await deps.api.pickups(name, chunk);
          const applied = applyResults(get().badges, chunk, answers);
          await deps.db.dequeue(chunk.map((c) => c.id));
          if (applied.conflicts.length) await deps.db.addConflicts(applied.conflicts);
          set({ badges: applied.map });
        }
      await synced();
    } catch (error) {
      failed(error);
    } finally {
      flushing = false;
      set({ syncing: false });
      await reloadLocal();
    }
  }

  /** The meeting scans kept on this device, as shown. */
  async function saveMeetingQueue(items: db.QueuedMeetingScan[]) {
    set({ meetingQueue: items });
    await deps.db.saveMeetingScans?.(items).catch(() => set({ problem: 'storage' }));
  }

  /** Sends the meeting scans kept on this device; a refused one is listed, never dropped silently. */
  async function flushMeetings() {
    const send = deps.api.meetingCheckIn;
    if (!send) return;
    for (const item of [...get().meetingQueue]) {
      try {
        await send(item.code);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status >= 500 || error.status === 401 || error.status === 403) {
          failed(error);
          return;
        }
        set({ meetingRefusals: [error.code, ...get().meetingRefusals] });
      }
      await saveMeetingQueue(get().meetingQueue.filter((q) => q !== item));
    }
  }

  /**
   * A meeting's code at the table: sent now when online (the server checks the signature); kept on
   * this device and sent with the next sync when offline, as pick-ups are.
   */
  async function checkMeeting(code: string) {
    const send = deps.api.meetingCheckIn;
    if (!send) return show({ kind: 'invalid' });
    if (get().online)
      try {
        return show({ kind: 'meeting', state: 'present', meeting: await send(code) });
      } catch (error) {
        if (error instanceof HttpError && error.status < 500 && error.status !== 401 && error.status !== 403)
          return show({ kind: 'meeting', state: 'refused', reason: error.code });
        failed(error);
      }
    await saveMeetingQueue([...get().meetingQueue, { code, at: now().toISOString() }]);
    show({ kind: 'meeting', state: 'queued' });
  }

  /** Has the page kept for a reload offline (at start, then after each sync until it is). */
  async function keepOffline() {
    if (!deps.keepOffline) return set({ offlineCopy: 'unavailable' });
    set({ offlineCopy: await deps.keepOffline().catch((): OfflineCopy => 'missing') });
  }

  /** Fetches the edition's badge list again (the queue stays laid over it). */
  async function refreshList() {
    try {
      const list = await deps.api.badges();
      await deps.db.saveBadges(list.data, list.at).catch(() => set({ problem: 'storage' }));
      set({ badges: badgeMap(list.data, (await queued()) ?? [], deps.organiser), fetchedAt: list.at });
      await synced();
      deps.onList?.(list.data);
      // Online again: what could not be kept before (the network dropped meanwhile) is now.
      if (get().offlineCopy === 'missing') void keepOffline();
    } catch (error) {
      failed(error);
    }
  }

  /** Sends the queue, then (still online) fetches the list. */
  async function sync() {
    await flush();
    if (get().online) await flushMeetings();
    if (get().online) await refreshList();
  }

  /** The desk's name, the list, queue and conflicts kept on this device; then a sync when online. */
  async function start() {
    const stored = deps.names.get();
    deskName = stored?.trim() || newDeskName();
    if (!stored) deps.names.set(deskName);
    set({ desk: deskName, online: deps.online() });
    void keepOffline();
    try {
      const snapshot = await deps.db.loadSnapshot();
      set({
        badges: badgeMap(snapshot.badges, await deps.db.queued(), deps.organiser),
        fetchedAt: snapshot.fetchedAt,
        lastSync: snapshot.lastSync,
      });
      await reloadLocal();
      set({ meetingQueue: (await deps.db.meetingScans?.()) ?? [] });
    } catch {
      set({ problem: 'storage' });
    }
    set({ ready: true });
    if (deps.online()) await sync();
  }

  /** The server's view of a code (online); the badge it returns replaces the one the desk holds. */
  async function verifyOnline(code: string): Promise<DeskBadge | 'offline' | 'invalid' | 'unknown'> {
    try {
      const badge = await deps.api.verify(code);
      const pending = ((await queued()) ?? []).filter((q) => q.badgeId === badge.id);
      const next = new Map(get().badges);
      next.set(badge.id, badgeMap([badge], pending, deps.organiser).get(badge.id)!);
      set({ badges: next });
      return badge;
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return 'invalid';
      if (error instanceof HttpError && error.status === 404) return 'unknown';
      if (error instanceof Offline) {
        set({ online: false });
        return 'offline';
      }
      failed(error);
      return 'offline';
    }
  }

  /** A scanned or typed code: checked against the list on this device first. */
  async function check(raw: string) {
    const code = raw.trim();
    if (!code) return;
    startedAt = clock();
    if (isMeetingCode(code)) return checkMeeting(code);
    const parsed = parsePickupCode(code);
    if (!parsed) return show({ kind: 'invalid' });
    const local = get().badges.get(parsed.badgeId);
    if (local) {
      const genuine = (await hashCode(code)) === local.codeHash;
      show(genuine ? { kind: 'badge', badgeId: local.id, via: 'code' } : { kind: 'forged' });
      // Online, the server's view of this badge (picked up at another desk a moment ago?).
      if (genuine && get().online) void verifyOnline(code);
      return;
    }
    if (!get().online) return show({ kind: 'unknown', offline: true });
    const found = await verifyOnline(code);
    if (found === 'offline') show({ kind: 'unknown', offline: true });
    else if (found === 'invalid') show({ kind: 'forged' });
    else if (found === 'unknown') show({ kind: 'unknown', offline: false });
    else show({ kind: 'badge', badgeId: found.id, via: 'code' });
  }

  /** Shows a badge found by search. */
  function open(badgeId: string) {
    startedAt = clock();
    show({ kind: 'badge', badgeId, via: 'search' });
  }

  /** Enter in the scan field: a code is checked (and the field cleared); a search with one match shows it. */
  async function submit() {
    const value = get().text;
    if (parsePickupCode(value) || looksLikeCode(value)) {
      set({ text: '' });
      return check(value);
    }
    const found = searchBadges(get().badges.values(), value, 2);
    if (found.length === 1) open(found[0]!.id);
  }

  /**
   * Hands a badge out: queued on this device at once (`queued` is called then), then sent when
   * online — the server decides. Without storage on the device it is sent now, or not at all.
   */
  async function handOut(badge: DeskBadge, queued?: () => void) {
    // A double click hands it out once.
    if (handingOut.has(badge.id)) return;
    handingOut.add(badge.id);
    const item: db.QueuedPickup = { id: newId(), badgeId: badge.id, at: now().toISOString(), desk: deskName };
    try {
      await deps.db.enqueue(item);
    } catch {
      set({ problem: 'storage' });
      handingOut.delete(badge.id);
      if (!get().online) return;
      try {
        const answers = await deps.api.pickups(item.desk, [item]);
        set({
          badges: applyResults(get().badges, [item], answers).map,
          result: { kind: 'badge', badgeId: badge.id, via: 'code', handedOut: true },
        });
      } catch (error) {
        failed(error);
      }
      return;
    }
    const next = new Map(get().badges);
    next.set(badge.id, { ...badge, pickedUpAt: item.at, pickedUpBy: deps.organiser, pickedUpDesk: item.desk });
    set({ badges: next });
    await reloadLocal();
    const r = get().result;
    show({ kind: 'badge', badgeId: badge.id, via: r?.kind === 'badge' ? r.via : 'code', handedOut: true });
    queued?.();
    handingOut.delete(badge.id);
    if (get().online) await flush();
  }

  /** The desk's name as typed; a non-empty one is kept for the next pick-ups and the next visit. */
  function changeDesk(value: string) {
    set({ desk: value });
    const name = value.trim().slice(0, DESK_NAME_MAX);
    if (name) {
      deskName = name;
      deps.names.set(name);
    }
  }

  async function dismiss(conflictId: string) {
    await deps.db.dismissConflict(conflictId);
    await reloadLocal();
  }

  return {
    $state,
    start,
    sync,
    flush,
    check,
    submit,
    open,
    handOut,
    changeDesk,
    dismiss,
    setText: (text: string) => set({ text }),
    /** The browser says the network is back: sync. */
    wentOnline: () => {
      set({ online: true });
      void sync();
    },
    wentOffline: () => set({ online: false }),
    /** The answer was shown: the scan-to-answer figure is taken once. */
    answered: () => {
      if (startedAt === null) return null;
      const ms = Math.round(clock() - startedAt);
      startedAt = null;
      return ms;
    },
  };
}

export type Desk = ReturnType<typeof createDesk>;
