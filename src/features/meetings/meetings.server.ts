import { pickMessages } from '@i18n/i18n';
import { localePath } from '@i18n/locales';
import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';

/*
 * Page loaders of the Market meetings (issue 23): My meetings, the booking page, the back
 * office's schedule; and the messages their islands need.
 */

export const loadMyMeetings = (api: ApiClient) => load(async () => (await api.meetings.list()).data);

export const loadSlots = (api: ApiClient, exhibitorId: string) => load(() => api.meetings.slots(exhibitorId));

export const loadAdminMeetings = (api: ApiClient) => load(async () => (await api.admin.meetings.get()).data);

/** What every meetings island gets: the language, the locale's base path, its words. */
export const islandCommon = (locals: App.Locals, prefixes: string[]) => ({
  locale: locals.locale,
  base: `/${localePath(locals.locale)}`,
  messages: pickMessages(locals.locale, [...prefixes, 'meetings.', 'dialog.', 'apiError.']),
});
