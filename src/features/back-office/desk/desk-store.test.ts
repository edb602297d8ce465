import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { DeskBadge, PickupResult } from '@domain/desk';
import { HttpError, Offline, type DeskApi } from './desk-api';
import { deskBadge } from '@domain/desk-fixtures';
import type { Conflict, QueuedPickup, Snapshot } from './desk-db';
import { createDesk, isSearch, matches, pendingIds, shownBadge, type DeskDb, type OfflineCopy } from './desk-store';

/*
 * The badge desk's store without a browser: a fake API (answers set per test, calls recorded),
 * the device's storage in memory, a fixed clock.
 */

const ID = (n: number) => `6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5${n}`;
const codeOf = (n: number, signature = 'abcdefghijklmnopqrstuv') => `TCCF1.${ID(n)}.${signature}`;
const hash = (code: string) => createHash('sha256').update(code).digest('base64url');
const AT = '2026-11-24T02:00:00.000Z';

const badge = (n: number, over: Partial<DeskBadge> = {}): DeskBadge =>
  deskBadge(ID(n), {
    codeHash: hash(codeOf(n)),
    email: `holder${n}@example.com`,
    orderNo: `TC000${n}`,
    nameEn: `Badge ${n}`,
    ...over,
  });

const answer = (item: QueuedPickup, over: Partial<PickupResult> = {}): PickupResult => ({
  id: item.id,
  badgeId: item.badgeId,
  outcome: 'picked_up',
  refusal: null,
  pickedUpAt: item.at,
  pickedUpBy: 'me@example.com',
  pickedUpDesk: item.desk,
  ...over,
});

function memoryDb(snapshot: Partial<Snapshot> = {}, broken = false) {
  const queue = new Map<string, QueuedPickup>();
  const conflicts = new Map<string, Conflict>();
  const kv: Snapshot = { badges: [], fetchedAt: null, lastSync: null, ...snapshot };
  const meetingScans: { code: string; at: string }[] = [];
  const fail = () => {
    if (broken) throw new Error('no IndexedDB');
  };
  const db: DeskDb = {
    loadSnapshot: async () => (fail(), { ...kv }),
    saveBadges: async (badges, fetchedAt) => void Object.assign(kv, { badges, fetchedAt }),
    saveLastSync: async (at) => (kv.lastSync = at),
    queued: async () => (fail(), [...queue.values()]),
    enqueue: async (item) => (fail(), void queue.set(item.id, item)),
    dequeue: async (ids) => ids.forEach((id) => queue.delete(id)),
    conflicts: async () => [...conflicts.values()],
    addConflicts: async (items) => items.forEach((c) => conflicts.set(c.id, c)),
    dismissConflict: async (id) => void conflicts.delete(id),
    meetingScans: async () => [...meetingScans],
    saveMeetingScans: async (items) => void meetingScans.splice(0, meetingScans.length, ...items),
  };
  return { db, queue, conflicts, kv, meetingScans };
}

/** A desk over a fake API: `server` holds the list, and what each pick-up gets. */
function setup(
  opts: {
    online?: boolean;
    stored?: string | null;
    snapshot?: Partial<Snapshot>;
    broken?: boolean;
    keepOffline?: () => Promise<OfflineCopy>;
  } = {},
) {
  const server = {
    badges: [badge(1), badge(2), badge(3, { nameEn: 'Mei Chen', email: 'mei@example.com' })],
    calls: [] as string[],
    fail: null as Error | null,
    pickup: (item: QueuedPickup) => answer(item),
    /** A meeting code's answer: refused when it ends in `.bad`. */
    meeting: (code: string) => {
      if (code.endsWith('.bad')) throw new HttpError(400, 'invalid_meeting_code');
      return { companyName: 'Harbour Films', buyer: 'Amy', table: 'A1', startsAt: AT };
    },
  };
  const api: DeskApi = {
    badges: async () => {
      server.calls.push('badges');
      if (server.fail) throw server.fail;
      return { data: server.badges, at: AT };
    },
    verify: async (code) => {
      server.calls.push(`verify ${code}`);
      if (server.fail) throw server.fail;
      const found = server.badges.find((b) => b.codeHash === hash(code));
      if (found) return found;
      throw server.badges.some((b) => code.includes(b.id)) ? new HttpError(400, 'invalid') : new HttpError(404, 'nf');
    },
    pickups: async (desk, items) => {
      server.calls.push(`pickups ${desk} ${items.length}`);
      if (server.fail) throw server.fail;
      return items.map((i) => server.pickup(i));
    },
    meetingCheckIn: async (code) => {
      server.calls.push(`meeting ${code}`);
      if (server.fail) throw server.fail;
      return server.meeting(code);
    },
  };
  const local = memoryDb(opts.snapshot, opts.broken);
  const names = { value: opts.stored === undefined ? 'Front desk' : opts.stored };
  let online = opts.online ?? true;
  let ids = 0;
  let ms = 1000;
  const desk = createDesk({
    api,
    db: local.db,
    organiser: 'me@example.com',
    names: { get: () => names.value, set: (n) => (names.value = n) },
    online: () => online,
    now: () => new Date(AT),
    clock: () => (ms += 40),
    newId: () => `p${++ids}`,
    newDeskName: () => 'Desk QX7A',
    ...(opts.keepOffline ? { keepOffline: opts.keepOffline } : {}),
  });
  return {
    desk,
    server,
    local,
    names,
    state: () => desk.$state.get(),
    setOnline: (v: boolean) => (online = v),
  };
}

describe('badge desk store: start and sync', () => {
  it('starts from what the device keeps, then fetches the list when online', async () => {
    const { desk, server, state, local } = setup({
      snapshot: { badges: [badge(1)], fetchedAt: '2026-11-23T00:00:00Z' },
    });
    await desk.start();
    expect(server.calls).toEqual(['badges']);
    expect(state()).toMatchObject({ ready: true, online: true, desk: 'Front desk', fetchedAt: AT, lastSync: AT });
    expect(state().badges.size).toBe(3);
    expect(local.kv.badges).toHaveLength(3);
  });

  it('offline, answers from the list kept on the device and calls nothing; names a new desk', async () => {
    const { desk, server, state, names } = setup({
      online: false,
      stored: null,
      snapshot: { badges: [badge(1)], fetchedAt: '2026-11-23T00:00:00Z' },
    });
    await desk.start();
    expect(server.calls).toEqual([]);
    expect(state()).toMatchObject({ online: false, ready: true, desk: 'Desk QX7A', fetchedAt: '2026-11-23T00:00:00Z' });
    expect(names.value).toBe('Desk QX7A');
    expect(state().badges.size).toBe(1);
  });

  it('says so when the device cannot keep anything (storage), and still works online', async () => {
    const { desk, state } = setup({ broken: true });
    await desk.start();
    expect(state().problem).toBe('storage');
    expect(state().badges.size).toBe(3);
  });

  it('says it opens offline only once the worker kept the page; asks again after a sync until then', async () => {
    // The worker's answers, in turn: the network dropped before all was kept, then kept.
    const answers: OfflineCopy[] = ['missing', 'kept'];
    let release = () => {};
    const keepOffline = vi.fn(() => new Promise<OfflineCopy>((resolve) => (release = () => resolve(answers.shift()!))));
    const { desk, state } = setup({ keepOffline });
    const started = desk.start();
    expect(state().offlineCopy).toBe('checking');
    await started;
    // The sync does not wait for the worker, nor say more than it knows.
    expect(state().offlineCopy).toBe('checking');
    release();
    await vi.waitFor(() => expect(state().offlineCopy).toBe('missing'));
    expect(keepOffline).toHaveBeenCalledTimes(1);
    await desk.sync();
    expect(keepOffline).toHaveBeenCalledTimes(2);
    release();
    await vi.waitFor(() => expect(state().offlineCopy).toBe('kept'));
    // Kept: a sync does not ask again.
    await desk.sync();
    expect(keepOffline).toHaveBeenCalledTimes(2);
  });

  it('a worker that fails is "not yet"; a desk without one says it cannot open offline', async () => {
    const failing = setup({ keepOffline: () => Promise.reject(new Error('stopped')) });
    await failing.desk.start();
    await vi.waitFor(() => expect(failing.state().offlineCopy).toBe('missing'));
    const none = setup();
    await none.desk.start();
    expect(none.state().offlineCopy).toBe('unavailable');
  });

  it('a lost sign-in is told apart from the network being down', async () => {
    const { desk, server, state } = setup();
    await desk.start();
    server.fail = new HttpError(401, 'unauthorized');
    await desk.sync();
    expect(state()).toMatchObject({ problem: 'auth', online: true });
    server.fail = new Offline();
    await desk.sync();
    expect(state().online).toBe(false);
  });
});

describe('badge desk store: scans and searches', () => {
  it('answers a scan from the list on the device, then asks the server for its view', async () => {
    const { desk, server, state } = setup();
    await desk.start();
    await desk.check(codeOf(1));
    expect(state().result).toEqual({ kind: 'badge', badgeId: ID(1), via: 'code' });
    expect(shownBadge(state())?.nameEn).toBe('Badge 1');
    expect(server.calls).toContain(`verify ${codeOf(1)}`);
    expect(desk.answered()).toBe(40);
    expect(desk.answered()).toBeNull();
  });

  it('refuses text that is no code, and a code whose signature does not match the list', async () => {
    const { desk, state } = setup();
    await desk.start();
    await desk.check('hello');
    expect(state().result).toEqual({ kind: 'invalid' });
    await desk.check(codeOf(1, 'zzzzzzzzzzzzzzzzzzzzzz'));
    expect(state().result).toEqual({ kind: 'forged' });
  });

  it('a badge missing from the list: unknown offline; asked online (404 unknown, 400 not genuine)', async () => {
    const { desk, server, state, setOnline } = setup({ online: false });
    await desk.start();
    await desk.check(codeOf(9));
    expect(state().result).toEqual({ kind: 'unknown', offline: true });
    setOnline(true);
    desk.wentOnline();
    await desk.sync();
    await desk.check(codeOf(9));
    expect(state().result).toEqual({ kind: 'unknown', offline: false });
    // Issued after the list was fetched: the server knows it, and the desk adds it to its list.
    server.badges = [...server.badges, badge(8)];
    await desk.check(codeOf(8));
    expect(state().result).toEqual({ kind: 'badge', badgeId: ID(8), via: 'code' });
    expect(state().badges.has(ID(8))).toBe(true);
  });

  it('Enter on a code checks it and clears the field; on a search with one match, shows it', async () => {
    const { desk, state } = setup();
    await desk.start();
    desk.setText(codeOf(2));
    expect(isSearch(state())).toBe(false);
    await desk.submit();
    expect(state()).toMatchObject({ text: '', result: { kind: 'badge', badgeId: ID(2), via: 'code' } });
    desk.setText('mei@');
    expect(isSearch(state())).toBe(true);
    expect(matches(state()).map((b) => b.nameEn)).toEqual(['Mei Chen']);
    await desk.submit();
    expect(state().result).toEqual({ kind: 'badge', badgeId: ID(3), via: 'search' });
    expect(state().text).toBe('mei@');
  });
});

describe('badge desk store: hand-outs, the queue and conflicts', () => {
  it('offline, a hand-out waits in the queue (once, however often clicked) and is sent when the network is back', async () => {
    const { desk, server, state, local, setOnline } = setup({ online: false, snapshot: { badges: [badge(1)] } });
    await desk.start();
    await desk.check(codeOf(1));
    let focused = 0;
    const b = shownBadge(state())!;
    await Promise.all([desk.handOut(b, () => focused++), desk.handOut(b)]);
    expect(focused).toBe(1);
    expect(local.queue.size).toBe(1);
    expect(state().queue).toHaveLength(1);
    expect(pendingIds(state()).has(ID(1))).toBe(true);
    expect(state().result).toMatchObject({ kind: 'badge', badgeId: ID(1), handedOut: true });
    expect(shownBadge(state())).toMatchObject({ pickedUpBy: 'me@example.com', pickedUpDesk: 'Front desk' });
    expect(server.calls).toEqual([]);

    setOnline(true);
    desk.wentOnline();
    await desk.sync();
    expect(server.calls[0]).toBe('pickups Front desk 1');
    expect(local.queue.size).toBe(0);
    expect(state()).toMatchObject({ queue: [], conflicts: [], syncing: false });
  });

  it('a pick-up another desk made first comes back as a conflict, kept until dismissed', async () => {
    const { desk, server, state, setOnline } = setup({ online: false, snapshot: { badges: [badge(1), badge(2)] } });
    await desk.start();
    desk.changeDesk('  Desk Two ');
    await desk.handOut(badge(1));
    desk.changeDesk('');
    await desk.handOut(badge(2));
    server.pickup = (item) =>
      item.badgeId === ID(1)
        ? answer(item, { outcome: 'already_picked_up', pickedUpBy: 'b@x', pickedUpDesk: 'Desk One' })
        : answer(item);
    server.badges[0] = badge(1, { pickedUpAt: AT, pickedUpBy: 'b@x', pickedUpDesk: 'Desk One' });
    setOnline(true);
    await desk.sync();
    // The blank name was not taken: both pick-ups carry the last name typed.
    expect(server.calls[0]).toBe('pickups Desk Two 2');
    expect(state().conflicts.map((c) => [c.nameEn, c.desk, c.result.outcome])).toEqual([
      ['Badge 1', 'Desk Two', 'already_picked_up'],
    ]);
    expect(state().badges.get(ID(1))).toMatchObject({ pickedUpDesk: 'Desk One' });
    await desk.dismiss(state().conflicts[0]!.id);
    expect(state().conflicts).toEqual([]);
  });

  it('a queue the device cannot read for a moment stays as shown, and nothing is sent for it', async () => {
    const { desk, server, state, local } = setup({ online: false, snapshot: { badges: [badge(1)] } });
    await desk.start();
    await desk.handOut(badge(1));
    Object.assign(local.db, { queued: () => Promise.reject(new Error('IndexedDB busy')) });
    await desk.sync();
    await desk.dismiss('none');
    expect(state()).toMatchObject({ problem: 'storage' });
    expect(state().queue).toHaveLength(1);
    expect(server.calls).toEqual([]);
  });

  it('a failed send keeps the queue on the device', async () => {
    const { desk, server, state, local } = setup();
    await desk.start();
    server.fail = new HttpError(500, 'internal');
    await desk.handOut(badge(1));
    expect(state().problem).toBe('server');
    expect(local.queue.size).toBe(1);
    expect(state().queue).toHaveLength(1);
  });
});

describe('badge desk store: its listeners', () => {
  it('tells each listener of every change until it unsubscribes', async () => {
    const { desk } = setup();
    let changes = 0;
    const stop = desk.$state.listen(() => changes++);
    desk.setText('a');
    desk.setText('ab');
    expect(changes).toBe(2);
    stop();
    desk.setText('abc');
    expect(changes).toBe(2);
    expect(desk.$state.get().text).toBe('abc');
  });
});

describe('badge desk store: meeting codes at the table (issue 23)', () => {
  const MEETING = `TCCFM1.${ID(9)}.abcdefghijklmnopqrstuv`;

  it('online, a meeting code is checked in at once', async () => {
    const { desk, server, state } = setup();
    await desk.start();
    await desk.check(MEETING);
    expect(server.calls).toContain(`meeting ${MEETING}`);
    expect(state().result).toMatchObject({ kind: 'meeting', state: 'present', meeting: { table: 'A1' } });
    await desk.check(`${MEETING}.bad`);
    expect(state().result).toMatchObject({ kind: 'meeting', state: 'refused', reason: 'invalid_meeting_code' });
  });

  it('offline, the scan is kept on the device and sent at the next sync; a refusal is listed', async () => {
    const { desk, server, state, local, setOnline } = setup({ online: false });
    await desk.start();
    await desk.check(MEETING);
    await desk.check(`${MEETING}.bad`);
    expect(server.calls).toEqual([]);
    expect(state().result).toMatchObject({ kind: 'meeting', state: 'queued' });
    expect(local.meetingScans).toHaveLength(2);
    setOnline(true);
    desk.wentOnline();
    await vi.waitFor(() => expect(local.meetingScans).toHaveLength(0));
    expect(server.calls).toContain(`meeting ${MEETING}`);
    expect(state().meetingQueue).toEqual([]);
    expect(state().meetingRefusals).toEqual(['invalid_meeting_code']);
  });
});
