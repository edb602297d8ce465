import {
  coerce,
  create,
  defaulted,
  define,
  integer,
  literal,
  optional,
  pattern,
  refine,
  size,
  string,
  StructError,
  trimmed,
  union,
  type Struct,
} from 'superstruct';

/**
 * One of a list of numbers, or its decimal string of up to `digits` digits (form controls give
 * strings; the wire sends numbers), as its number; `message` says what it should have been.
 */
export const NumberOf = (values: readonly number[], digits: number, message = `Expected one of ${values.join(', ')}`) =>
  coerce(
    define<number>('enum', (v) => (typeof v === 'number' && values.includes(v)) || message),
    pattern(string(), new RegExp(`^\\d{1,${digits}}$`)),
    Number,
  );

/** Form text: trimmed, required, at most `max` characters. */
export const RequiredText = (max: number) => size(trimmed(string()), 1, max);
/** Form text: trimmed, may be left out (taken as empty), at most `max` characters. */
export const OptionalText = (max: number) => defaulted(size(trimmed(string()), 0, max), '');
/** A country as ISO 3166-1 alpha-3 (`TWN`): the Market's companies and the directory's filter. */
export const CountryAlpha3 = pattern(string(), /^[A-Z]{3}$/);
/** A UUID (file ids and the like). */
export const UuidString = pattern(string(), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
/** A form's uploaded file (its id), or null when it was taken away; absent: left as it is. */
export const FileChoice = optional(union([UuidString, literal(null)]));
/** The 21-character random key of a list item (spec §9), when the client sends it. */
export const ItemKey = optional(pattern(string(), /^[A-Za-z0-9_-]{21}$/));

/**
 * A list's query as its filter form sends it: the values of `keys`, trimmed, empty ones dropped
 * (a form submits every field).
 */
export function filledParams(params: URLSearchParams, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value && value.trim()) out[key] = value.trim();
  }
  return out;
}

/** An integer given as a query-string value. */
export const QueryInt = (min: number, max: number) =>
  refine(
    coerce(integer(), string(), (v) => (/^-?\d+$/.test(v) ? Number(v) : Number.NaN)),
    'range',
    (n) => (n >= min && n <= max ? true : `Expected an integer from ${min} to ${max}`),
  );

export type ValidationIssue = { path: string; message: string };

/** The issues of a failed validation, one per field, in a stable wire shape. */
export function issuesOf(error: StructError): ValidationIssue[] {
  return error.failures().map((f) => ({
    path: f.path.join('.'),
    message: f.message,
  }));
}

export const NUL_MESSAGE = 'Must not contain a NUL character';
/** Whether a string holds U+0000 (which PostgreSQL refuses in text). */
export const hasNul = (value: string) => value.includes('\u0000');

/**
 * A percent-encoded URL part decoded as leniently as the router decodes it: valid escapes are
 * decoded, bad ones stay as they are (what the NUL and control-character guards look at).
 */
export function decodeLeniently(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
export const SURROGATE_MESSAGE = 'Must be valid Unicode text (a lone surrogate such as \\ud800 is not)';
/** With the `u` flag a surrogate pair reads as one code point: only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
/**
 * Whether a string holds a lone UTF-16 surrogate (JSON allows `"\ud800"`): no UTF-8 text can hold
 * one, so PGlite refused it with a 500 and the `pg` driver silently turned it into U+FFFD.
 */
export const hasLoneSurrogate = (value: string) => LONE_SURROGATE.test(value);
/** A key as a path segment: a NUL or lone surrogate in it is shown escaped, never sent back raw. */
const keyOf = (key: string) =>
  key.replace(/\u0000|\p{Surrogate}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const textIssue = (value: string) =>
  hasNul(value) ? NUL_MESSAGE : hasLoneSurrogate(value) ? SURROGATE_MESSAGE : undefined;

/**
 * One issue per string (or object key) holding U+0000 or a lone surrogate (text no database
 * column can store), anywhere in plain objects and arrays, with the path of its field.
 */
export function textIssues(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<object>();
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const message = textIssue(v);
      if (message) issues.push({ path: path.join('.'), message });
      continue;
    }
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, String(i)] });
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) continue;
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const message = textIssue(key);
      if (message) issues.push({ path: [...path, keyOf(key)].join('.'), message });
      else stack.push({ value: (v as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return issues;
}

/**
 * Validates (with coercion) or returns the issues; never throws for bad input. A string with
 * U+0000 or a lone surrogate anywhere in the input is refused first, whatever the struct says.
 */
export function check<T, S>(
  value: unknown,
  struct: Struct<T, S>,
): { ok: true; value: T } | { ok: false; issues: ValidationIssue[] } {
  const text = textIssues(value);
  if (text.length) return { ok: false, issues: text };
  try {
    return { ok: true, value: create(value, struct) };
  } catch (error) {
    if (error instanceof StructError) return { ok: false, issues: issuesOf(error) };
    throw error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a path parameter is a UUID (anything else is a 404 before it reaches the database). */
export const isUuid = (value: string) => UUID.test(value);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** An ISO 8601 date-time with its offset (`2026-11-04T01:30:00.000Z`, `2026-11-04T09:30+08:00`). */
export const IsoDateTime = refine(
  string(),
  'datetime',
  (v) => (ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v))) || 'Expected an ISO 8601 date-time with its offset',
);
