import type { EventSettingField } from '@domain/event-settings';
import type { Messages, T } from '@i18n/t';
import { ApiError } from '@lib/api';
import { fieldIssues, refusalText, type FieldIssue } from '../action-failure';

/** What an event form lends its save: its words, and how it shows busy, status, refused fields and failure. */
export type EventSaveForm = {
  t: T;
  messages: Messages;
  /** The failure line's key: it frames the API's message (`{message}`). */
  failedKey: 'admin.events.failed' | 'admin.events.failedEvent';
  setBusy: (busy: boolean) => void;
  setStatus: (status: string) => void;
  setFailure: (failure: string) => void;
  show: (issues: FieldIssue[]) => void;
};

/**
 * Runs an event form's save (the details and the settings forms): `work` sends it and answers
 * what it changed, or null when there is nothing more to do (it showed the form's issues, or went
 * to another page). Changed: the page reloads to show the saved event and its history
 * (`?saved=1`); unchanged: the form says so. Refused: the fields the API refused, else the failure
 * line (a concurrent change says itself); signed out: nothing (the client sends to sign in).
 */
export async function saveEvent(form: EventSaveForm, work: () => Promise<Record<string, unknown> | null>) {
  try {
    const changed = await work();
    if (changed === null) return;
    if (Object.keys(changed).length === 0) {
      form.setBusy(false);
      form.setStatus(form.t('admin.events.unchanged'));
      return;
    }
    location.assign(`${location.pathname}?saved=1`);
  } catch (error) {
    form.setBusy(false);
    if (!(error instanceof ApiError) || error.status === 401) return;
    const issues = fieldIssues(error);
    if (issues.length) return form.show(issues);
    const message = refusalText(form.messages, error);
    form.setFailure(error.code === 'event_changed' ? message : form.t(form.failedKey, { message }));
  }
}

/** An event's settings fields in the forms that edit them (the settings form; the details form when it creates). */
export const SETTING_FIELDS: {
  field: EventSettingField;
  type?: string;
  inputMode?: 'numeric' | 'decimal';
  hint?: boolean;
}[] = [
  { field: 'capacity', inputMode: 'numeric', hint: true },
  { field: 'registerStartAt', type: 'datetime-local' },
  { field: 'registerEndAt', type: 'datetime-local' },
  { field: 'formModifyExpiresAt', type: 'datetime-local', hint: true },
  { field: 'priceCentsTwd', inputMode: 'numeric', hint: true },
  { field: 'priceCentsUsd', inputMode: 'decimal', hint: true },
  { field: 'originalPriceCentsTwd', inputMode: 'numeric', hint: true },
];
