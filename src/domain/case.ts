/** Key-case conversion for the wire format: snake_case on the wire, camelCase in code. */

/**
 * Converted keys, remembered: a list of 100 orders converts the same 40 keys 100 times. Bounded,
 * so keys chosen by a client (a hostile body's) cannot grow it without limit; past the bound a
 * key is converted each time, as before.
 */
function remembered(convertKey: (key: string) => string, limit = 2000): (key: string) => string {
  const seen = new Map<string, string>();
  return (key) => {
    let out = seen.get(key);
    if (out === undefined) {
      out = convertKey(key);
      if (seen.size < limit) seen.set(key, out);
    }
    return out;
  };
}
const toCamel = remembered((key) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
const toSnake = remembered((key) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Deeper than any payload of ours: a hostile body cannot exhaust the stack. */
export const MAX_DEPTH = 32;

function convert(value: unknown, key: (k: string) => string, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new RangeError('Nested too deeply');
  if (Array.isArray(value)) return value.map((v) => convert(v, key, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[key(k)] = convert(v, key, depth + 1);
    return out;
  }
  return value;
}

/** Deeply converts object keys to camelCase (arrays and nested objects included). */
export const camelize = <T = unknown>(value: unknown): T => convert(value, toCamel) as T;
/** Deeply converts object keys to snake_case; Dates and other class instances are kept. */
export const snakeize = <T = unknown>(value: unknown): T => convert(value, toSnake) as T;

const wireKey = remembered((key: string) => toCamel(toSnake(key)));

/**
 * What a client holds after the API sent `value` and it read it back: exactly
 * `camelize(JSON.parse(JSON.stringify(snakeize(value))))` (dates as ISO strings, undefined
 * properties dropped, undefined array items and non-finite numbers as null, keys snake_cased
 * then camelCased), in one pass and without the text in between. The in-process seam of the SSR
 * pages uses it instead of serialising the answer (src/server/api/in-process.ts).
 */
export function wireRoundTrip<T = unknown>(value: unknown): T {
  return toWire(value, '', 0, true) as T;
}

const DATE_TO_JSON = Date.prototype.toJSON;
const DATE_TO_ISO = Date.prototype.toISOString;
const DATE_VALUE_OF = Date.prototype.valueOf;
/**
 * ISO texts of time values already converted: `toISOString` costs about a microsecond, and a
 * list of 100 orders holds ~600 dates, half of them its events' same few times. Bounded
 * (cleared when full).
 */
const isoTexts = new Map<number, string>();

/** A Date whose toJSON is the built-in one: what `JSON.stringify` writes for it. */
function dateJson(date: Date): string | null {
  const time = date.getTime();
  // Date.prototype.toJSON: a date that is not a finite time is null.
  if (!Number.isFinite(time)) return null;
  let text = isoTexts.get(time);
  if (text === undefined) {
    text = date.toISOString();
    if (isoTexts.size >= 5000) isoTexts.clear();
    isoTexts.set(time, text);
  }
  return text;
}

/** `key` is the property's name, or an array item's index (made a string only for a toJSON). */
function toWire(input: unknown, key: string | number, depth: number, plainKeys: boolean): unknown {
  let value = input;
  if (typeof value === 'object' && value !== null) {
    if (
      value instanceof Date &&
      value.toJSON === DATE_TO_JSON &&
      value.toISOString === DATE_TO_ISO &&
      value.valueOf === DATE_VALUE_OF
    )
      return dateJson(value);
    // toJSON counts where JSON.stringify meets it: not on a plain object whose keys snakeize renamed.
    if (!(plainKeys && isPlainObject(value)) && typeof (value as { toJSON?: unknown }).toJSON === 'function')
      value = (value as { toJSON: (k: string) => unknown }).toJSON(String(key));
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  // Deeper than MAX_DEPTH, snakeize or the client's camelize refuses it.
  if (depth > MAX_DEPTH) throw new RangeError('Nested too deeply');
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const out = toWire(item, i, depth + 1, plainKeys);
      return out === undefined ? null : out;
    });
  }
  // snakeize converts the keys of plain objects only (and stops below anything else); the
  // client camelizes every key it parses.
  const keysConverted = plainKeys && isPlainObject(value);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value as object)) {
    const item = toWire((value as Record<string, unknown>)[k], k, depth + 1, keysConverted);
    if (item !== undefined) out[keysConverted ? wireKey(k) : toCamel(k)] = item;
  }
  return out;
}
