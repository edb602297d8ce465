import { pickMessages } from '@i18n/i18n';
import { localePath } from '@i18n/locales';
import type { ApiClient } from '@lib/api';
import { displayIdentity, signInHref } from '@lib/auth';
import type { Event } from '@domain/events';
import type { Order } from '@domain/orders';
import { load } from '../orders/orders.server';
import type { Badge } from '@domain/badges';

/** The signed-in user's badge (404 = none yet). */
export const loadBadge = (api: ApiClient) =>
  load(async () => (await api.get<{ data: Badge }>('/api/v1/demonstration')).data);

/** The signed-in user's badge order (404 = none). */
export const loadBadgeOrder = (api: ApiClient) =>
  load(async () => (await api.get<{ data: Order }>('/api/v1/demonstration_order')).data);

/** An event by slug (public). */
export const loadEvent = (api: ApiClient, slug: string) =>
  load(async () => (await api.get<{ data: Event }>(`/api/v1/events/${encodeURIComponent(slug)}`)).data);

/** Whether the user already holds a badge or a live badge order (badges/new, get-badge). */
export async function holdsBadge(api: ApiClient): Promise<boolean> {
  const badge = await loadBadge(api);
  if (badge.kind === 'ok') return true;
  const order = await loadBadgeOrder(api);
  return order.kind === 'ok' && ['pending', 'checking', 'paid', 'free'].includes(order.data.paymentStatus);
}

/**
 * The BadgeWizard props both badge pages share (Professional application and free-badge link):
 * who is signed in, whether they already hold a badge, and the messages the wizard shows.
 */
export async function badgeWizardProps(locals: App.Locals, url: URL, api: ApiClient) {
  const identity = displayIdentity(locals.token);
  return {
    locale: locals.locale,
    base: `/${localePath(locals.locale)}`,
    messages: pickMessages(locals.locale, [
      'wizard.',
      'form.',
      'dialog.',
      'upload.',
      'badge.',
      'getBadge.',
      'signin.button',
    ]),
    signedIn: !!identity,
    email: identity?.email ?? '',
    signInHref: signInHref(locals.locale, url.pathname),
    hasBadge: identity ? await holdsBadge(api) : false,
  };
}
