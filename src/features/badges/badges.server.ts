import { ApiError, type ApiClient } from '@lib/api';
import { displayIdentity, signInHref } from '@lib/auth';
import { load, loadFailure } from '@lib/load';
import type { BadgeIdentity } from '@domain/badges';
import { ISSUED_STATUSES } from '@domain/order-lifecycle';
import { badgeProfessional } from '@domain/kinds/badge-professional';
import { stepFromSearch } from '@lib/wizard';
import { BADGE_STEPS } from './BadgeWizard';
import { islandProps } from '@lib/island-props.server';

/** The signed-in user's badge of the current edition, or of the edition `edition` names (404 = none yet). */
export const loadBadge = (api: ApiClient, edition?: string) => load(async () => (await api.badges.get(edition)).data);

/** Whether the signed-in user holds an issued (paid or free) badge of the current edition (decision 068). */
export async function holdsIssuedCurrentBadge(api: ApiClient): Promise<boolean> {
  const badge = await loadBadge(api);
  return badge.kind === 'ok' && (ISSUED_STATUSES as readonly string[]).includes(badge.data.paymentStatus);
}

/** The signed-in user's badge order of the current edition, or of the edition `edition` names (404 = none). */
export const loadBadgeOrder = (api: ApiClient, edition?: string) =>
  load(async () => (await api.badges.order(edition)).data);

/** An event by slug (public). */
export const loadEvent = (api: ApiClient, slug: string) => load(async () => (await api.events.get(slug)).data);

/**
 * The current edition's Professional badge event (the public list's; "Start the next edition"
 * copies it under a new slug), else the seeded `badge-professional` (closed or archived events are
 * out of the list: its page says so).
 */
export async function loadProfessionalBadgeEvent(api: ApiClient) {
  const listed = await load(async () =>
    (await api.events.list()).data.find((e) => e.type === badgeProfessional.eventType),
  );
  if (listed.kind === 'ok' && listed.data) return { kind: 'ok' as const, data: listed.data };
  return loadEvent(api, 'badge-professional');
}

/** The edition's badge pick-up schedule (public): the current edition's, or the one `edition` names. */
export const loadPickupSchedule = (api: ApiClient, edition?: string) =>
  load(async () => (await api.events.pickupSchedule(edition)).data);

/** Whether the user already holds a badge or a live badge order (badges/new, get-badge). */
export async function holdsBadge(api: ApiClient): Promise<boolean> {
  const badge = await loadBadge(api);
  if (badge.kind === 'ok') return true;
  const order = await loadBadgeOrder(api);
  return order.kind === 'ok' && ['pending', 'checking', 'paid', 'free'].includes(order.data.paymentStatus);
}

/** A one-time link as the get-badge page finds it on opening (spec §8: 404 expired, 409 used; 410 revoked or a past edition's). */
export type LinkCheck =
  | { kind: 'valid' | 'claimed'; identity: BadgeIdentity }
  | { kind: 'expired' | 'used' | 'revoked' | 'past_edition' | 'not_for_user' | 'unauthorized' }
  | { kind: 'error'; status: number; statusText: string };

/** Checks a one-time link without claiming it (`api.badges.checkLink`). */
export async function checkBadgeLink(api: ApiClient, code: string, type: string): Promise<LinkCheck> {
  try {
    const { data } = await api.badges.checkLink(code, type);
    return { kind: data.state, identity: data.identity };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) return { kind: 'unauthorized' };
    if (error.code === 'link_expired') return { kind: 'expired' };
    if (error.code === 'link_used') return { kind: 'used' };
    if (error.code === 'link_revoked') return { kind: 'revoked' };
    if (error.code === 'link_past_edition') return { kind: 'past_edition' };
    if (error.code === 'link_not_for_user') return { kind: 'not_for_user' };
    // A code the API will never take (400: empty or too long) is a link that does not exist.
    if (error.status === 400 || error.status === 404) return { kind: 'expired' };
    if (error.status === 409) return { kind: 'used' };
    return loadFailure(error);
  }
}

/**
 * The BadgeWizard props both badge pages share (Professional application and free-badge link):
 * who is signed in, whether they already hold a badge, and the messages the wizard shows.
 */
export async function badgeWizardProps(locals: App.Locals, url: URL, api: ApiClient) {
  const identity = displayIdentity(locals.token);
  return {
    ...islandProps(locals.locale, ['wizard.', 'form.', 'dialog.', 'upload.', 'badge.', 'getBadge.', 'signin.button']),
    signedIn: !!identity,
    email: identity?.email ?? '',
    signInHref: signInHref(locals.locale, url.pathname),
    hasBadge: identity ? await holdsBadge(api) : false,
    /** The step in the URL (`?step=form`): a reload or a language switch opens the same step. */
    initialStep: stepFromSearch(url.search, BADGE_STEPS),
  };
}
