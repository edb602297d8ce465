import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ApiClient } from './api';

/*
 * The rendered-page cache of signed-in pages whose content is a function of the user's data and
 * the events only (decision 032): the order list. A page is reused while the version the API
 * gives (`api.user.pageVersion`: the user's id, the `data_version` that database
 * triggers bump on every change to their orders, payments, receipts, registrations and works or
 * to their name and e-mail, and the events' newest change) is the one it was rendered at; any
 * change makes a new key, so a stale page is never served — on any instance, since the version
 * lives in the database. The cache is this instance's memory only, bounded by size.
 */

/** The pages cached: their path (with the locale), GET without a query. */
const CACHEABLE = /^\/(en|zh-tw)\/account\/orders\/?$/;

/** At most this many bytes of rendered pages are kept (the oldest used go first). */
const MAX_BYTES = 32 * 1024 * 1024;

type Encoding = 'br' | 'gzip';
type Entry = {
  version: string;
  body: Uint8Array<ArrayBuffer>;
  headers: [string, string][];
  bytes: number;
  /** The body compressed once per encoding asked for (server.mjs would compress it on every send). */
  encoded: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;
};
const entries = new Map<string, Entry>();
let usedBytes = 0;

/** Whether this request may be answered from the cache (a GET of a cached page, no query). */
export const cacheablePage = (method: string, url: URL) =>
  method === 'GET' && !url.search && CACHEABLE.test(url.pathname);

/** Where a page of a user is kept (one entry per page, language and user), and the version it must have. */
export type PageSlot = { key: string; version: string };

/** The slot of the page for the signed-in user, or null when the API cannot say (then no cache). */
export async function pageSlot(api: ApiClient, url: URL, locale: string): Promise<PageSlot | null> {
  try {
    const { data } = await api.user.pageVersion();
    return { key: `${url.pathname}\n${locale}\n${data.userId}`, version: data.version };
  } catch {
    return null;
  }
}

/** The encoding a client takes, as server.mjs chooses it: br, else gzip, else none. */
function encodingFor(acceptEncoding: string | null): Encoding | null {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  const takes = (name: string) =>
    accepted.split(',').some((part) => {
      const [token, ...params] = part.trim().split(';');
      return token === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    });
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null;
}

/** The body in `encoding`, compressed once with server.mjs's settings (brotli quality 5). */
function encode(entry: Entry, encoding: Encoding): Uint8Array<ArrayBuffer> {
  const done = entry.encoded[encoding];
  if (done) return done;
  const out =
    encoding === 'br'
      ? brotliCompressSync(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : gzipSync(entry.body);
  const bytes = new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
  entry.encoded[encoding] = bytes;
  entry.bytes += bytes.byteLength;
  usedBytes += bytes.byteLength;
  return bytes;
}

/**
 * The cached page of `slot` if it was rendered at the slot's version, as a fresh response in the
 * encoding the request takes (compressed once and kept; the server passes an encoded body as is).
 */
export function cachedPage(slot: PageSlot, acceptEncoding: string | null = null): Response | null {
  const { key } = slot;
  const entry = entries.get(key);
  if (!entry || entry.version !== slot.version) return null;
  // Most recently used last.
  entries.delete(key);
  entries.set(key, entry);
  const encoding = encodingFor(acceptEncoding);
  const body = encoding ? encode(entry, encoding) : entry.body;
  const headers = new Headers(entry.headers);
  headers.set('vary', 'Accept-Encoding');
  headers.set('content-length', String(body.byteLength));
  if (encoding) headers.set('content-encoding', encoding);
  evict();
  return new Response(body, { status: 200, headers });
}

function evict() {
  for (const [oldest, old] of entries) {
    if (usedBytes <= MAX_BYTES) break;
    entries.delete(oldest);
    usedBytes -= old.bytes;
  }
}

/**
 * Keeps a freshly rendered page (200, HTML) in `slot`, replacing the one of an older version;
 * returns the response to send, whose body it had to read. Cookies are never kept.
 */
export async function storePage(slot: PageSlot, response: Response): Promise<Response> {
  const { key, version } = slot;
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
  // Kept as bytes: a hit sends them as they are (or compressed once, see encode).
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = [...response.headers].filter(([name]) => !['set-cookie', 'content-length'].includes(name));
  const entry: Entry = { version, body, headers, bytes: body.byteLength, encoded: {} };
  if (entry.bytes <= MAX_BYTES / 8) {
    const previous = entries.get(key);
    if (previous) usedBytes -= previous.bytes;
    entries.delete(key);
    entries.set(key, entry);
    usedBytes += entry.bytes;
    evict();
  }
  return new Response(body, response);
}

/** Empties the cache (tests). */
export function clearPageCache() {
  entries.clear();
  usedBytes = 0;
}
