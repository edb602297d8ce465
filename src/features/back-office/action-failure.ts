import type { Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';

/** A row's action the API refused, with its translated message (the row stays open). */
export type Failed = { kind: 'failed'; failed: true; message: string };

/**
 * What a row of a back-office list says when its action was refused: the API's translated
 * message; null when there is nothing to say on the row (signed out: the client sends the
 * organiser to sign in; not an API answer).
 */
export function actionFailure(messages: Messages, error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status === 401) return null;
  return apiMessage(messages, error);
}

/** Runs a row's action: its outcome, the API's refusal as a `Failed` outcome, or null (see above). */
export async function attempt<O>(messages: Messages, work: () => Promise<O>): Promise<O | Failed | null> {
  try {
    return await work();
  } catch (error) {
    const message = actionFailure(messages, error);
    return message === null ? null : { kind: 'failed', failed: true, message };
  }
}

/**
 * The back office's text for a refusal in an alert or a form's failure line: the message of its
 * code in the page's language when the catalogue has one (`apiError.<code>`), else `[status] message`.
 */
export function refusalText(messages: Messages, error: ApiError): string {
  return messages[`apiError.${error.code}`] ?? `[${error.status}] ${error.message}`;
}

/** A field the API refused, as a form shows it: the field's name in camelCase and the issue's code. */
export type FieldIssue = { path: string; code: string; values?: Record<string, number> };

/**
 * The fields a 400 answer refused with a known code (its `issues`; a nested path names its first
 * field), for the form to show beside them; empty when the answer is not such a refusal.
 */
export function fieldIssues(error: ApiError): FieldIssue[] {
  if (error.status !== 400) return [];
  const wire = (error.data as { issues?: { path: string; code?: string; values?: Record<string, number> }[] }).issues;
  return (wire ?? []).flatMap((i) =>
    i.code
      ? [
          {
            path: i.path.split('.')[0]!.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase()),
            code: i.code,
            ...(i.values ? { values: i.values } : {}),
          },
        ]
      : [],
  );
}
