import { and, count, eq, or } from 'drizzle-orm';
import type { Data, Meeting, MeetingCheckInResult, MeetingSlot, MyMeetings, Sendable } from '@domain/contract';
import {
  cancellable,
  ExhibitorMeetingPrefs,
  MeetingCheckIn,
  MeetingRequest,
  type MeetingAction,
  type MeetingAttendance,
  companyNameIn,
} from '@domain/meetings';
import { isStanding } from '@domain/orders';
import { can } from '@domain/roles';
import { isUuid } from '@domain/validation';
import type { Locale } from '@i18n/locales';
import { eventChanges, events, orders } from '../../db/schema';
import { organiserRole } from '../../identity/organisers';
import { qrPng } from '../../badges/pickup';
import { calendarFile, calendarResponse } from '../../meetings/calendar';
import { meetingCode, recordAttendance, verifyMeetingCode } from '../../meetings/check-in';
import { listedExhibitor } from '../../market/directory';
import { meetingCalendar, meetingMailer } from '../../meetings/meeting-mails';
import {
  actOnMeeting,
  editionSlots,
  freeSlots,
  holdsIssuedBadge,
  loadMeeting,
  meetingOf,
  meetingSetup,
  myExhibitors,
  myMeetings,
  requestMeeting,
  setExhibitorPrefs,
  sideOf,
  unavailableSlots,
  type MeetingFacts,
} from '../../meetings/meetings';
import type { ApiApp, RouteContext } from '../context';
import { ApiError, notFound } from '../errors';

const companyName = companyNameIn;

export const slotView = (s: { id: string; startsAt: Date; endsAt: Date }) =>
  ({ id: s.id, startsAt: s.startsAt, endsAt: s.endsAt }) satisfies Sendable<MeetingSlot>;

/**
 * Market meetings (issue 23): an exhibitor's free slots (public), a badge holder's requests, the
 * parties' actions and lists, the exhibitor's preferences, calendar files (meetings and event
 * registrations; the owner's alone, 404 to anyone else) and the exhibitor's table check-in.
 */
export function meetingRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  const mailer = (c: Parameters<RouteContext['originOf']>[0]) =>
    meetingMailer({ from: deps.config.MAIL_FROM, origin: ctx.originOf(c) }, ctx.now);

  /** A meeting as its party sees it (`side`), with the QR of an accepted one for the buyer. */
  const view = async (m: MeetingFacts & { side: 'buyer' | 'exhibitor' }, locale: Locale, cutoffHours: number) => {
    const accepted = m.status === 'accepted';
    const code = accepted && m.side === 'buyer' ? meetingCode(m.id, deps.config.PICKUP_CODE_SECRET) : null;
    return {
      id: m.id,
      status: m.status,
      side: m.side,
      message: m.message,
      startsAt: m.startsAt,
      endsAt: m.endsAt,
      day: m.day,
      table: m.tableName,
      exhibitor: { id: m.exhibitorId, companyName: companyName(m, locale) },
      buyer: { name: m.buyerName, email: m.buyerEmail },
      expiresAt: m.expiresAt,
      attendance: m.attendance,
      cancellable: m.status === 'requested' || (accepted && cancellable(m.startsAt, ctx.now(), cutoffHours)),
      calendarUrl: accepted || m.sequence > 0 ? `/api/v1/meetings/${m.id}/calendar.ics` : null,
      qrPng: code ? await qrPng(code) : null,
      checkInCode: code,
    } satisfies Sendable<Meeting>;
  };

  const cutoff = async () => (await meetingSetup(deps.db))?.settings?.cancelCutoffHours ?? 0;

  // ---- Public: an exhibitor's free slots ----------------------------------------------------
  app.get('/market/exhibitors/:id/slots', async (c) => {
    const id = c.req.param('id');
    const exhibitor = isUuid(id) ? await listedExhibitor(deps.db, id.toLowerCase()) : undefined;
    if (!exhibitor) throw notFound('Exhibitor');
    const slots = await freeSlots(deps.db, exhibitor.id, ctx.now());
    c.header('cache-control', 'no-store');
    return ctx.send(c, {
      data: slots.map(slotView),
      meta: { exhibitor: { id: exhibitor.id, companyName: companyName(exhibitor, c.get('locale')) } },
    } satisfies Sendable<Data<MeetingSlot[]> & { meta: { exhibitor: { id: string; companyName: string } } }>);
  });

  // ---- A badge holder's request ---------------------------------------------------------------
  app.post('/meetings', ctx.auth, async (c) => {
    const body = await ctx.readJson(c, MeetingRequest);
    const user = c.get('user');
    if (!(await holdsIssuedBadge(deps.db, user.id, body.slotId.toLowerCase())))
      throw new ApiError(403, 'demonstration_invalid', 'Booking a meeting needs an issued badge');
    const id = await requestMeeting(
      deps.db,
      {
        buyer: user,
        exhibitorId: body.exhibitorId.toLowerCase(),
        slotId: body.slotId.toLowerCase(),
        message: body.message,
        locale: c.get('locale'),
        now: ctx.now(),
      },
      mailer(c),
    );
    const row = await meetingOf(deps.db, user, id);
    return ctx.send(
      c,
      { data: await view(row!, c.get('locale'), await cutoff()) } satisfies Sendable<Data<Meeting>>,
      201,
    );
  });

  // ---- My meetings --------------------------------------------------------------------------
  app.get('/meetings', ctx.auth, async (c) => {
    const user = c.get('user');
    const locale = c.get('locale');
    const hours = await cutoff();
    const rows = await myMeetings(deps.db, user);
    const exhibitors = await myExhibitors(deps.db, user);
    const setup = await meetingSetup(deps.db);
    const slots = exhibitors.length && setup ? await editionSlots(deps.db, setup.edition.id) : [];
    return ctx.send(c, {
      data: {
        meetings: await Promise.all(rows.map((r) => view(r, locale, hours))),
        exhibitors: await Promise.all(
          exhibitors.map(async (e) => ({
            id: e.id,
            companyName: companyName(e, locale),
            tablesNeeded: e.tablesNeeded,
            autoAccept: e.autoAccept,
            unavailableSlotIds: await unavailableSlots(deps.db, e.id),
          })),
        ),
        slots: slots.map(slotView),
      },
    } satisfies Sendable<Data<MyMeetings>>);
  });

  app.get('/meetings/:id', ctx.auth, async (c) => {
    const id = c.req.param('id');
    const row = isUuid(id) ? await meetingOf(deps.db, c.get('user'), id.toLowerCase()) : undefined;
    if (!row) throw notFound('Meeting');
    return ctx.send(c, { data: await view(row, c.get('locale'), await cutoff()) } satisfies Sendable<Data<Meeting>>);
  });

  for (const action of ['accept', 'decline', 'cancel'] as const satisfies readonly MeetingAction[])
    app.post(`/meetings/:id/${action}`, ctx.auth, async (c) => {
      const id = c.req.param('id');
      if (!isUuid(id)) throw notFound('Meeting');
      const user = c.get('user');
      await actOnMeeting(deps.db, { user, meetingId: id.toLowerCase(), action, now: ctx.now() }, mailer(c));
      const row = await meetingOf(deps.db, user, id.toLowerCase());
      return ctx.send(c, { data: await view(row!, c.get('locale'), await cutoff()) } satisfies Sendable<Data<Meeting>>);
    });

  // ---- The exhibitor's preferences ------------------------------------------------------------
  app.put('/meetings/exhibitors/:id', ctx.auth, async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw notFound('Exhibitor');
    const prefs = await ctx.readJson(c, ExhibitorMeetingPrefs);
    await setExhibitorPrefs(deps.db, c.get('user'), id.toLowerCase(), prefs);
    return ctx.send(c, { data: { id: id.toLowerCase(), saved: true } } satisfies Sendable<
      Data<{ id: string; saved: boolean }>
    >);
  });

  // ---- Calendar files -----------------------------------------------------------------------
  app.get('/meetings/:id/calendar.ics', ctx.authOrCookie, async (c) => {
    const id = c.req.param('id');
    const row = isUuid(id) ? await meetingOf(deps.db, c.get('user'), id.toLowerCase()) : undefined;
    // A request never accepted has no calendar entry to add or remove.
    if (!row || (row.status !== 'accepted' && row.sequence === 0)) throw notFound('Meeting');
    return calendarResponse(
      meetingCalendar(row, c.get('locale'), deps.config.MAIL_FROM, ctx.now()),
      `meeting-${row.id.slice(0, 8)}.ics`,
    );
  });

  app.get('/orders/:orderId/calendar.ics', ctx.authOrCookie, async (c) => {
    const id = c.req.param('orderId');
    const user = c.get('user');
    const [row] = await deps.db
      .select({ order: orders, event: events })
      .from(orders)
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(
        and(
          eq(orders.userId, user.id),
          isUuid(id) ? or(eq(orders.id, id.toLowerCase()), eq(orders.orderNo, id)) : eq(orders.orderNo, id),
        ),
      )
      .limit(1);
    if (!row) throw notFound('Order');
    const { order, event } = row;
    const locale = c.get('locale');
    const cancelled = !isStanding(order);
    // Every saved change of the event counts one, and a cancellation one more.
    const [changes] = await deps.db.select({ n: count() }).from(eventChanges).where(eq(eventChanges.eventId, event.id));
    const zh = locale === 'zh-TW';
    return calendarResponse(
      calendarFile({
        uid: `order-${order.id}@tccf`,
        sequence: (changes?.n ?? 0) + (cancelled ? 1 : 0),
        start: event.startTime,
        end: event.endAt,
        summary: zh ? event.nameZh || event.nameEn : event.nameEn || event.nameZh,
        location: zh ? event.locationZh || event.locationEn : event.locationEn || event.locationZh,
        description: `${order.orderNo}`,
        cancelled,
        organizer: deps.config.MAIL_FROM,
        stamp: ctx.now(),
      }),
      `${order.orderNo}.ics`,
    );
  });

  // ---- Table check-in by the exhibitor --------------------------------------------------------
  app.post('/meetings/check-in', ctx.auth, async (c) => {
    const body = await ctx.readJson(c, MeetingCheckIn);
    const user = c.get('user');
    const id = verifyMeetingCode(body.code, deps.config.PICKUP_CODE_SECRET);
    if (!id) throw new ApiError(400, 'invalid_meeting_code', 'This is not a genuine meeting code');
    const row = await loadMeeting(deps.db, id);
    if (!row) throw notFound('Meeting');
    const side = sideOf(row, user);
    const desk =
      side !== 'exhibitor' &&
      (await organiserRole(deps.db, deps.config.organiserEmails, user.email).then((r) => !!r && can(r, 'desk')));
    if (side !== 'exhibitor' && !desk) throw notFound('Meeting');
    return ctx.send(c, {
      data: await checkIn(ctx, row, body.attendance as MeetingAttendance, user.email, c.get('locale')),
    } satisfies Sendable<Data<MeetingCheckInResult>>);
  });
}

/** Records the attendance and answers what the scanner shows. */
export async function checkIn(
  ctx: RouteContext,
  row: MeetingFacts,
  attendance: MeetingAttendance,
  by: string,
  locale: Locale,
) {
  await recordAttendance(ctx.deps.db, row.id, attendance, by.toLowerCase(), ctx.now());
  return {
    meetingId: row.id,
    attendance,
    startsAt: row.startsAt,
    table: row.tableName,
    companyName: companyName(row, locale),
    buyer: row.buyerName || row.buyerEmail,
  } satisfies Sendable<MeetingCheckInResult>;
}
