import type { AdminMeeting, AdminMeetings, Data, MeetingCheckInResult, Sendable } from '@domain/contract';
import {
  MeetingCheckIn,
  MeetingMove,
  MeetingSettingsInput,
  type MeetingAttendance,
  companyNameIn,
} from '@domain/meetings';
import { isUuid } from '@domain/validation';
import type { Locale } from '@i18n/locales';
import { labelsFor, type Column } from '../../exports/columns';
import { csvStream, xlsxStream } from '../../exports/writers';
import { verifyMeetingCode } from '../../meetings/check-in';
import { meetingMailer } from '../../meetings/meeting-mails';
import {
  editionMeetings,
  editionSlots,
  loadMeeting,
  meetingSetup,
  moveMeeting,
  saveMeetingSettings,
} from '../../meetings/meetings';
import type { ApiApp, RouteContext } from '../context';
import { ApiError, notFound } from '../errors';
import { requireRight } from './admin';
import { checkIn } from './meetings';

type Row = Awaited<ReturnType<typeof editionMeetings>>[number];

const company = companyNameIn;

const adminMeetingView = (m: Row, l: Locale) =>
  ({
    id: m.id,
    status: m.status,
    startsAt: m.startsAt,
    endsAt: m.endsAt,
    day: m.day,
    slotId: m.slotId,
    table: m.tableName,
    tables: m.tableNames ?? (m.tableName ? [m.tableName] : []),
    companyName: company(m, l),
    buyer: m.buyerName ? `${m.buyerName} <${m.buyerEmail}>` : m.buyerEmail,
    createdAt: m.createdAt,
    expiresAt: m.expiresAt,
    attendance: m.attendance,
  }) satisfies Sendable<AdminMeeting>;

/** A request waiting longer than this is "pending too long" on the organiser's page. */
const STALE_MS = 24 * 3_600_000;

/**
 * The business meeting centre in the back office (issue 23), behind the `/admin/*` gate: the
 * set-up of the current edition (right `edition`), the schedule (right `read`), the export of the
 * meetings with both parties (right `read`), and the desk's table check-in (right `desk`).
 */
export function adminMeetingRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;

  app.get('/admin/meetings', requireRight('read'), async (c) => {
    const locale = c.get('locale');
    const setup = await meetingSetup(deps.db);
    const now = ctx.now();
    const rows = setup ? await editionMeetings(deps.db, setup.edition.id) : [];
    const slots = setup ? await editionSlots(deps.db, setup.edition.id) : [];
    // Meetings whose slot has ended: one never scanned present is a no-show (the job runner
    // records it too).
    const past = rows.filter((m) => m.status === 'accepted' && m.endsAt <= now);
    const noShow = past.filter((m) => m.attendance !== 'present').length;
    const present = past.filter((m) => m.attendance === 'present').length;
    const s = setup?.settings;
    return ctx.send(c, {
      data: {
        edition: setup
          ? { id: setup.edition.id, name: locale === 'zh-TW' ? setup.edition.nameZh : setup.edition.nameEn }
          : null,
        settings: s
          ? {
              days: s.days,
              opensAt: s.opensAt,
              closesAt: s.closesAt,
              slotMinutes: s.slotMinutes,
              pendingCap: s.pendingCap,
              dailyCap: s.dailyCap,
              cancelCutoffHours: s.cancelCutoffHours,
              requestExpiryHours: s.requestExpiryHours,
              tables: setup.tables.filter((t) => t.active).map((t) => t.name),
            }
          : null,
        tables: (setup?.tables ?? []).filter((t) => t.active).map((t) => t.name),
        slots: slots.map((sl) => ({ id: sl.id, startsAt: sl.startsAt, endsAt: sl.endsAt, day: sl.day })),
        meetings: rows
          .filter((m) => m.status === 'accepted' || m.status === 'requested')
          .map((m) => adminMeetingView(m, locale)),
        stale: rows
          .filter((m) => m.status === 'requested' && now.getTime() - m.createdAt.getTime() > STALE_MS)
          .map((m) => adminMeetingView(m, locale)),
        attendance: {
          past: past.length,
          present,
          noShow,
          noShowRate: past.length ? noShow / past.length : null,
        },
      },
    } satisfies Sendable<Data<AdminMeetings>>);
  });

  app.put('/admin/meetings/settings', requireRight('edition'), async (c) => {
    const input = await ctx.readJson(c, MeetingSettingsInput);
    const setup = await meetingSetup(deps.db);
    if (!setup) throw notFound('Edition');
    await saveMeetingSettings(deps.db, setup.edition, input, c.get('user').email.toLowerCase());
    return ctx.send(c, { data: { saved: true } } satisfies Sendable<Data<{ saved: boolean }>>);
  });

  // The meetings with both parties (accepted and requested), CSV or XLSX, in the caller's language.
  app.get('/admin/meetings/export/:file', requireRight('read'), async (c) => {
    const match = /^meetings\.(csv|xlsx)$/.exec(c.req.param('file'));
    if (!match) throw notFound('Export');
    const format = match[1] as 'csv' | 'xlsx';
    const setup = await meetingSetup(deps.db);
    const rows = setup ? await editionMeetings(deps.db, setup.edition.id) : [];
    const w = labelsFor(c.get('locale'));
    const col = (key: string, kind: Column<Row>['kind'], value: Column<Row>['value']): Column<Row> => ({
      key,
      header: w.l(`admin.meetings.col.${key}`),
      kind,
      value,
    });
    const columns: Column<Row>[] = [
      col('startsAt', 'date', (r) => r.startsAt),
      col('endsAt', 'date', (r) => r.endsAt),
      col('table', 'text', (r) => r.tableName ?? ''),
      col('status', 'text', (r) => w.l(`meetings.status.${r.status}`)),
      col('exhibitor', 'text', (r) => company(r, w.locale)),
      col('buyerName', 'text', (r) => r.buyerName ?? ''),
      col('buyerEmail', 'text', (r) => r.buyerEmail),
      col('attendance', 'text', (r) => (r.attendance ? w.l(`meetings.attendance.${r.attendance}`) : '')),
      col('message', 'long', (r) => r.message),
    ];
    async function* pages() {
      yield rows;
    }
    ctx.log('info', 'back office export', { dataset: 'meetings', format, by: c.get('user').email });
    const body =
      format === 'csv'
        ? csvStream(columns, pages(), () => {})
        : xlsxStream(w.l('admin.meetings.title'), columns, pages(), () => {});
    return new Response(body, {
      headers: {
        'content-type':
          format === 'csv'
            ? 'text/csv; charset=utf-8'
            : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': `attachment; filename="meetings.${format}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  });

  // The organiser moves an accepted meeting: another slot and/or table; both parties get the "changed" mail.
  app.post('/admin/meetings/:id/move', requireRight('edition'), async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw notFound('Meeting');
    const body = await ctx.readJson(c, MeetingMove);
    await moveMeeting(
      deps.db,
      { meetingId: id.toLowerCase(), slotId: body.slotId?.toLowerCase(), tableName: body.table, now: ctx.now() },
      meetingMailer({ from: deps.config.MAIL_FROM, origin: ctx.originOf(c) }, ctx.now),
    );
    const row = await loadMeeting(deps.db, id.toLowerCase());
    ctx.log('info', 'meeting moved', { meeting: id, by: c.get('user').email });
    return ctx.send(c, { data: adminMeetingView(row!, c.get('locale')) } satisfies Sendable<Data<AdminMeeting>>);
  });

  // The desk's scan at a table (right `desk`): any meeting of the edition.
  app.post('/admin/meetings/check-in', requireRight('desk'), async (c) => {
    const body = await ctx.readJson(c, MeetingCheckIn);
    const id = verifyMeetingCode(body.code, deps.config.PICKUP_CODE_SECRET);
    if (!id) throw new ApiError(400, 'invalid_meeting_code', 'This is not a genuine meeting code');
    const row = await loadMeeting(deps.db, id);
    if (!row) throw notFound('Meeting');
    return ctx.send(c, {
      data: await checkIn(ctx, row, body.attendance as MeetingAttendance, c.get('user').email, c.get('locale')),
    } satisfies Sendable<Data<MeetingCheckInResult>>);
  });
}
