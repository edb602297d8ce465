/*
 * destr as ofetch uses it (parsing a JSON answer), for the client build only (astro.config.mjs
 * `clientShims`; docs/decisions/006): JSON.parse without `__proto__` and `constructor.prototype`
 * keys, and the text itself when it is not JSON. destr also reads "true", "NaN" and the like in
 * any letter case, which the API (JSON only) never sends.
 */
export default function destr(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value, (key, v: unknown) =>
      key === '__proto__' || (key === 'constructor' && v && typeof v === 'object' && 'prototype' in v) ? undefined : v,
    );
  } catch {
    return value;
  }
}
