import { pickMessages } from '@i18n/i18n';
import { localePath } from '@i18n/locales';
import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import type { AdminBatch, AdminEvent, AdminLinkPage, AdminLink, EventChange } from './admin-ops';

/*
 * The page loaders of the back office's badge links, events and exports screens (issue 11). The
 * gate (`adminGate`) has already asked who is asking; these read what the pages show.
 */

export const loadLinks = (api: ApiClient, query: Record<string, string | number>) =>
  load(() => api.get<AdminLinkPage>('/api/v1/admin/badge-links', query));
export const loadBatches = (api: ApiClient) =>
  load(async () => (await api.get<{ data: AdminBatch[] }>('/api/v1/admin/badge-link-batches')).data);
export const loadBatch = (api: ApiClient, id: string) =>
  load(
    async () =>
      (
        await api.get<{ data: AdminBatch & { links: AdminLink[] } }>(
          `/api/v1/admin/badge-link-batches/${encodeURIComponent(id)}`,
        )
      ).data,
  );

export const loadAdminEvents = (api: ApiClient) =>
  load(async () => (await api.get<{ data: AdminEvent[] }>('/api/v1/admin/events')).data);
export const loadAdminEvent = (api: ApiClient, slug: string) =>
  load(
    async () =>
      (
        await api.get<{ data: AdminEvent & { changes: EventChange[] } }>(
          `/api/v1/admin/events/${encodeURIComponent(slug)}`,
        )
      ).data,
  );

/** What every island of these screens gets: the language, the home path (401 rule) and its messages. */
export function islandBase(locals: App.Locals, prefixes: string[]) {
  return {
    locale: locals.locale,
    base: `/${localePath(locals.locale)}`,
    messages: pickMessages(locals.locale, [...prefixes, 'apiError.', 'dialog.']),
  };
}
