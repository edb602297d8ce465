import type { AstroGlobal } from 'astro';
import type { Order } from '@domain/orders';
import { orderPages, registerPath } from '@domain/kinds/pages';
import { serverApi } from '@lib/embedded-api.server';
import { localized } from '@lib/routes';
import { signInRedirect } from '@lib/auth.server';
import { loadEvent } from '../badges/badges.server';
import { loadOrder } from './orders.server';
import type { LoadFailure } from '@lib/load';

/**
 * The loader of an event order's own pages (summary, pending): sign-in, the order, a 404 back to
 * registration (badges/new for badges, spec §8), a 5xx as the page's status, and the order's own
 * event slug in the URL (a 301 to the canonical page). Answers the redirect, or what to render.
 */
export async function loadEventOrderPage(
  Astro: AstroGlobal,
  page: 'summary' | 'pending',
): Promise<Response | { order: Order | null; failure: LoadFailure | null }> {
  const { locale, token } = Astro.locals;
  const { eventId = '', orderId = '' } = Astro.params;
  if (!token) return signInRedirect(Astro);
  const api = await serverApi(Astro.locals);
  const result = await loadOrder(api, orderId);
  if (result.kind === 'unauthorized') return signInRedirect(Astro);
  if (result.kind === 'not_found') {
    const event = await loadEvent(api, eventId);
    const type = event.kind === 'ok' ? event.data.type : undefined;
    return Astro.redirect(localized(locale, registerPath({ type, slug: eventId })), 302);
  }
  if (result.kind === 'error') {
    Astro.response.status = result.status;
    return { order: null, failure: result };
  }
  const order = result.data;
  if (order.eventSlug !== eventId) return Astro.redirect(localized(locale, orderPages(order)[page]), 301);
  return { order, failure: null };
}
