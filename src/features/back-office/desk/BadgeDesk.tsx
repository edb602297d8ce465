import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import {
  DESK_NAME_MAX,
  DESK_SYNC_MAX,
  parsePickupCode,
  searchBadges,
  type DeskBadge,
  type DeskRefusal,
  type PickupResult,
} from '@domain/desk';
import { formatDateTime } from '@domain/format';
import type { Messages } from '@i18n/t';
import type { CameraScan } from './camera';
import * as store from './desk-db';
import { applyResults, badgeMap, badgeState, hashCode, type BadgeMap } from './desk-state';

export type BadgeDeskProps = {
  locale: string;
  messages: Messages;
  /** The signed-in organiser's e-mail (shown on this desk's own pick-ups until they sync). */
  organiser: string;
  /** The desk's service worker (public/desk-sw.js, decision 028). */
  serviceWorker: string;
};

/** The cache the service worker serves the badge photos' thumbnails from (public/desk-sw.js). */
const PHOTO_CACHE = 'desk-photos-v1';
const DESK_NAME_KEY = 'tccf-desk-name';
/** How often an online desk sends its queue and fetches the badge list again. */
const SYNC_EVERY_MS = 30_000;

class Offline extends Error {}
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/*
 * The desk keeps to its own few helpers instead of the islands' shared ones (API client, auth
 * store, translator, wire casing): those live in the islands' shared chunk, whose weight (with the
 * dialogs it can load) would take the page over its 100 KB budget (decision 027).
 */

/**
 * The agency mode's identity token: the cookie the sign-in sets (and the layout mirrors into
 * localStorage). In OIDC mode there is none a script can read: the session cookie goes along.
 */
const token = () => {
  const match = /(?:^|; )idc-token=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : (localStorage.getItem('idc-token') ?? '');
};

/** The islands' `{{name}}` translator (src/i18n/t.ts), over the messages picked on the server. */
const createT =
  (messages: Messages) =>
  (key: string, values?: Record<string, string | number>): string => {
    const text = messages[key] ?? key;
    return values ? text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? '')) : text;
  };

/** The API's snake_case keys in camelCase (its answers are plain JSON: objects, arrays, values). */
function camel<T>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => camel(v)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camel(v)]),
    ) as T;
  return value as T;
}

/** One call to the desk's API (the body in wire casing); `Offline` when the network or server cannot be reached. */
async function call<T>(path: string, body?: Record<string, unknown>): Promise<T> {
  let res: Response;
  const bearer = token();
  try {
    res = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(8000),
    });
  } catch {
    throw new Offline();
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status >= 502) throw new Offline();
  if (!res.ok) throw new HttpError(res.status, typeof data.code === 'string' ? data.code : `http_${res.status}`);
  return camel<T>(data);
}

/** Milliseconds for the scan-to-answer figure. */
const clock = () => performance.now();

const newDeskName = () => `Desk ${Math.random().toString(36).slice(2, 6).toUpperCase()}`;

type Result =
  | { kind: 'badge'; badgeId: string; via: 'code' | 'search'; handedOut?: boolean }
  | { kind: 'invalid' }
  | { kind: 'forged' }
  | { kind: 'unknown'; offline: boolean };

/**
 * The badge desk (issue 11): scan a badge's QR code (USB scanner into the field, the camera, or a
 * photo), see the badge with its photo and whether it was already picked up, and hand it out.
 * Works offline (decision 028): each scan is answered from the badge list kept in memory and in
 * IndexedDB, pick-ups wait in a queue there and are sent when the network is back; the server's
 * refusals come back as conflicts, listed until dismissed.
 */
export default function BadgeDesk(props: BadgeDeskProps) {
  const t = createT(props.messages);
  const ids = { input: useId(), desk: useId(), photo: useId() };

  // The badges by id: state for rendering, and a ref for the asynchronous work (sync, scans).
  const [badges, setBadges] = useState<BadgeMap>(() => new Map());
  const mapRef = useRef<BadgeMap>(badges);
  const setMap = (map: BadgeMap) => {
    mapRef.current = map;
    setBadges(map);
  };
  const [ready, setReady] = useState(false);
  const [online, setOnlineState] = useState(true);
  const onlineRef = useRef(true);
  const setOnline = (value: boolean) => {
    onlineRef.current = value;
    setOnlineState(value);
  };
  const [syncing, setSyncing] = useState(false);
  const [lastSync, setLastSync] = useState<string | null>(null);
  const [fetchedAt, setFetchedAt] = useState<string | null>(null);
  const [queue, setQueue] = useState<store.QueuedPickup[]>([]);
  const [conflicts, setConflicts] = useState<store.Conflict[]>([]);
  const [problem, setProblem] = useState<'auth' | 'storage' | 'server' | null>(null);
  const [desk, setDesk] = useState('');
  const [text, setText] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const [cameraOn, setCameraOn] = useState(false);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState(false);

  const inputRef = useRef<HTMLInputElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const resultRef = useRef<HTMLElement>(null);
  const cameraRef = useRef<CameraScan | null>(null);
  const scanStarted = useRef<number | null>(null);
  const flushing = useRef(false);
  const deskRef = useRef('');
  const handingOut = useRef(new Set<string>());

  const time = (iso: string) => formatDateTime(iso).split(' ')[1] ?? iso;
  const reason = (r: DeskRefusal | null) => (r ? t(`admin.desk.refusal.${r}`) : '');

  const reloadLocal = async () => {
    setQueue(await store.queued());
    setConflicts((await store.conflicts()).sort((a, b) => b.at.localeCompare(a.at)));
  };
  const synced = async () => {
    const at = new Date().toISOString();
    setLastSync(at);
    setOnline(true);
    setProblem((p) => (p === 'storage' ? p : null));
    await store.saveLastSync(at).catch(() => {});
  };
  /** A failed exchange: offline, signed out, or refused by the server; the queue stays on the device. */
  const failed = (error: unknown) => {
    if (error instanceof Offline) setOnline(false);
    else if (error instanceof HttpError && (error.status === 401 || error.status === 403)) setProblem('auth');
    else setProblem('server');
  };

  /** Sends the queued pick-ups (by desk, in batches); applies the answers; keeps the refusals as conflicts. */
  async function flush(): Promise<PickupResult[]> {
    if (flushing.current) return [];
    const items = await store.queued();
    if (items.length === 0) return [];
    flushing.current = true;
    setSyncing(true);
    const answers: PickupResult[] = [];
    try {
      const byDesk = new Map<string, store.QueuedPickup[]>();
      for (const item of items) byDesk.set(item.desk, [...(byDesk.get(item.desk) ?? []), item]);
      for (const [name, group] of byDesk)
        for (let i = 0; i < group.length; i += DESK_SYNC_MAX) {
          const chunk = group.slice(i, i + DESK_SYNC_MAX);
          const res = await call<{ data: PickupResult[] }>('/api/v1/admin/desk/pickups', {
            desk: name,
            pickups: chunk.map(({ id, badgeId, at }) => ({ id, badge_id: badgeId, at })),
          });
          const applied = applyResults(mapRef.current, chunk, res.data);
          await store.dequeue(chunk.map((c) => c.id));
          if (applied.conflicts.length) await store.addConflicts(applied.conflicts);
          setMap(applied.map);
          answers.push(...res.data);
        }
      await synced();
    } catch (error) {
      failed(error);
    } finally {
      flushing.current = false;
      setSyncing(false);
      await reloadLocal();
    }
    return answers;
  }

  /** Fetches the edition's badge list again (the queue stays laid over it) and caches the photos. */
  async function refreshList() {
    try {
      const res = await call<{ data: DeskBadge[]; meta: { at: string } }>('/api/v1/admin/desk/badges');
      await store.saveBadges(res.data, res.meta.at);
      setMap(badgeMap(res.data, await store.queued(), props.organiser));
      setFetchedAt(res.meta.at);
      await synced();
      void cachePhotos(res.data);
    } catch (error) {
      failed(error);
    }
  }

  const sync = async () => {
    await flush();
    if (onlineRef.current) await refreshList();
  };

  // Start: the service worker, the stored desk name, the list, queue and conflicts kept on this
  // device, then a sync; again every 30 s and whenever the browser says it is back online.
  useEffect(() => {
    let stopped = false;
    void registerServiceWorker(props.serviceWorker);
    void (async () => {
      const stored = localStorage.getItem(DESK_NAME_KEY);
      const name = stored?.trim() || newDeskName();
      deskRef.current = name;
      setDesk(name);
      if (!stored) localStorage.setItem(DESK_NAME_KEY, name);
      setOnline(navigator.onLine);
      try {
        const snapshot = await store.loadSnapshot();
        const queued = await store.queued();
        if (stopped) return;
        setMap(badgeMap(snapshot.badges, queued, props.organiser));
        setFetchedAt(snapshot.fetchedAt);
        setLastSync(snapshot.lastSync);
        await reloadLocal();
      } catch {
        setProblem('storage');
      }
      setReady(true);
      if (navigator.onLine) await sync();
    })();
    const goOnline = () => {
      setOnline(true);
      void sync();
    };
    const goOffline = () => setOnline(false);
    addEventListener('online', goOnline);
    addEventListener('offline', goOffline);
    const timer = setInterval(() => {
      if (navigator.onLine) void sync();
    }, SYNC_EVERY_MS);
    return () => {
      stopped = true;
      removeEventListener('online', goOnline);
      removeEventListener('offline', goOffline);
      clearInterval(timer);
      cameraRef.current?.stop();
    };
    // Mount only: the functions above read the latest state through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The time from a scan to its answer on screen (the browser test reads it; issue 11 asks < 300 ms).
  useEffect(() => {
    if (scanStarted.current === null || !resultRef.current) return;
    resultRef.current.dataset.answerMs = String(Math.round(clock() - scanStarted.current));
    scanStarted.current = null;
  }, [result]);

  const show = (next: Result) => setResult(next);

  /** A scanned or typed text: a pick-up code is checked against the list on this device first. */
  async function check(raw: string) {
    const code = raw.trim();
    if (!code) return;
    scanStarted.current = clock();
    const parsed = parsePickupCode(code);
    if (!parsed) {
      show({ kind: 'invalid' });
      return;
    }
    const local = mapRef.current.get(parsed.badgeId);
    if (local) {
      const genuine = (await hashCode(code)) === local.codeHash;
      show(genuine ? { kind: 'badge', badgeId: local.id, via: 'code' } : { kind: 'forged' });
      // Online, the server's view of this badge (picked up at another desk a moment ago?).
      if (genuine && onlineRef.current) void verifyOnline(code);
      return;
    }
    if (!onlineRef.current) {
      show({ kind: 'unknown', offline: true });
      return;
    }
    const found = await verifyOnline(code);
    if (found === 'offline') show({ kind: 'unknown', offline: true });
    else if (found === 'invalid') show({ kind: 'forged' });
    else if (found === 'unknown') show({ kind: 'unknown', offline: false });
    else show({ kind: 'badge', badgeId: found.id, via: 'code' });
  }

  async function verifyOnline(code: string): Promise<DeskBadge | 'offline' | 'invalid' | 'unknown'> {
    try {
      const res = await call<{ data: DeskBadge }>('/api/v1/admin/desk/verify', { code });
      const pending = (await store.queued()).filter((q) => q.badgeId === res.data.id);
      const next = new Map(mapRef.current);
      next.set(res.data.id, badgeMap([res.data], pending, props.organiser).get(res.data.id)!);
      setMap(next);
      return res.data;
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) return 'invalid';
      if (error instanceof HttpError && error.status === 404) return 'unknown';
      if (error instanceof Offline) {
        setOnline(false);
        return 'offline';
      }
      failed(error);
      return 'offline';
    }
  }

  /** Hands a badge out: queued on this device at once, then sent (online) — the server decides. */
  async function handOut(badge: DeskBadge) {
    // A double click hands it out once.
    if (handingOut.current.has(badge.id)) return;
    handingOut.current.add(badge.id);
    const item: store.QueuedPickup = {
      id: crypto.randomUUID(),
      badgeId: badge.id,
      at: new Date().toISOString(),
      desk: deskRef.current,
    };
    try {
      await store.enqueue(item);
    } catch {
      // Without IndexedDB the pick-up cannot wait for the network: sent now, or not at all.
      setProblem('storage');
      handingOut.current.delete(badge.id);
      if (!onlineRef.current) return;
      try {
        const res = await call<{ data: PickupResult[] }>('/api/v1/admin/desk/pickups', {
          desk: item.desk,
          pickups: [{ id: item.id, badge_id: item.badgeId, at: item.at }],
        });
        setMap(applyResults(mapRef.current, [item], res.data).map);
        setResult({ kind: 'badge', badgeId: badge.id, via: 'code', handedOut: true });
      } catch (error) {
        failed(error);
      }
      return;
    }
    const next = new Map(mapRef.current);
    next.set(badge.id, { ...badge, pickedUpAt: item.at, pickedUpBy: props.organiser, pickedUpDesk: item.desk });
    setMap(next);
    await reloadLocal();
    setResult((r) => ({
      kind: 'badge',
      badgeId: badge.id,
      via: r?.kind === 'badge' ? r.via : 'code',
      handedOut: true,
    }));
    inputRef.current?.focus();
    handingOut.current.delete(badge.id);
    if (onlineRef.current) await flush();
  }

  function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = text;
    if (parsePickupCode(value) || /^\s*TCCF/i.test(value)) {
      // A code: checked, and the field cleared for the next scan.
      setText('');
      void check(value);
      return;
    }
    // A search with one match: Enter shows it.
    const found = searchBadges(mapRef.current.values(), value, 2);
    if (found.length === 1) setResult({ kind: 'badge', badgeId: found[0]!.id, via: 'search' });
  }

  async function toggleCamera() {
    setCameraError(null);
    if (cameraRef.current) {
      cameraRef.current.stop();
      cameraRef.current = null;
      setCameraOn(false);
      return;
    }
    if (!navigator.mediaDevices?.getUserMedia) {
      setCameraError(t('admin.desk.camera.unsupported'));
      return;
    }
    setCameraOn(true);
    try {
      const { startCamera } = await import('./camera');
      cameraRef.current = await startCamera(videoRef.current!, (code) => void check(code));
    } catch (error) {
      setCameraOn(false);
      const name = (error as { name?: string }).name;
      setCameraError(
        t(
          name === 'NotAllowedError'
            ? 'admin.desk.camera.denied'
            : name === 'NotFoundError' || name === 'OverconstrainedError'
              ? 'admin.desk.camera.none'
              : 'admin.desk.camera.failed',
        ),
      );
    }
  }

  async function onPhoto(file: File | undefined) {
    setPhotoError(false);
    if (!file) return;
    try {
      const { readPhoto } = await import('./camera');
      const code = await readPhoto(file);
      if (code) await check(code);
      else setPhotoError(true);
    } catch {
      setPhotoError(true);
    }
  }

  function changeDesk(value: string) {
    setDesk(value);
    const name = value.trim().slice(0, DESK_NAME_MAX);
    if (name) {
      deskRef.current = name;
      localStorage.setItem(DESK_NAME_KEY, name);
    }
  }

  const pendingIds = new Set(queue.map((q) => q.badgeId));
  const searching = text.trim().length >= 2 && !/^\s*TCCF/i.test(text);
  const matches = searching ? searchBadges(badges.values(), text) : [];
  const shown = result?.kind === 'badge' ? badges.get(result.badgeId) : undefined;

  return (
    <div className="space-y-6">
      <section aria-labelledby="desk-scan-heading" className="card space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="desk-scan-heading" className="text-lg font-semibold">
            {t('admin.desk.scan.heading')}
          </h2>
          {/* At a glance (the status panel below says it to screen readers). */}
          <span
            aria-hidden="true"
            className={`rounded-full px-3 py-0.5 text-sm font-semibold ${online ? 'bg-green-100 text-green-900' : 'bg-red-100 text-red-900'}`}
          >
            {t('admin.desk.pill', {
              state: online ? t('admin.desk.status.online') : t('admin.desk.status.offline'),
              count: queue.length,
            })}
          </span>
        </div>
        <form onSubmit={onSubmit} className="flex flex-col gap-1">
          <label htmlFor={ids.input} className="font-semibold">
            {t('admin.desk.scan.label')}
          </label>
          <div className="flex flex-wrap gap-2">
            <input
              id={ids.input}
              ref={inputRef}
              value={text}
              onChange={(e) => setText(e.target.value)}
              // A USB scanner types into the focused field: the desk keeps the focus here.
              autoFocus
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${ids.input}-hint`}
              className="min-w-0 flex-1 rounded-md border border-neutral-500 bg-white px-3 py-2 font-mono"
            />
            <button type="submit" className="btn-primary">
              {t('admin.desk.scan.button')}
            </button>
          </div>
          <span id={`${ids.input}-hint`} className="text-xs text-neutral-600">
            {t('admin.desk.scan.hint')}
          </span>
        </form>
        <div className="flex flex-wrap items-center gap-4">
          <button type="button" className="btn-secondary" onClick={() => void toggleCamera()} aria-pressed={cameraOn}>
            {cameraOn ? t('admin.desk.camera.stop') : t('admin.desk.camera.start')}
          </button>
          <label htmlFor={ids.photo} className="text-sm">
            <span className="block font-semibold">{t('admin.desk.photo.label')}</span>
            <input
              id={ids.photo}
              type="file"
              accept="image/*"
              capture="environment"
              onChange={(e) => {
                void onPhoto(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
        </div>
        <video
          ref={videoRef}
          aria-label={t('admin.desk.camera.video')}
          className={cameraOn ? 'w-full max-w-md rounded-md bg-black' : 'hidden'}
          muted
          playsInline
        />
        {cameraError && (
          <p role="alert" className="text-red-700">
            {cameraError}
          </p>
        )}
        {photoError && (
          <p role="alert" className="text-red-700">
            {t('admin.desk.photo.none')}
          </p>
        )}
        {searching && (
          <div>
            <h3 className="mb-2 font-semibold">{t('admin.desk.search.heading')}</h3>
            {matches.length === 0 ? (
              <p>{t('admin.desk.search.none')}</p>
            ) : (
              <ul className="divide-y divide-neutral-200 rounded-md border border-neutral-300 bg-white">
                {matches.map((b) => (
                  <li key={b.id} className="flex items-center justify-between gap-3 px-3 py-2">
                    <span>
                      <span className="block font-semibold">
                        {b.nameZh ? `${b.nameZh} · ` : ''}
                        {b.nameEn}
                      </span>
                      <span className="block text-sm text-neutral-600">
                        {b.email} · {b.orderNo}
                      </span>
                    </span>
                    <button
                      type="button"
                      className="btn-secondary"
                      onClick={() => {
                        scanStarted.current = clock();
                        setResult({ kind: 'badge', badgeId: b.id, via: 'search' });
                      }}
                    >
                      {t('admin.desk.search.open', { name: b.nameEn })}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </section>

      <section
        ref={resultRef}
        aria-labelledby="desk-result-heading"
        aria-live="polite"
        className="card space-y-3"
        data-testid="desk-result"
      >
        <h2 id="desk-result-heading" className="text-lg font-semibold">
          {t('admin.desk.result.heading')}
        </h2>
        {!result && <p className="text-neutral-700">{t('admin.desk.result.empty')}</p>}
        {result?.kind === 'invalid' && <p className="font-semibold text-red-700">{t('admin.desk.result.invalid')}</p>}
        {result?.kind === 'forged' && <p className="font-semibold text-red-700">{t('admin.desk.result.forged')}</p>}
        {result?.kind === 'unknown' && (
          <p className="font-semibold text-red-700">
            {result.offline
              ? t('admin.desk.result.unknownOffline', {
                  time: fetchedAt ? formatDateTime(fetchedAt) : t('admin.desk.status.never'),
                })
              : t('admin.desk.result.unknown')}
          </p>
        )}
        {result?.kind === 'badge' && shown && (
          <BadgeCard
            badge={shown}
            state={badgeState(shown, pendingIds)}
            mine={!!result.handedOut && shown.pickedUpBy === props.organiser && shown.pickedUpDesk === desk.trim()}
            viaSearch={result.via === 'search'}
            t={t}
            time={time}
            reason={reason}
            onHandOut={() => void handOut(shown)}
          />
        )}
      </section>

      <section aria-labelledby="desk-conflicts-heading" className="card space-y-3">
        <h2 id="desk-conflicts-heading" className="text-lg font-semibold">
          {t('admin.desk.conflicts.heading')}
        </h2>
        {conflicts.length === 0 ? (
          <p className="text-neutral-700">{t('admin.desk.conflicts.none')}</p>
        ) : (
          <ul className="space-y-2">
            {conflicts.map((c) => (
              <li key={c.id} className="flex flex-wrap items-start justify-between gap-3 rounded-md bg-amber-50 p-3">
                <span>
                  <span className="block font-semibold">
                    {c.nameZh ? `${c.nameZh} · ` : ''}
                    {c.nameEn} ({c.orderNo})
                  </span>
                  <span className="block">{t('admin.desk.conflicts.yours', { time: time(c.at), desk: c.desk })}</span>
                  <span className="block">
                    {c.result.outcome === 'already_picked_up'
                      ? t('admin.desk.conflicts.already', {
                          time: c.result.pickedUpAt ? time(c.result.pickedUpAt) : '',
                          by: c.result.pickedUpBy ?? '',
                          desk: c.result.pickedUpDesk ?? '',
                        })
                      : c.result.outcome === 'refused'
                        ? t('admin.desk.conflicts.refused', { reason: reason(c.result.refusal) })
                        : t('admin.desk.conflicts.notFound')}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => void store.dismissConflict(c.id).then(reloadLocal)}
                >
                  {t('admin.desk.conflicts.dismiss')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="desk-status-heading" className="card space-y-3">
        <h2 id="desk-status-heading" className="text-lg font-semibold">
          {t('admin.desk.status.heading')}
        </h2>
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[minmax(10rem,auto)_1fr]">
          <dt className="text-neutral-600">{t('admin.desk.status.connection')}</dt>
          <dd>
            <span role="status" className={`font-semibold ${online ? 'text-green-800' : 'text-red-700'}`}>
              {online ? t('admin.desk.status.online') : t('admin.desk.status.offline')}
            </span>
            {/* Kept in the layout (hidden) so that the panel does not move when a sync starts. */}
            <span className={`ms-2 text-neutral-700 ${syncing ? '' : 'invisible'}`} aria-hidden={!syncing}>
              {t('admin.desk.status.syncing')}
            </span>
          </dd>
          <dt className="text-neutral-600">{t('admin.desk.status.lastSync')}</dt>
          <dd>{lastSync ? formatDateTime(lastSync) : t('admin.desk.status.never')}</dd>
          <dt className="text-neutral-600">{t('admin.desk.status.pending')}</dt>
          <dd data-testid="pending-count">{queue.length}</dd>
          <dt className="text-neutral-600">{t('admin.desk.status.conflicts')}</dt>
          <dd>{conflicts.length}</dd>
          <dt className="text-neutral-600">{t('admin.desk.status.cached')}</dt>
          <dd>
            {ready ? badges.size : '…'}
            <span className="block text-neutral-600">
              {fetchedAt ? t('admin.desk.status.listFrom', { time: formatDateTime(fetchedAt) }) : '\u00a0'}
            </span>
          </dd>
        </dl>
        {!online && <p className="text-sm">{t('admin.desk.status.offlineHint')}</p>}
        {problem && (
          <p role="alert" className="font-semibold text-red-700">
            {t(`admin.desk.status.${problem === 'auth' ? 'authLost' : problem}`)}
          </p>
        )}
        <div className="flex flex-wrap items-end gap-4">
          <button type="button" className="btn-secondary" onClick={() => void sync()} disabled={syncing}>
            {t('admin.desk.syncNow')}
          </button>
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.desk} className="text-sm font-semibold">
              {t('admin.desk.desk.label')}
            </label>
            <input
              id={ids.desk}
              value={desk}
              maxLength={DESK_NAME_MAX}
              onChange={(e) => changeDesk(e.target.value)}
              aria-describedby={`${ids.desk}-hint`}
              className="rounded-md border border-neutral-500 bg-white px-3 py-1.5"
            />
            <span id={`${ids.desk}-hint`} className="text-xs text-neutral-600">
              {t('admin.desk.desk.hint')}
            </span>
          </div>
        </div>
      </section>
    </div>
  );
}

function BadgeCard(props: {
  badge: DeskBadge;
  state: ReturnType<typeof badgeState>;
  /** This desk just handed it out, and the server (or the queue) holds this desk's pick-up. */
  mine: boolean;
  viaSearch: boolean;
  t: ReturnType<typeof createT>;
  time: (iso: string) => string;
  reason: (r: DeskRefusal | null) => string;
  onHandOut: () => void;
}) {
  const { badge: b, state, t, time } = props;
  const company = [b.companyNameZh, b.companyNameEn].filter(Boolean).join(' · ');
  const pickedUp = {
    time: b.pickedUpAt ? time(b.pickedUpAt) : '',
    by: b.pickedUpBy ?? '',
    desk: b.pickedUpDesk ?? '',
  };
  return (
    <div className="flex flex-col gap-4 sm:flex-row">
      {b.photoUrl ? (
        <img
          src={b.photoUrl}
          alt={t('admin.desk.photoAlt', { name: b.nameEn })}
          width={120}
          height={120}
          className="h-[120px] w-[120px] rounded-md border border-neutral-300 object-cover"
        />
      ) : (
        <p className="flex h-[120px] w-[120px] items-center justify-center rounded-md border border-neutral-300 text-sm text-neutral-700">
          {t('admin.desk.noPhoto')}
        </p>
      )}
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-2xl font-bold">
          {b.nameZh && (
            <span className="block" lang="zh-TW">
              {b.nameZh}
            </span>
          )}
          <span className="block" lang="en">
            {b.nameEn}
          </span>
        </p>
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {company && (
            <>
              <dt className="text-neutral-600">{t('admin.desk.field.company')}</dt>
              <dd>{company}</dd>
            </>
          )}
          <dt className="text-neutral-600">{t('admin.desk.field.identity')}</dt>
          <dd>{t(`identity.${b.identity}`)}</dd>
          <dt className="text-neutral-600">{t('admin.desk.field.order')}</dt>
          <dd className="font-mono">{b.orderNo}</dd>
          <dt className="text-neutral-600">{t('admin.desk.field.email')}</dt>
          <dd>{b.email}</dd>
        </dl>
        {props.viaSearch && <p className="text-sm">{t('admin.desk.viaSearch')}</p>}
        {state === 'ready' && (
          <>
            <p className="font-semibold text-green-800">{t('admin.desk.state.ready')}</p>
            <button type="button" className="btn-primary" onClick={props.onHandOut}>
              {t('admin.desk.handOut')}
            </button>
          </>
        )}
        {state === 'pending' && (
          <p className="font-semibold text-green-800">{t('admin.desk.state.pending', { time: pickedUp.time })}</p>
        )}
        {state === 'picked_up' &&
          (props.mine ? (
            <p className="font-semibold text-green-800">{t('admin.desk.state.handedOut', pickedUp)}</p>
          ) : (
            <p role="alert" className="font-semibold text-amber-800">
              {t('admin.desk.state.pickedUp', pickedUp)}
            </p>
          ))}
        {state === 'refused' && (
          <p role="alert" className="font-semibold text-red-700">
            {t('admin.desk.state.refused', { reason: props.reason(b.refusal) })}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * Registers the desk's service worker for this page (decision 028) and, once it controls the
 * page, hands it the page and the files it loaded, so that a reload offline still shows the desk.
 * The camera's decoder is loaded too, so that it is cached before the network drops.
 */
async function registerServiceWorker(url: string) {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  try {
    const registration = await navigator.serviceWorker.register(url, { scope: location.pathname });
    const send = async () => {
      const worker = navigator.serviceWorker.controller ?? registration.active;
      if (!worker) return;
      await import('./camera').then((m) => m.qrReader()).catch(() => {});
      const assets = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((u) => u.startsWith(`${location.origin}/_astro/`));
      worker.postMessage({ type: 'cache', page: location.pathname, assets });
    };
    if (navigator.serviceWorker.controller) await send();
    else navigator.serviceWorker.addEventListener('controllerchange', () => void send(), { once: true });
  } catch {
    // No service worker (private mode, an old browser): the desk still works while the page stays open.
  }
}

/** Puts the thumbnails of the badges' photos in the cache the service worker serves them from. */
async function cachePhotos(badges: DeskBadge[]) {
  if (!('caches' in window)) return;
  try {
    const cache = await caches.open(PHOTO_CACHE);
    const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
    const missing = badges.map((b) => b.photoUrl).filter((u): u is string => !!u && !have.has(u));
    const worker = async () => {
      for (let url = missing.pop(); url; url = missing.pop()) {
        const res = await fetch(url, { credentials: 'same-origin' }).catch(() => null);
        if (!res) return; // offline: next sync
        if (res.ok) await cache.put(url, res);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  } catch {
    // The photos stay on the network until the next sync.
  }
}
