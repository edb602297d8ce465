import { ApiError } from '@lib/api';
import type { T } from '@i18n/t';

/*
 * The edition screens' refusals (issue 21): the API's field issues (`validation_failed`, snake
 * case paths, `1.closes_at` for a schedule row) as messages by camelCase path, in the reader's
 * language: a rule's own code when the catalogue has it, else "check this field".
 */

const camel = (path: string) => path.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The field messages of a refusal, or null when it is not a field refusal. */
export function fieldIssues(error: unknown, t: T): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return null;
  const issues = ((error.data.issues as { path: string; code?: string }[] | undefined) ?? []).map(
    (i) => [camel(i.path), i.code] as const,
  );
  const out: Record<string, string> = {};
  for (const [path, code] of issues) {
    const key = `admin.edition.issue.${code ?? 'invalid'}`;
    const text = t(key);
    out[path] ??= text === key ? t('admin.edition.issue.invalid') : text;
  }
  return out;
}
