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
