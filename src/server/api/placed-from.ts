import type { Context } from 'hono';
import { toLocale } from '@i18n/locales';
import type { PlacedFrom } from '../orders/order-state';
import type { Env } from './context';

/**
 * Where a request places an order from: the registrant's language as the request states it
 * (`?lang=`, else Accept-Language, which the portal's API client sets to the page's language),
 * null when it states none (its e-mails then come in both languages); and the portal origin the
 * links of its e-mails point to (SITE_URL or the request's; not the in-process `.invalid` one).
 */
export function placedFrom(c: Context<Env>, origin: string): PlacedFrom {
  const locale = toLocale(c.req.query('lang')) ?? (c.req.header('accept-language') ? c.get('locale') : null);
  let siteOrigin: string | null = null;
  try {
    const url = new URL(origin);
    if (!url.hostname.endsWith('.invalid')) siteOrigin = url.origin;
  } catch {
    siteOrigin = null;
  }
  return { locale, siteOrigin };
}
