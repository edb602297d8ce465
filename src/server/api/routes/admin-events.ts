import { EventSettingsPatch } from '@domain/event-settings';
import type { AdminEvent, AdminEventDetail, AdminEventUpdated, Data, Sendable } from '@domain/contract';
import { registrationWindowState } from '@domain/events';
import { kindOf } from '@domain/kinds';
import type { Locale } from '@i18n/locales';
import type { EventRow } from '../../events/events';
import { findAdminEvent, listAdminEvents, updateEventSettings } from '../../events/event-settings';
import type { ApiApp, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { eventName } from '../views';

/**
 * The back office's events (issue 11), under the organiser gate (`/admin/*`): the settings
 * organisers change (capacity, registration window, form deadline, prices for new orders), seats
 * taken and left, and each change's history.
 */
export function adminEventRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;

  app.get('/admin/events', async (c) => {
    const rows = await listAdminEvents(deps.db);
    const now = ctx.now();
    return ctx.send(c, {
      data: rows.map((r) => adminEventView(r.event, r.liveOrders, c.get('locale'), now)),
    } satisfies Sendable<Data<AdminEvent[]>>);
  });

  app.get('/admin/events/:slug', async (c) => {
    const found = await findAdminEvent(deps.db, c.req.param('slug'));
    if (!found) throw notFound('Event');
    return ctx.send(c, {
      data: {
        ...adminEventView(found.event, found.liveOrders, c.get('locale'), ctx.now()),
        changes: found.changes.map((ch) => ({
          id: ch.id,
          changedBy: ch.changedBy,
          createdAt: ch.createdAt,
          changes: ch.changes,
        })),
      },
    } satisfies Sendable<Data<AdminEventDetail>>);
  });

  app.patch('/admin/events/:slug', async (c) => {
    const patch = await ctx.readJson(c, EventSettingsPatch);
    const result = await updateEventSettings(deps.db, c.req.param('slug'), patch, c.get('user').email, ctx.now());
    if (result.kind === 'invalid') {
      const issues = result.issues.map((i) => ({
        path: i.path.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
        code: i.code,
        message: i.message,
        ...(i.values ? { values: i.values } : {}),
      }));
      throw badRequest('validation_failed', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
    }
    const live = await findAdminEvent(deps.db, result.event.slug);
    return ctx.send(c, {
      data: {
        ...adminEventView(result.event, live?.liveOrders ?? 0, c.get('locale'), ctx.now()),
        changed: result.changes,
      },
    } satisfies Sendable<Data<AdminEventUpdated>>);
  });
}

/** An event as the back office sees it: its settings, seats taken and left, live orders. */
function adminEventView(e: EventRow, liveOrders: number, locale: Locale, now: Date) {
  const holdsSeat = kindOf(e.type).holdsSeat;
  return {
    id: e.id,
    slug: e.slug,
    type: e.type,
    name: eventName(e, locale),
    nameEn: e.nameEn,
    nameZh: e.nameZh,
    startTime: e.startTime,
    endAt: e.endAt,
    registrationState: registrationWindowState(e, now),
    holdsSeat,
    capacity: e.capacity,
    seatsTaken: e.seatsTaken,
    seatsLeft: e.capacity === null ? null : Math.max(0, e.capacity - e.seatsTaken),
    liveOrders,
    registerStartAt: e.registerStartAt,
    registerEndAt: e.registerEndAt,
    formModifyExpiresAt: e.formModifyExpiresAt,
    priceCentsTwd: e.priceCentsTwd,
    priceCentsUsd: e.priceCentsUsd,
    originalPriceCentsTwd: e.originalPriceCentsTwd,
    updatedAt: e.updatedAt,
  } satisfies Sendable<AdminEvent>;
}
