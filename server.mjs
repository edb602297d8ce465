// Production entry (`npm start`): the built Astro app behind node:http with br/gzip compression.
// Astro's node adapter does not compress; this wrapper does, and serves the built files
// (`staticFiles`: immutable cache headers on /_astro/*). It also guards the socket (`guard`):
// methods the app cannot take are answered 405, and a request whose body the app stopped reading
// (over a size limit) is answered and then drained, never reset.
import { readdirSync } from 'node:fs';
import http from 'node:http';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * V8 flags of a production instance (`npm start`, the cluster and bench scripts), decision 033:
 * a larger young generation (fewer scavenges of the short-lived objects every request makes) and
 * garbage collection on the main thread only (N instances on N cores: GC helper threads only
 * compete with the other instances). A registration burst costs a quarter less CPU per request.
 * They must be given on the command line (V8 reads them when the heap is set up); a test keeps
 * package.json's start scripts in step with this list.
 */
export const V8_FLAGS = ['--max-semi-space-size=64', '--single-threaded-gc'];

/** Methods the portal serves; anything else (TRACE, PROPFIND, …) is answered 405 here. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/**
 * A Host header as RFC 9110 allows it: a name or IPv4 address, or a bracketed IPv6 literal, with
 * an optional port. Anything else (`x@y`, a path, a space) names no host: undici's Request refuses
 * a URL with credentials, so Astro's adapter answered every such request with a 500.
 */
const HOST_HEADER = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** HSTS of a portal whose public origin (SITE_URL) is https: a year, this host only. */
const HSTS = 'max-age=31536000';
/** After the answer, the rest of an unread body is read and dropped up to this many bytes… */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** …or for this long; then the connection is closed. */
const DRAIN_MAX_MS = 30_000;

/**
 * Wraps a node:http request handler:
 * - a method outside METHODS gets `405` with `Allow` (undici's Request refuses TRACE, TRACK and
 *   CONNECT, which Astro's adapter answered with a 500 and a logged stack);
 * - a Host header that is not a host (HOST_HEADER) gets `400`;
 * - every answer, the static files the adapter serves before any middleware included, carries
 *   `X-Content-Type-Options: nosniff`, and `Strict-Transport-Security` when `hsts` is set (an
 *   https SITE_URL: the TLS proxy in front passes it to the browser);
 * - the request body is handed over as `req.body`, an iterator that leaves the request open when
 *   its reader stops early (Hono's bodyLimit on a chunked body over the limit). Node's own
 *   iterator destroyed the socket there, so the client got a TCP reset instead of the 400 it was
 *   being sent. Once the answer is written, what is left of the body is read and dropped (up to
 *   DRAIN_MAX_BYTES / DRAIN_MAX_MS, then the connection is closed), so the connection ends cleanly.
 */
export function guard(handler, { hsts = false } = {}) {
  return (req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    if (hsts) res.setHeader('strict-transport-security', HSTS);
    if (!METHODS.includes(req.method)) {
      refuse(res, 405, 'method_not_allowed', 'Method not allowed', { allow: METHODS.join(', ') });
      return;
    }
    if (req.headers.host !== undefined && !HOST_HEADER.test(req.headers.host)) {
      refuse(res, 400, 'invalid_host', 'The Host header does not name a host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Read by Astro's adapter instead of the request itself (createRequestFromNodeRequest).
      req.body = { [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }) };
      res.once('finish', () => drainRest(req));
    }
    handler(req, res);
  };
}

/** Answers a request the app is not given, as the API's error body; the connection then closes. */
function refuse(res, status, code, message, headers = {}) {
  const body = JSON.stringify({ code, message, error: message });
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

/**
 * The node:http server of the portal: `handler` behind `guard` (with its `options`). A CONNECT
 * request (which node:http hands to a 'connect' listener, or else drops) is answered 405 as well.
 */
export function createPortalServer(handler, options = {}) {
  const server = http.createServer(guard(handler, options));
  server.on('connect', (req, socket) => {
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${METHODS.join(', ')}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
  });
  return server;
}

/** Reads and drops the rest of a body the app did not read, so closing sends no reset. */
function drainRest(req) {
  if (req.complete || req.destroyed) return;
  let bytes = 0;
  const stop = () => req.destroy();
  const timer = setTimeout(stop, DRAIN_MAX_MS);
  timer.unref();
  req.on('data', (chunk) => {
    bytes += chunk.length;
    if (bytes > DRAIN_MAX_BYTES) stop();
  });
  req.once('close', () => clearTimeout(timer));
  // The app's reader stopped (it left its 'readable' listener, which keeps a stream paused).
  req.removeAllListeners('readable');
  req.resume();
}

/**
 * br/gzip of the `compression` package as the portal uses it: answers of 512 bytes and more whose
 * length is known (the API's JSON carries it, src/server/api/content-length.ts) or that stream
 * (pages, exports); already-compressed images are left alone.
 */
export function compressor(compression) {
  return compression({
    threshold: 512,
    filter: (req, res) =>
      !/^image\/(png|jpeg|webp|avif)/.test(String(res.getHeader('content-type') ?? '')) && compression.filter(req, res),
    brotli: { params: { 1: 5 } },
  });
}

/**
 * The site's icons keep their names (browsers ask for /favicon.ico whatever a page links to), so
 * they cannot be immutable like /_astro/*; a day's cache saves a request on most pages. Set here
 * before the adapter's static handler, which keeps a Cache-Control it finds (its default is
 * max-age=0).
 */
export const ICON_PATHS = ['/favicon.ico', '/favicon.svg'];
export function cacheIcons(req, res) {
  if ((req.method === 'GET' || req.method === 'HEAD') && ICON_PATHS.includes(req.url?.split('?')[0] ?? ''))
    res.setHeader('Cache-Control', 'public, max-age=86400');
}

/**
 * The built client files (`dist/client`: /_astro/* bundles, icons, images, the desk's service
 * worker) served as the adapter's standalone server served them, through `send` (no dot files but
 * /.well-known/*), with
 * `Cache-Control: public, max-age=31536000, immutable` on /_astro/*. The list is read once at
 * start-up (a build never changes under a running server): any other URL goes to the app without
 * touching the file system, where the standalone handler stat'ed every page and API request
 * first (decision 072). Returns whether it took the request.
 */
export function staticFiles(send, root) {
  const files = new Set();
  const walk = (dir, prefix) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Dot files are never served (the adapter's `dotfiles: 'deny'`), but /.well-known/*.
      if (entry.name.startsWith('.') && !(entry.name === '.well-known' && prefix === '')) continue;
      const url = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, url);
      else if (entry.isFile()) files.add(url);
    }
  };
  walk(root, '');
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const end = url.search(/[?#]/);
    let path = end < 0 ? url : url.slice(0, end);
    try {
      path = posix.normalize(decodeURIComponent(path));
    } catch {
      return false;
    }
    if (!files.has(path)) return false;
    send(req, path, { root, dotfiles: path.startsWith('/.well-known/') ? 'allow' : 'deny' })
      .on('stream', () => {
        if (path.startsWith('/_astro/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      })
      .on('error', (err) => {
        const status = typeof err.status === 'number' ? err.status : 500;
        res.writeHead(status);
        res.end(status >= 500 ? 'Internal server error' : '');
      })
      .pipe(res);
    return true;
  };
}

async function main() {
  const compression = (await import('compression')).default;
  const send = (await import('send')).default;
  const { handler } = await import('./dist/server/entry.mjs');
  const serveStatic = staticFiles(send, fileURLToPath(new URL('./dist/client', import.meta.url)));

  const compress = compressor(compression);

  const port = Number(process.env.PORT ?? 4321);
  const host = process.env.HOST ?? 'localhost';
  const hsts = (process.env.SITE_URL ?? '').toLowerCase().startsWith('https:');
  const server = createPortalServer(
    (req, res) => {
      cacheIcons(req, res);
      try {
        decodeURI(req.url ?? '/');
      } catch {
        // A URL that does not decode names nothing: 400, as the adapter's standalone server said.
        res.writeHead(400);
        res.end('Bad request.');
        return;
      }
      compress(req, res, () => {
        if (!serveStatic(req, res)) handler(req, res);
      });
    },
    { hsts },
  );
  server.listen(port, host, async () => {
    // Start-up check: configuration, database, migrations and seed are loaded by the first API
    // request. A portal that cannot serve it refuses to run (DESIGN D13) instead of answering 500s.
    const local = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
    try {
      const res = await fetch(`${local}/api/v1/events`);
      if (!res.ok) throw new Error(`GET /api/v1/events answered ${res.status}`);
      console.log(JSON.stringify({ level: 'info', message: `portal ready on http://${host}:${port}` }));
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'error', message: 'start-up check failed; see the error above', error: String(error) }),
      );
      process.exit(1);
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => server.close(() => process.exit(0)));
  }
}

// Started as `node server.mjs`; imported (tests), it only exports `guard` and `createPortalServer`.
if (process.argv[1] && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  await main();
}
