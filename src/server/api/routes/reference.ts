import type { Context } from 'hono';
import { object, optional, size, string } from 'superstruct';
import { ENUMERATION_KINDS, ENUMERATIONS, enumKey, type EnumerationKind } from '@domain/enumerations';
import { countryBySlug, countryName, listCountries, type Country } from '@domain/reference/countries';
import { findBySlug, isStateSlug, listCities, listStates } from '@domain/reference/nigeria';
import { catalogue } from '@i18n/catalogues';
import type { Locale } from '@i18n/locales';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';

/** Reference data changes with a release only: caches may keep it a day. */
const CACHE_CONTROL = 'public, max-age=86400';

/**
 * Reference data and enumerations (spec §3), public: countries, Nigerian states and local areas,
 * and every enumeration with its labels. Localised names follow `?lang=`, then Accept-Language.
 */
export function referenceRoutes(app: ApiApp, ctx: RouteContext) {
  const cached = (c: Context<Env>) => {
    c.header('cache-control', CACHE_CONTROL);
    c.header('vary', 'Accept-Language');
  };
  const countryView = (country: Country, locale: Locale) => ({
    ...country,
    name: countryName(country, locale),
    nameEn: country.name,
    nameZhTw: country.nameZhTw,
  });

  app.get('/reference/countries', (c) => {
    const locale = c.get('locale');
    const collator = new Intl.Collator(locale);
    const data = listCountries()
      .map((country) => countryView(country, locale))
      .sort((a, b) => collator.compare(a.name, b.name));
    cached(c);
    return ctx.send(c, { data });
  });

  app.get('/reference/countries/:slug', (c) => {
    const country = countryBySlug(c.req.param('slug'));
    if (!country) throw notFound('Country');
    cached(c);
    return ctx.send(c, { data: countryView(country, c.get('locale')) });
  });

  app.get('/reference/states', (c) => {
    cached(c);
    return ctx.send(c, { data: listStates() });
  });

  const Text = optional(size(string(), 0, 100));
  const CityQuery = object({ state: Text, name: Text, lang: optional(string()) });
  app.get('/reference/cities', (c) => {
    const query = ctx.validQuery(c, CityQuery);
    const state = query.state?.trim() || undefined;
    const name = query.name?.trim() || undefined;
    if (state && !isStateSlug(state)) {
      const message = `Unknown state "${state}": use a state slug from /api/v1/reference/states`;
      throw badRequest('validation_failed', `state: ${message}`, { issues: [{ path: 'state', message }] });
    }
    cached(c);
    return ctx.send(c, { data: listCities({ state, name }) });
  });

  app.get('/reference/places/:slug', (c) => {
    const place = findBySlug(c.req.param('slug'));
    if (!place) throw notFound('Place');
    cached(c);
    return ctx.send(c, { data: place });
  });

  app.get('/reference/enumerations', (c) => {
    const locale = c.get('locale');
    const labels = catalogue('enumerations', locale);
    const data = Object.fromEntries(
      ENUMERATION_KINDS.map((kind: EnumerationKind) => [
        kind,
        ENUMERATIONS[kind].map((id) => {
          const key = enumKey(kind, id as never);
          return { id, key, label: labels[key] ?? key };
        }),
      ]),
    );
    cached(c);
    return ctx.send(c, { data, meta: { locale } });
  });
}
