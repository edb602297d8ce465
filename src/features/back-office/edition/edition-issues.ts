import { useState } from 'react';
import { ApiError, apiMessage } from '@lib/api';
import type { Messages, T } from '@i18n/t';

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

/**
 * A save of the edition screens: busy while it runs, its field issues (the first one focused:
 * `order` first, else the first the API named) or its refusal's text, else `done` as its status.
 */
export function useEditionSave(t: T, messages: Messages, inputId: (path: string) => string) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  async function save(run: () => Promise<unknown>, done: string, order: readonly string[] = []): Promise<boolean> {
    setBusy(true);
    setStatus('');
    try {
      await run();
      setErrors({});
      setStatus(done);
      return true;
    } catch (error) {
      const issues = fieldIssues(error, t);
      if (issues) {
        setErrors(issues);
        setStatus(t('admin.edition.invalid'));
        const first = order.find((f) => issues[f]) ?? Object.keys(issues)[0];
        if (first) document.getElementById(inputId(first))?.focus();
      } else setStatus(apiMessage(messages, error as { code?: string; message?: string }));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { errors, setErrors, status, busy, save };
}
