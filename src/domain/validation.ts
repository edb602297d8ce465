import { coerce, create, integer, refine, string, StructError, type Struct } from 'superstruct';

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

/** Validates (with coercion) or returns the issues; never throws for bad input. */
export function check<T, S>(
  value: unknown,
  struct: Struct<T, S>,
): { ok: true; value: T } | { ok: false; issues: ValidationIssue[] } {
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
