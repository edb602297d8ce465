import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { localized } from '@lib/routes';
import type { AdminLink } from '@domain/contract/admin';
import { adminOrderPath } from './admin';
import { batchPath } from './admin-ops';
import type { BadgeLinkTableProps } from './badge-links/BadgeLinkTable';
import { islandProps } from '@lib/island-props.server';

/*
 * The page loaders of the back office's badge links, events and exports screens (issue 11). The
 * gate (`adminGate`) has already asked who is asking; these read what the pages show.
 */

export const loadLinks = (api: ApiClient, query: Record<string, string | number>) =>
  load(() => api.admin.badgeLinks.list(query));
export const loadBatches = (api: ApiClient) => load(async () => (await api.admin.batches.list()).data);
export const loadBatch = (api: ApiClient, id: string) => load(async () => (await api.admin.batches.get(id)).data);

export const loadAdminEvents = (api: ApiClient) => load(async () => (await api.admin.events.list()).data);
export const loadAdminEvent = (api: ApiClient, slug: string) =>
  load(async () => (await api.admin.events.get(slug)).data);

/** What every island of these screens gets: the language, the home path (401 rule) and its messages. */
export const islandBase = (locals: App.Locals, prefixes: string[]) =>
  islandProps(locals.locale, [...prefixes, 'apiError.', 'dialog.']);

/** The BadgeLinkTable island's props: its words, the links, who is asking, where orders and batches are. */
export function badgeLinkTableProps(
  locals: App.Locals,
  links: AdminLink[],
  gate: { kind: string; organiser?: { email: string } },
  withBatches: boolean,
): BadgeLinkTableProps {
  return {
    ...islandBase(locals, ['admin.links.', 'identity.']),
    caption: locals.t('admin.links.list'),
    links,
    organiser: gate.organiser?.email ?? '',
    orderPathPrefix: localized(locals.locale, adminOrderPath('')),
    batchPathPrefix: withBatches ? localized(locals.locale, batchPath('')) : null,
  };
}
