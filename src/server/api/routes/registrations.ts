import { EventRegistration } from '@domain/registration-kinds';
import { findRegistration, registerForEvent } from '../../services/registrations';
import type { ApiApp, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { placedFrom } from '../placed-from';

/** Event registration (spec §7: POST /orders?event=…&registration_type=…) and registrations. */
export function registrationRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;

  app.post('/orders', auth, async (c) => {
    const eventSlug = c.req.query('event');
    if (!eventSlug) throw badRequest('validation_failed', 'event: the event query parameter is required');
    await ctx.readJson(c, EventRegistration);
    const created = await registerForEvent(
      deps.db,
      {
        userId: c.get('user').id,
        email: c.get('user').email,
        eventSlug,
        registrationType: c.req.query('registration_type'),
        ...placedFrom(c, ctx.originOf(c)),
      },
      ctx.orderCtx(),
    );
    return ctx.send(c, created, created.existing ? 200 : 201);
  });

  app.get('/registrations/:registrationId', auth, async (c) => {
    const registration = await findRegistration(deps.db, c.get('user').id, c.req.param('registrationId'));
    if (!registration) throw notFound('Registration');
    return ctx.send(c, { data: registration });
  });
}
