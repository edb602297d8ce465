import type { DeskBadge } from '@domain/desk';

/*
 * What keeps the desk working without the network (decision 028) besides its queue: the service
 * worker that serves the page and its files offline, and the cache of the badges' photos.
 */

/** The cache the service worker serves the badge photos' thumbnails from (public/desk-sw.js). */
const PHOTO_CACHE = 'desk-photos-v1';

/**
 * Registers the desk's service worker for this page (decision 028) and, once it controls the
 * page, hands it the page and the files it loaded, so that a reload offline still shows the desk.
 * The camera's decoder is loaded too, so that it is cached before the network drops.
 */
export async function registerServiceWorker(url: string) {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  try {
    const registration = await navigator.serviceWorker.register(url, { scope: location.pathname });
    const send = async () => {
      const worker = navigator.serviceWorker.controller ?? registration.active;
      if (!worker) return;
      await import('@components/scanner/camera').then((m) => m.qrReader()).catch(() => {});
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
