import { translator } from './i18n';
import { toLocale } from './locales';

/** Error pages may render before the middleware ran: fill in what the layout needs. */
export function ensureLocals(locals: Partial<App.Locals>, url: URL): App.Locals {
  const locale = locals.locale ?? toLocale(url.pathname.split('/')[1]) ?? 'en';
  return Object.assign(locals, { locale, t: locals.t ?? translator(locale), token: locals.token ?? null });
}
