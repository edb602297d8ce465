import { EventCreate, EventDuplicate, EventPatch, type CatalogueIssue } from '@domain/event-catalogue';
import type { AdminEvent, AdminEventDetail, Data, EventChange, Sendable } from '@domain/contract';
import { registrationWindowState } from '@domain/events';
import { kindOf } from '@domain/kinds';
import type { Locale } from '@i18n/locales';
import type { Context } from 'hono';
import type { EventRow } from '../../events/events';
import { findAdminEvent, listAdminEvents } from '../../events/event-settings';
import {
  catalogueOf,
  changeEventStatus,
  createEvent,
  duplicateEvent,
  updateEvent,
  type CatalogueWrite,
} from '../../events/event-catalogue';
import { requireRight } from './admin';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { eventImage, eventName } from '../views';

/** The field issues of a refused write: `400 validation_failed`, each issue with its snake_case path and code. */
function refused(issues: CatalogueIssue[]): never {
  const wire = issues.map((i) => ({
    path: i.path.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
    code: i.code,
    message: i.message,
    ...(i.values ? { values: i.values } : {}),
  }));
  throw badRequest('validation_failed', wire.map((i) => `${i.path}: ${i.message}`).join('; '), { issues: wire });
}

/**
 * The back office's events (issues 11 and 21), under the organiser gate (`/admin/*`): the
 * catalogue (create, change, duplicate, publish, unpublish, archive; decision 054), the settings
 * organisers change (capacity, registration window, form deadline, prices for new orders), seats
 * taken and left, and each change's history with who made it.
 */
export function adminEventRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  const answer = async (c: Context<Env>, result: CatalogueWrite, status: 200 | 201 = 200) => {
    if (result.kind === 'invalid') refused(result.issues);
    const live = await findAdminEvent(deps.db, result.event.slug);
    return ctx.send(
      c,
      {
        data: {
          ...adminEventView(result.event, live?.liveOrders ?? 0, c.get('locale'), ctx.now()),
          changed: result.changes,
        },
      },
      status,
    );
  };

  app.post('/admin/events', requireRight('edition'), async (c) => {
    const body = await ctx.readJson(c, EventCreate);
    return answer(c, await createEvent(deps.db, body, c.get('user').email, ctx.now()), 201);
  });

  app.post('/admin/events/:slug/duplicate', requireRight('edition'), async (c) => {
    const body = await ctx.readJson(c, EventDuplicate);
    return answer(c, await duplicateEvent(deps.db, c.req.param('slug'), body, c.get('user').email, ctx.now()), 201);
  });

  for (const change of ['publish', 'unpublish', 'archive'] as const)
    app.post(`/admin/events/:slug/${change}`, requireRight('edition'), async (c) => {
      const event = await changeEventStatus(deps.db, c.req.param('slug'), change, c.get('user').email, ctx.now());
      return answer(c, { kind: 'ok', event, changes: {} });
    });

  app.get('/admin/events', requireRight('read'), async (c) => {
    const rows = await listAdminEvents(deps.db);
    const now = ctx.now();
    return ctx.send(c, {
      data: rows.map((r) => adminEventView(r.event, r.liveOrders, c.get('locale'), now)),
    } satisfies Sendable<Data<AdminEvent[]>>);
  });

  app.get('/admin/events/:slug', requireRight('read'), async (c) => {
    const found = await findAdminEvent(deps.db, c.req.param('slug'));
    if (!found) throw notFound('Event');
    return ctx.send(c, {
      data: {
        ...adminEventView(found.event, found.liveOrders, c.get('locale'), ctx.now()),
        changes: found.changes.map((ch) => ({
          id: ch.id,
          changedBy: ch.changedBy,
          action: ch.action,
          createdAt: ch.createdAt,
          changes: ch.changes as EventChange['changes'],
        })),
      },
    } satisfies Sendable<Data<AdminEventDetail>>);
  });

  app.patch('/admin/events/:slug', requireRight('edition'), async (c) => {
    const patch = await ctx.readJson(c, EventPatch);
    return answer(c, await updateEvent(deps.db, c.req.param('slug'), patch, c.get('user').email, ctx.now()));
  });
}

/** An event as the back office sees it: everything it is (both languages), its status, seats taken and left, live orders. */
function adminEventView(e: EventRow, liveOrders: number, locale: Locale, now: Date) {
  const holdsSeat = kindOf(e.type).holdsSeat;
  return {
    ...catalogueOf(e),
    id: e.id,
    slug: e.slug,
    name: eventName(e, locale),
    status: e.status,
    image: eventImage(e, 640),
    registrationState: registrationWindowState(e, now),
    holdsSeat,
    seatsTaken: e.seatsTaken,
    seatsLeft: e.capacity === null ? null : Math.max(0, e.capacity - e.seatsTaken),
    liveOrders,
    updatedAt: e.updatedAt,
  } satisfies Sendable<AdminEvent>;
}
