import { describe, expect, it } from 'vitest';
import { errorSummary, stackFrames, withheldError } from './error-summary';

/** A failed query as drizzle reports it: the SQL and its parameters in the message, pg's error as the cause. */
function failedQuery() {
  const cause = Object.assign(
    new Error('duplicate key value violates unique constraint "orders_one_badge_per_email_idx"'),
    {
      code: '23505',
      constraint: 'orders_one_badge_per_email_idx',
      table: 'orders',
      detail: 'Key (badge_email_key)=(amy@example.com) already exists.',
    },
  );
  class DrizzleQueryError extends Error {}
  return new DrizzleQueryError(
    'Failed query: insert into "registrations" ("form") values ($1)\nparams: {"name":"王小明","phone":"886-912-345-678"}',
    { cause },
  );
}

describe('errorSummary', () => {
  it('names the class, causes, code and constraint of a failed query, without its message or values', () => {
    const summary = errorSummary(failedQuery());
    expect(summary).toMatchObject({
      errorClass: 'DrizzleQueryError',
      causes: ['Error'],
      code: '23505',
      constraint: 'orders_one_badge_per_email_idx',
      table: 'orders',
    });
    const text = JSON.stringify(summary);
    for (const secret of ['886-912-345-678', '王小明', 'amy@example.com', 'Failed query', 'params'])
      expect(text).not.toContain(secret);
    expect(summary.stack).toMatch(/^\s+at /);
  });

  it('keeps the frames of a multi-line message and drops every message line', () => {
    const error = new TypeError('line one 0912345678\nline two secret@example.com');
    const frames = stackFrames(error)!;
    expect(frames).not.toContain('0912345678');
    expect(frames).not.toContain('secret@example.com');
    expect(frames.split('\n').every((l) => /^\s+at /.test(l))).toBe(true);
    expect(errorSummary(error).errorClass).toBe('TypeError');
  });

  it('takes only code-like codes and identifier-like names (a value in those fields is not logged)', () => {
    const odd = Object.assign(new Error('x'), { code: 'has spaces and amy@example.com', constraint: "x'); drop" });
    expect(errorSummary(odd)).toEqual({ errorClass: 'Error', stack: expect.any(String) });
    expect(errorSummary('a thrown string 0912')).toEqual({ errorClass: 'string' });
    expect(errorSummary(null)).toEqual({ errorClass: 'null' });
  });

  it('withheldError keeps the class name and frames for whoever logs it next', () => {
    const original = failedQuery();
    const safe = withheldError(original);
    expect(safe.name).toBe('DrizzleQueryError');
    expect(safe.message).toBe('message withheld from the log (code 23505, constraint orders_one_badge_per_email_idx)');
    expect(safe.stack).not.toContain('886-912-345-678');
    expect(safe.stack).toContain(stackFrames(original)!.split('\n')[0]!);
    expect(errorSummary(safe)).toMatchObject({ errorClass: 'DrizzleQueryError', code: '23505', table: 'orders' });
  });

  it('keeps the message of an error marked expose (a setup problem), and only that', () => {
    const setup = Object.assign(new Error('No migrations at /srv/drizzle: set MIGRATIONS_DIR'), { expose: true });
    expect(errorSummary(setup).message).toBe('No migrations at /srv/drizzle: set MIGRATIONS_DIR');
    expect(withheldError(setup).message).toBe('No migrations at /srv/drizzle: set MIGRATIONS_DIR');
    expect(errorSummary(failedQuery()).message).toBeUndefined();
  });
});
