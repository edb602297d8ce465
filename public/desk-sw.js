/*
 * The badge desk's service worker (issue 11, docs/decisions/028-badge-desk-offline.md).
 *
 * Registered by the desk page for its own path only (/en/admin/desk, /zh-tw/admin/desk), so it
 * controls no other page. It keeps what the desk needs to open without a network: the page
 * itself (network first, the last good copy when the network fails), the page's scripts, styles
 * and fonts (content-hashed under /_astro/: cache first), and the badge photos' thumbnails, which
 * the page puts in the cache after each sync. Everything else (the API) goes to the network, and
 * the page handles being offline: its data lives in IndexedDB.
 */
const VERSION = 'v1';
const PAGES = `desk-pages-${VERSION}`;
const ASSETS = `desk-assets-${VERSION}`;
const PHOTOS = 'desk-photos-v1';
const KEEP = [PAGES, ASSETS, PHOTOS];
/** How long a navigation waits for the network before the cached page is shown. */
const NETWORK_TIMEOUT_MS = 4000;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith('desk-') && !KEEP.includes(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/**
 * The page tells what to keep: its own path and the assets it loaded. It is answered (on the
 * message's port) with what this device now holds, so that the desk says it opens offline only
 * once that is true: the network may drop, or the worker be stopped, before all is kept.
 */
self.addEventListener('message', (event) => {
  const data = event.data;
  // A desk page this worker does not control yet (opened with a forced reload) asks for it.
  if (data && data.type === 'claim') return event.waitUntil(self.clients.claim());
  if (!data || data.type !== 'cache' || typeof data.page !== 'string' || !Array.isArray(data.assets)) return;
  event.waitUntil(
    (async () => {
      const page = new URL(data.page, self.location.origin);
      if (page.origin !== self.location.origin) return;
      const pages = await caches.open(PAGES);
      try {
        const response = await fetch(page.pathname, { credentials: 'same-origin', cache: 'no-store' });
        if (response.ok && !response.redirected) await pages.put(page.pathname, response);
      } catch {
        // Offline already: the copy kept at the last visit stays.
      }
      const assets = await caches.open(ASSETS);
      let missing = 0;
      for (const url of data.assets) {
        const asset = new URL(url, self.location.origin);
        if (asset.origin !== self.location.origin || !asset.pathname.startsWith('/_astro/')) continue;
        if (await assets.match(asset.pathname)) continue;
        try {
          const response = await fetch(asset.pathname);
          if (response.ok) await assets.put(asset.pathname, response);
          else missing++;
        } catch {
          missing++; // Kept at the page's next ask (after its next sync), or the next visit.
        }
      }
      event.ports[0]?.postMessage({ type: 'kept', page: !!(await pages.match(page.pathname)), missing });
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') event.respondWith(page(request, url));
  else if (url.pathname.startsWith('/_astro/')) event.respondWith(cacheFirst(ASSETS, request, url));
  else if (url.pathname.startsWith('/api/v1/admin/desk/photos/')) event.respondWith(cacheFirst(PHOTOS, request, url));
});

/** The desk page: the network's answer (kept for later), or the last good copy when it fails or is slow. */
async function page(request, url) {
  const cache = await caches.open(PAGES);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), NETWORK_TIMEOUT_MS)),
    ]);
    if (response.ok && !response.redirected && response.type === 'basic')
      await cache.put(url.pathname, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(url.pathname);
    if (!kept) throw error;
    // Marked, so that a person (in the developer tools) and the browser tests can tell.
    // (The body is already decoded: the stored encoding and length no longer describe it.)
    const headers = new Headers(kept.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    headers.set('x-desk-offline-copy', '1');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}

async function cacheFirst(name, request, url) {
  const cache = await caches.open(name);
  const kept = await cache.match(url.pathname);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(url.pathname, response.clone());
  return response;
}
