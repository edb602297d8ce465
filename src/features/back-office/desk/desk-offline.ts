import type { DeskBadge } from '@domain/desk';
import type { OfflineCopy } from './desk-store';

/*
 * What keeps the desk working without the network (decision 028) besides its queue: the service
 * worker that serves the page and its files offline, and the cache of the badges' photos.
 */

/** The cache the service worker serves the badge photos' thumbnails from (public/desk-sw.js). */
const PHOTO_CACHE = 'desk-photos-v1';

/**
 * How long the page waits for the worker: to be active, to control the page, to answer. A worker
 * whose install failed is never active, and one stopped meanwhile never answers; the desk then
 * says "Not yet" and asks again after its next sync, instead of "Checking…" for good.
 */
const ANSWER_TIMEOUT_MS = 30_000;

/** `promise`'s value, or `fallback` once ANSWER_TIMEOUT_MS have passed without it. */
function within<T>(promise: Promise<T>, fallback: T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), ANSWER_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The desk's service worker (decision 028) keeping the page and the files it loaded, so that a
 * reload offline still shows the desk. Returns the check: each call (at start, and again after a
 * sync while the answer is not `kept`) registers the worker, waits until it controls the page,
 * hands it the page and its files, and resolves to what the worker says this device now holds
 * (decision 076: the desk says it opens offline only then). Calls made while one runs share it.
 */
export function offlineKeeper(url: string): () => Promise<OfflineCopy> {
  // The page's /_astro/ files as they load, watched from the first call (in the browser). An
  // observer rather than the Resource Timing buffer alone: the buffer stops at 250 entries, and
  // the desk fetches a thumbnail per badge before the camera's chunks may have loaded.
  const files = new Set<string>();
  const note = (entries: PerformanceEntryList) => {
    for (const e of entries) if (e.name.startsWith(`${location.origin}/_astro/`)) files.add(e.name);
  };
  let observer: PerformanceObserver | null = null;
  let running: Promise<OfflineCopy> | null = null;

  async function keep(): Promise<OfflineCopy> {
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return 'unavailable';
    if (!observer)
      try {
        observer = new PerformanceObserver((list) => note(list.getEntries()));
        observer.observe({ type: 'resource', buffered: true });
      } catch {
        // No observer: the buffer alone, below.
      }
    const container = navigator.serviceWorker;
    try {
      await container.register(url, { scope: location.pathname });
    } catch {
      // No service worker (private mode, an old browser), unless one already controls the page
      // (a registration can fail offline): the desk works only while the page stays open.
      if (!container.controller) return 'unavailable';
    }
    if (!container.controller) {
      const registration = await within<ServiceWorkerRegistration | null>(container.ready, null);
      if (!registration) return 'missing';
      const claimed = new Promise<void>((resolve) =>
        container.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
      // The worker claims the page when it activates; asked again for a page it did not
      // (one opened with a forced reload, which bypasses the worker).
      if (!container.controller) {
        registration.active?.postMessage({ type: 'claim' });
        if (
          !(await within(
            claimed.then(() => true),
            false,
          ))
        )
          return 'missing';
      }
    }
    // The camera's decoder is loaded first, so that it is kept before the network drops.
    await import('@components/scanner/camera').then((m) => m.qrReader()).catch(() => {});
    note(performance.getEntriesByType('resource'));
    if (observer) note(observer.takeRecords());
    const worker = container.controller;
    if (!worker) return 'missing';
    const channel = new MessageChannel();
    type Answer = { page?: boolean; missing?: number } | null;
    const answer = within<Answer>(
      new Promise((resolve) => (channel.port1.onmessage = (event) => resolve(event.data as Answer))),
      null,
    );
    worker.postMessage({ type: 'cache', page: location.pathname, assets: [...files] }, [channel.port2]);
    const kept = await answer;
    channel.port1.close();
    return kept?.page === true && kept.missing === 0 && container.controller !== null ? 'kept' : 'missing';
  }

  return () => (running ??= keep().finally(() => (running = null)));
}

/** Puts the thumbnails of the badges' photos in the cache the service worker serves them from. */
export async function cachePhotos(badges: DeskBadge[]) {
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
