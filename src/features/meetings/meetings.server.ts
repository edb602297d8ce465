import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { islandProps } from '@lib/island-props.server';

/*
 * Page loaders of the Market meetings (issue 23): My meetings, the booking page, the back
 * office's schedule; and the messages their islands need.
 */

export const loadMyMeetings = (api: ApiClient) => load(async () => (await api.meetings.list()).data);

export const loadSlots = (api: ApiClient, exhibitorId: string) => load(() => api.meetings.slots(exhibitorId));

export const loadAdminMeetings = (api: ApiClient) => load(async () => (await api.admin.meetings.get()).data);

/** What every meetings island gets: the language, the locale's base path, its words. */
export const islandCommon = (locals: App.Locals, prefixes: string[]) =>
  islandProps(locals.locale, [...prefixes, 'meetings.', 'dialog.', 'apiError.']);
