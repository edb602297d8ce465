/*
 * The two functions of ufo that ofetch uses (`withBase`, `withQuery`), for the client build only
 * (astro.config.mjs `clientShims`; docs/decisions/006), with ufo's results for the URLs the
 * islands make: paths on the same origin (the client's base URL is empty), a query of strings,
 * numbers and booleans, merged over the path's own query. ufo.test.ts compares them with ufo.
 */

const PROTOCOL = /^[\s\w\0+.-]{2,}:([/\\]{2})?/;

export function withBase(input: string, base: string): string {
  if (!base || base === '/' || PROTOCOL.test(input)) return input;
  const b = (base.endsWith('/') ? base.slice(0, -1) : base) || '/';
  if (input.startsWith(b) && /^([/?]|$)/.test(input.slice(b.length))) return input;
  if (!input || input === '/') return b;
  return (b.endsWith('/') ? b : `${b}/`) + input.replace(/^\.?\//, '');
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

const encodeValue = (v: unknown) =>
  encodeURI(typeof v === 'string' ? v : JSON.stringify(v))
    .replace(/%7c/gi, '|')
    .replace(/\+/g, '%2B')
    .replace(/%20/gi, '+')
    .replace(/#/g, '%23')
    .replace(/&/g, '%26')
    .replace(/%60/gi, '`')
    .replace(/%5e/gi, '^')
    .replace(/\//g, '%2F');

function item(key: string, value: unknown): string {
  const k = encodeValue(key).replace(/=/g, '%3D');
  if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
  if (!value) return k;
  return Array.isArray(value) ? value.map((v) => `${k}=${encodeValue(v)}`).join('&') : `${k}=${encodeValue(value)}`;
}

export function withQuery(input: string, query: Record<string, unknown>): string {
  const [, path = '', search = '', hash = ''] = /^([^#?]*)(\?[^#]*)?(#.*)?/.exec(input) ?? [];
  const merged: Record<string, unknown> = Object.create(null);
  for (const part of search.slice(1).split('&')) {
    const [, k, v = ''] = /([^=]+)=?(.*)/.exec(part) ?? [];
    if (k === undefined) continue;
    const key = decode(k);
    if (key === '__proto__' || key === 'constructor') continue;
    const prev = merged[key];
    merged[key] = prev === undefined ? decode(v) : ([] as unknown[]).concat(prev, decode(v));
  }
  Object.assign(merged, query);
  const out = Object.keys(merged)
    .filter((k) => merged[k] !== undefined)
    .map((k) => item(k, merged[k]))
    .filter(Boolean)
    .join('&');
  return path + (out ? `?${out}` : '') + hash;
}
