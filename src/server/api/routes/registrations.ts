import { resolveSelectedWorks } from '../../content/works';
import type { Data, PitchingUsage, PlacedOrder, Registration, Sendable } from '@domain/contract';
import { contentUser } from './contents';
import {
  findRegistration,
  registrationContext,
  registerForEvent,
  registrationKindOf,
  updateRegistrationForm,
} from '../../orders/registrations';
import type { ApiApp, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { placedFrom } from '../placed-from';
import { DomainError } from '@domain/errors';
import { pitchingUsage } from '../../kinds/pitching';
import { kindOf, takesEventRegistration } from '@domain/kinds';

/**
 * Event and Market registration (spec §7: POST /orders?event=…&registration_type=…, the body's
 * struct chosen by the event's kind) and the registrations behind orders (GET, and PUT from the
 * contact page).
 */
export function registrationRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;

  app.post('/orders', auth, ctx.limits.orders, async (c) => {
    const eventSlug = c.req.query('event');
    if (!eventSlug) throw badRequest('validation_failed', 'event: the event query parameter is required');
    // The event, with what the registration checks of it and the user, in one statement.
    const context = await registrationContext(deps.db, { slug: eventSlug, userId: c.get('user').id, now: ctx.now() });
    if (!context) throw notFound('Event');
    const { event } = context;
    // The body's struct is the event kind's (the terms checkbox, the exhibitor form, a pitching entry).
    const kind = kindOf(event.type);
    if (!takesEventRegistration(kind)) throw new DomainError('event_type_not_supported');
    const body: unknown = await ctx.readJson(c, kind.body);
    const user = c.get('user');
    const created = await registerForEvent(
      deps.db,
      {
        userId: user.id,
        email: user.email,
        eventSlug,
        registrationType: c.req.query('registration_type'),
        body,
        resolveWorks: async (ids) => resolveSelectedWorks(deps.content, await contentUser(c), ids),
        context,
        ...placedFrom(c, ctx.originOf(c)),
      },
      ctx.orderCtx(),
    );
    return ctx.send(c, created satisfies Sendable<PlacedOrder>, created.existing ? 200 : 201);
  });

  // The applicant's pitching works so far (the works step shows what is left of the 5).
  app.get('/pitching/usage', auth, async (c) =>
    ctx.send(c, { data: await pitchingUsage(deps.db, c.get('user').id) } satisfies Sendable<Data<PitchingUsage>>),
  );

  app.get('/registrations/:registrationId', auth, async (c) => {
    const registration = await findRegistration(
      deps.db,
      c.get('user').id,
      c.req.param('registrationId'),
      ctx.orderCtx().now,
    );
    if (!registration) throw notFound('Registration');
    return ctx.send(c, { data: registration } satisfies Sendable<Data<Registration>>);
  });

  app.put('/registrations/:registrationId', auth, async (c) => {
    const userId = c.get('user').id;
    const registrationId = c.req.param('registrationId');
    const kind = await registrationKindOf(deps.db, userId, registrationId);
    if (!kind) throw notFound('Registration');
    if (!kind.form) throw new DomainError('no_registration_form');
    const form: unknown = await ctx.readJson(c, kind.form.struct);
    const registration = await updateRegistrationForm(deps.db, { userId, registrationId, form }, ctx.orderCtx());
    return ctx.send(c, { data: registration } satisfies Sendable<Data<Registration>>);
  });
}
