/** Key-case conversion for the wire format: snake_case on the wire, camelCase in code. */

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

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
