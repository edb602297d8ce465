import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '@server/db/seed';
import * as schema from '@server/db/schema';
import { newOrderNo } from '@server/orders/order-no';
import { meetingCode } from '@server/meetings/check-in';
import { mailPass } from '@server/jobs/worker';
import { recordNoShows } from '@server/meetings/meetings';
import { outboxTransport } from '@server/mail/transport';
import { giveBadges, json } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const DAY = 24 * 3_600_000;
/** A Taipei date `days` from now. */
const taipeiDate = (days: number) => new Date(Date.now() + days * DAY + 8 * 3_600_000).toISOString().slice(0, 10);

type Slot = { id: string; starts_at: string; ends_at: string };
type WireMeeting = {
  id: string;
  status: string;
  side: string;
  table: string | null;
  calendar_url: string | null;
  qr_png: string | null;
  exhibitor: { id: string; company_name: string };
};

describe.each(DATABASES)('market meetings API (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let olivia: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  const db = () => database.db;
  const post = (token: string, path: string, body: unknown) => app.request(path, json(token, 'POST', body));
  const get = (token: string, path: string) => app.request(path, bearer(token));

  const settings = (over: Record<string, unknown> = {}) => ({
    days: [taipeiDate(10), taipeiDate(11)],
    opens_at: '10:00',
    closes_at: '12:00',
    slot_minutes: 30,
    pending_cap: 3,
    daily_cap: 4,
    cancel_cutoff_hours: 24,
    request_expiry_hours: 48,
    tables: ['A1', 'A2'],
    ...over,
  });
  const setUp = async (over: Record<string, unknown> = {}) => {
    const res = await app.request('/api/v1/admin/meetings/settings', json(olivia, 'PUT', settings(over)));
    expect(res.status).toBe(200);
  };

  /** A signed-in user (its token and id). */
  async function person(email: string) {
    const { token } = await signIn(app, email, email.split('@')[0]!);
    const [user] = await db().select().from(schema.users).where(eq(schema.users.email, email));
    return { token, id: user!.id, email };
  }

  /** A badge holder. */
  async function buyer(email: string) {
    const p = await person(email);
    await giveBadges(db(), [p]);
    return p;
  }

  /** A listed exhibitor: a paid Market online registration of `email` (its id is the registration's). */
  async function exhibitor(email: string, company: string, contactEmail = `contact.${email}`) {
    const owner = await person(email);
    const [event] = await db().select().from(schema.events).where(eq(schema.events.slug, 'market-online'));
    const [order] = await db()
      .insert(schema.orders)
      .values({
        orderNo: newOrderNo('TM'),
        userId: owner.id,
        eventId: event!.id,
        registrationType: 'MARKET_ONLINE',
        paymentStatus: 'paid',
        approvalStatus: 'approved',
      })
      .returning();
    const [reg] = await db()
      .insert(schema.registrations)
      .values({
        orderId: order!.id,
        userId: owner.id,
        form: { companyNameEn: company, companyNameZh: `${company}（中）` },
        contact: { contactName: 'C', contactTitle: 'T', contactPhone: '1', contactEmail },
      })
      .returning();
    return { ...owner, exhibitorId: reg!.id, orderId: order!.id };
  }

  const slotsOf = async (exhibitorId: string) => {
    const res = await app.request(`/api/v1/market/exhibitors/${exhibitorId}/slots`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Slot[] }).data;
  };
  const book = (token: string, exhibitorId: string, slotId: string, message = 'Hello') =>
    post(token, '/api/v1/meetings', { exhibitor_id: exhibitorId, slot_id: slotId, message });

  beforeEach(async () => {
    await database.reset();
    await seed(db());
    app = await createTestApp(database, { ORGANISER_EMAILS: 'olivia@example.com' });
    olivia = (await signIn(app, 'olivia@example.com', 'Olivia')).token;
    await setUp();
  });

  it('lists an exhibitor’s free slots; 404 for one not listed', async () => {
    const ex = await exhibitor('ex1@example.com', 'Harbour Films');
    const slots = await slotsOf(ex.exhibitorId);
    expect(slots).toHaveLength(8);
    expect(slots[0]!.starts_at).toBe(new Date(`${taipeiDate(10)}T10:00:00+08:00`).toISOString());
    await db().update(schema.orders).set({ paymentStatus: 'pending' }).where(eq(schema.orders.id, ex.orderId));
    expect((await app.request(`/api/v1/market/exhibitors/${ex.exhibitorId}/slots`)).status).toBe(404);
    expect((await app.request('/api/v1/market/exhibitors/not-a-uuid/slots')).status).toBe(404);
  });

  it('books a slot: 201, then the slot is no longer free; the rules of bad input', async () => {
    const ex = await exhibitor('ex1@example.com', 'Harbour Films');
    const amy = await buyer('amy@example.com');
    const [first, second] = await slotsOf(ex.exhibitorId);
    const res = await book(amy.token, ex.exhibitorId, first!.id);
    expect(res.status).toBe(201);
    const created = (await res.json()).data as WireMeeting;
    expect(created).toMatchObject({ status: 'requested', side: 'buyer', table: null });
    expect((await slotsOf(ex.exhibitorId)).map((s) => s.id)).not.toContain(first!.id);

    // Taken: 409 with the next free slots.
    const ben = await buyer('ben@example.com');
    const taken = await book(ben.token, ex.exhibitorId, first!.id);
    expect(taken.status).toBe(409);
    const body = await taken.json();
    expect(body.code).toBe('slot_taken');
    expect(body.next_free_slots[0].id).toBe(second!.id);
    // Not listed: 404; too long a message: 400 naming the field; no badge: 403.
    expect((await book(ben.token, '00000000-0000-4000-8000-000000000000', second!.id)).status).toBe(404);
    const long = await book(ben.token, ex.exhibitorId, second!.id, 'x'.repeat(501));
    expect(long.status).toBe(400);
    expect((await long.json()).issues[0].path).toBe('message');
    const carl = await person('carl@example.com');
    const nobadge = await book(carl.token, ex.exhibitorId, second!.id);
    expect(nobadge.status).toBe(403);
    expect((await nobadge.json()).code).toBe('demonstration_invalid');
    expect((await app.request('/api/v1/meetings', json('', 'POST', {}))).status).toBe(401);
  });

  it('50 buyers asking for the same slot at once: exactly one gets it', async () => {
    const ex = await exhibitor('ex1@example.com', 'Harbour Films');
    const buyers = [];
    for (let i = 0; i < 50; i++) buyers.push(await person(`buyer${i}@example.com`));
    await giveBadges(db(), buyers);
    const [slot] = await slotsOf(ex.exhibitorId);
    const answers = await Promise.all(buyers.map((b) => book(b.token, ex.exhibitorId, slot!.id)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const refused = await answers.find((r) => r.status === 409)!.json();
    expect(refused.code).toBe('slot_taken');
    expect(refused.next_free_slots.length).toBeGreaterThan(0);
    const rows = await db().select().from(schema.meetings).where(eq(schema.meetings.slotId, slot!.id));
    expect(rows).toHaveLength(1);
  });

  it('a person is never in two meetings at once; the caps hold under concurrency', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const ex2 = await exhibitor('ex2@example.com', 'Mountain Studio');
    const ex3 = await exhibitor('ex3@example.com', 'River Works');
    const ex4 = await exhibitor('ex4@example.com', 'Sea Works');
    const amy = await buyer('amy@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    // The same buyer, the same time, two exhibitors at once: one.
    const both = await Promise.all([
      book(amy.token, ex1.exhibitorId, slot!.id),
      book(amy.token, ex2.exhibitorId, slot!.id),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const refusal = await both.find((r) => r.status === 409)!.json();
    expect(refusal.code).toBe('person_busy');

    // Pending cap 3: five requests at once in different slots → 2 more at most (1 already pending).
    const slots = await slotsOf(ex2.exhibitorId);
    const targets = [ex2, ex3, ex4, ex2, ex3].map((e, i) => ({ e, s: slots[i + 1]! }));
    const answers = await Promise.all(targets.map((t) => book(amy.token, t.e.exhibitorId, t.s.id)));
    const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.json() })));
    expect(bodies.filter((b) => b.status === 201)).toHaveLength(2);
    const limit = bodies.find((b) => b.status === 429);
    expect(limit?.body).toMatchObject({ code: 'meeting_limit', cap: 'pending_requests', limit: 3 });
  });

  it('the daily cap counts the buyer’s meetings of the day', async () => {
    await setUp({ daily_cap: 1, pending_cap: 10 });
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const ex2 = await exhibitor('ex2@example.com', 'Mountain Studio');
    const amy = await buyer('amy@example.com');
    const slots = await slotsOf(ex1.exhibitorId);
    expect((await book(amy.token, ex1.exhibitorId, slots[0]!.id)).status).toBe(201);
    const second = await book(amy.token, ex2.exhibitorId, slots[1]!.id);
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: 'meeting_limit', cap: 'meetings_per_day', limit: 1 });
    // Another day is fine.
    expect((await book(amy.token, ex2.exhibitorId, slots[5]!.id)).status).toBe(201);
  });

  it('the state machine: accept gives a table, tables are never double-booked, decline and cancel free the slot', async () => {
    await setUp({ tables: ['T1'] });
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const ex2 = await exhibitor('ex2@example.com', 'Mountain Studio');
    const amy = await buyer('amy@example.com');
    const ben = await buyer('ben@example.com');
    const [slot, next] = await slotsOf(ex1.exhibitorId);
    const m1 = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    const m2 = (await (await book(ben.token, ex2.exhibitorId, slot!.id)).json()).data as WireMeeting;
    // The buyer cannot accept its own request (404: not the exhibitor's side).
    expect((await post(amy.token, `/api/v1/meetings/${m1.id}/accept`, {})).status).toBe(404);
    // Two exhibitors accept at once; one table: one gets it, the other is told no table is free.
    const accepts = await Promise.all([
      post(ex1.token, `/api/v1/meetings/${m1.id}/accept`, {}),
      post(ex2.token, `/api/v1/meetings/${m2.id}/accept`, {}),
    ]);
    expect(accepts.map((r) => r.status).sort()).toEqual([200, 409]);
    const ok = (await accepts.find((r) => r.status === 200)!.json()).data as WireMeeting;
    expect(ok).toMatchObject({ status: 'accepted', table: 'T1', side: 'exhibitor' });
    expect((await accepts.find((r) => r.status === 409)!.json()).code).toBe('no_table_free');
    // Accepting twice: 409.
    expect((await post((ok.id === m1.id ? ex1 : ex2).token, `/api/v1/meetings/${ok.id}/accept`, {})).status).toBe(409);
    // The other one declines: its slot is free again.
    const other = ok.id === m1.id ? { m: m2, ex: ex2 } : { m: m1, ex: ex1 };
    const declined = await post(other.ex.token, `/api/v1/meetings/${other.m.id}/decline`, {});
    expect((await declined.json()).data.status).toBe('declined');
    expect((await slotsOf(other.ex.exhibitorId)).map((s) => s.id)).toContain(slot!.id);
    // The buyer cancels the accepted one (well before the cut-off): slot and table free.
    const owner = ok.id === m1.id ? amy : ben;
    const cancelled = await post(owner.token, `/api/v1/meetings/${ok.id}/cancel`, {});
    expect((await cancelled.json()).data.status).toBe('cancelled');
    expect((await post(owner.token, `/api/v1/meetings/${ok.id}/cancel`, {})).status).toBe(409);
    const table = await db().select().from(schema.meetings).where(eq(schema.meetings.id, ok.id));
    expect(table[0]!.sequence).toBe(2);
    // The table's unique index: two accepted meetings on one table in one slot are refused by the database.
    const [t1] = await db().select().from(schema.meetingTables).where(eq(schema.meetingTables.name, 'T1'));
    const m3 = (await (await book(amy.token, ex1.exhibitorId, next!.id)).json()).data as WireMeeting;
    const m4 = (await (await book(ben.token, ex2.exhibitorId, next!.id)).json()).data as WireMeeting;
    await db()
      .update(schema.meetings)
      .set({ status: 'accepted', tableId: t1!.id })
      .where(eq(schema.meetings.id, m3.id));
    await expect(
      db().update(schema.meetings).set({ status: 'accepted', tableId: t1!.id }).where(eq(schema.meetings.id, m4.id)),
    ).rejects.toThrow();
    // A person twice in one slot, written directly: refused by the database.
    await expect(
      db().insert(schema.meetingPeople).values({ userId: amy.id, slotId: next!.id, meetingId: m4.id }),
    ).rejects.toThrow();
  });

  it('a request expires and frees its slot; auto-accept accepts at once', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const amy = await buyer('amy@example.com');
    const ben = await buyer('ben@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    await db()
      .update(schema.meetings)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.meetings.id, m.id));
    expect((await slotsOf(ex1.exhibitorId)).map((s) => s.id)).toContain(slot!.id);
    expect((await book(ben.token, ex1.exhibitorId, slot!.id)).status).toBe(201);
    const [old] = await db().select().from(schema.meetings).where(eq(schema.meetings.id, m.id));
    expect(old!.status).toBe('expired');

    const prefs = await app.request(
      `/api/v1/meetings/exhibitors/${ex1.exhibitorId}`,
      json(ex1.token, 'PUT', { auto_accept: true, tables_needed: 2 }),
    );
    expect(prefs.status).toBe(200);
    // Someone else's exhibitor: 404.
    expect(
      (
        await app.request(
          `/api/v1/meetings/exhibitors/${ex1.exhibitorId}`,
          json(amy.token, 'PUT', { auto_accept: false }),
        )
      ).status,
    ).toBe(404);
    const slots = await slotsOf(ex1.exhibitorId);
    const auto = (await (await book(amy.token, ex1.exhibitorId, slots[0]!.id)).json()).data as WireMeeting;
    expect(auto).toMatchObject({ status: 'accepted', table: 'A1, A2' });
    expect(auto.qr_png).toBeTruthy();
    // Marked unavailable: not offered, and refused.
    const unavailable = slots[1]!.id;
    await app.request(
      `/api/v1/meetings/exhibitors/${ex1.exhibitorId}`,
      json(ex1.token, 'PUT', { unavailable_slot_ids: [unavailable] }),
    );
    expect((await slotsOf(ex1.exhibitorId)).map((s) => s.id)).not.toContain(unavailable);
    expect((await book(ben.token, ex1.exhibitorId, unavailable)).status).toBe(409);
  });

  it('never shows another’s meetings; both parties see theirs; the contact e-mail answers for the exhibitor', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films', 'dana@example.com');
    const amy = await buyer('amy@example.com');
    const ben = await buyer('ben@example.com');
    const dana = await person('dana@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    const list = async (token: string) =>
      (await (await get(token, '/api/v1/meetings')).json()).data as {
        meetings: WireMeeting[];
        exhibitors: { id: string }[];
      };
    expect((await list(amy.token)).meetings.map((x) => x.id)).toEqual([m.id]);
    expect((await list(ben.token)).meetings).toEqual([]);
    expect((await list(ex1.token)).meetings[0]).toMatchObject({ id: m.id, side: 'exhibitor' });
    expect((await list(ex1.token)).exhibitors.map((e) => e.id)).toEqual([ex1.exhibitorId]);
    expect((await list(dana.token)).meetings[0]).toMatchObject({ id: m.id, side: 'exhibitor' });
    expect((await get(ben.token, `/api/v1/meetings/${m.id}`)).status).toBe(404);
    expect((await post(ben.token, `/api/v1/meetings/${m.id}/cancel`, {})).status).toBe(404);
    expect((await get(ben.token, `/api/v1/meetings/${m.id}/calendar.ics`)).status).toBe(404);
    // The contact accepts.
    expect((await post(dana.token, `/api/v1/meetings/${m.id}/accept`, {})).status).toBe(200);
  });

  it('calendar files parse back: Taipei times, stable UID, SEQUENCE up on change, METHOD:CANCEL', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour, Films; Ltd');
    const amy = await buyer('amy@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    expect((await get(amy.token, `/api/v1/meetings/${m.id}/calendar.ics`)).status).toBe(404);
    await post(ex1.token, `/api/v1/meetings/${m.id}/accept`, {});
    const parse = async (token: string, path: string) => {
      const res = await get(token, path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
      const cal = new ICAL.Component(ICAL.parse(await res.text()));
      const vevent = cal.getFirstSubcomponent('vevent')!;
      return { cal, event: new ICAL.Event(vevent), vevent };
    };
    const accepted = await parse(amy.token, `/api/v1/meetings/${m.id}/calendar.ics`);
    expect(accepted.cal.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(accepted.cal.getFirstSubcomponent('vtimezone')!.getFirstPropertyValue('tzid')).toBe('Asia/Taipei');
    expect(accepted.event.uid).toBe(`meeting-${m.id}@tccf`);
    expect(accepted.vevent.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Asia/Taipei');
    expect(accepted.event.startDate.toString()).toBe(`${taipeiDate(10)}T10:00:00`);
    expect(accepted.event.summary).toContain('Harbour, Films; Ltd');
    expect(accepted.event.location).toContain('A1');
    const seq1 = accepted.event.sequence;
    // The exhibitor side gets the same file.
    expect((await parse(ex1.token, `/api/v1/meetings/${m.id}/calendar.ics`)).event.uid).toBe(accepted.event.uid);
    await post(amy.token, `/api/v1/meetings/${m.id}/cancel`, {});
    const cancelled = await parse(amy.token, `/api/v1/meetings/${m.id}/calendar.ics`);
    expect(cancelled.cal.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancelled.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancelled.event.uid).toBe(accepted.event.uid);
    expect(cancelled.event.sequence).toBeGreaterThan(seq1);

    // An event registration's file: the owner's alone.
    const order = await parse(ex1.token, `/api/v1/orders/${ex1.orderId}/calendar.ics`);
    expect(order.event.uid).toBe(`order-${ex1.orderId}@tccf`);
    expect(order.cal.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect((await get(amy.token, `/api/v1/orders/${ex1.orderId}/calendar.ics`)).status).toBe(404);
    await db().update(schema.orders).set({ paymentStatus: 'canceled' }).where(eq(schema.orders.id, ex1.orderId));
    const gone = await parse(ex1.token, `/api/v1/orders/${ex1.orderId}/calendar.ics`);
    expect(gone.cal.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(gone.event.sequence).toBeGreaterThan(order.event.sequence);
  });

  it('e-mails: the request to the exhibitor’s people with answer links; accepted with the calendar file; reminder', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films', 'dana@example.com');
    const amy = await buyer('amy@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    const mails = async (template: string) =>
      db().select().from(schema.emails).where(eq(schema.emails.template, template));
    const requested = await mails('meeting_requested');
    expect(requested.map((e) => e.recipient).sort()).toEqual(['dana@example.com', 'ex1@example.com']);
    expect(requested[0]!.text).toContain(`meeting=${m.id}&action=accept`);
    await post(ex1.token, `/api/v1/meetings/${m.id}/accept`, {});
    const accepted = await mails('meeting_accepted');
    expect(accepted.map((e) => e.recipient)).toContain('amy@example.com');
    const file = accepted[0]!.attachments![0]!;
    expect(file.contentType).toMatch(/^text\/calendar/);
    expect(Buffer.from(file.content, 'base64').toString()).toContain(`UID:meeting-${m.id}@tccf`);
    // The reminder the day before (the worker's pass), once.
    const theDayBefore = () => new Date(new Date(slot!.starts_at).getTime() - 20 * 3_600_000);
    const options = {
      db: db(),
      transport: outboxTransport(),
      settings: { from: 'TCCF <no-reply@tccf.invalid>', defaultOrigin: 'http://portal.test' },
      log: () => {},
      now: theDayBefore,
    };
    await mailPass(options);
    await mailPass(options);
    const reminders = await mails('meeting_reminder');
    expect(reminders.map((e) => e.recipient).sort()).toEqual([
      'amy@example.com',
      'dana@example.com',
      'ex1@example.com',
    ]);
    expect(reminders[0]!.text).toContain('A1');
  });

  it('table check-in: the exhibitor or the desk scans the code; no-show rates for organisers', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const amy = await buyer('amy@example.com');
    const ben = await buyer('ben@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    const code = meetingCode(m.id, app.config.PICKUP_CODE_SECRET);
    // Not accepted yet: refused.
    expect((await post(ex1.token, '/api/v1/meetings/check-in', { code })).status).toBe(409);
    await post(ex1.token, `/api/v1/meetings/${m.id}/accept`, {});
    expect((await post(ben.token, '/api/v1/meetings/check-in', { code })).status).toBe(404);
    expect((await post(ex1.token, '/api/v1/meetings/check-in', { code: 'TCCFM1.x.y' })).status).toBe(400);
    const scanned = await post(ex1.token, '/api/v1/meetings/check-in', { code });
    expect(scanned.status).toBe(200);
    expect((await scanned.json()).data).toMatchObject({ attendance: 'present', table: 'A1' });
    const desk = await post(olivia, '/api/v1/admin/meetings/check-in', { code, attendance: 'no_show' });
    expect(desk.status).toBe(200);
    // Organisers: the schedule, with the no-show rate once the meeting has started.
    await db()
      .update(schema.meetingSlots)
      .set({ startsAt: new Date(Date.now() - 3_600_000), endsAt: new Date(Date.now() - 1_800_000) })
      .where(eq(schema.meetingSlots.id, slot!.id));
    const admin = (await (await get(olivia, '/api/v1/admin/meetings')).json()).data;
    expect(admin.attendance).toMatchObject({ past: 1, no_show: 1, no_show_rate: 1 });
    expect(admin.tables).toEqual(['A1', 'A2']);
    expect(admin.meetings).toHaveLength(1);
    // A registrant is refused the back office; the export carries both parties.
    expect((await get(amy.token, '/api/v1/admin/meetings')).status).toBe(403);
    const csv = await get(olivia, '/api/v1/admin/meetings/export/meetings.csv');
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain('amy@example.com');
    expect(text).toContain('Harbour Films');
    const xlsx = await get(olivia, '/api/v1/admin/meetings/export/meetings.xlsx');
    expect(xlsx.status).toBe(200);
    expect((await xlsx.arrayBuffer()).byteLength).toBeGreaterThan(100);
    // Bad settings: 400 naming the field, nothing written.
    const bad = await app.request(
      '/api/v1/admin/meetings/settings',
      json(olivia, 'PUT', settings({ slot_minutes: 1 })),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues[0].path).toBe('slot_minutes');
    const ids = (await db().select().from(schema.meetingTables)).map((t) => t.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
  });

  it('tables needed: a delegation holds that many tables, all or none; the grid shows them (decision 064)', async () => {
    await setUp({ tables: ['T1', 'T2', 'T3'] });
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const ex2 = await exhibitor('ex2@example.com', 'Mountain Studio');
    const amy = await buyer('amy@example.com');
    const ben = await buyer('ben@example.com');
    for (const ex of [ex1, ex2])
      expect(
        (
          await app.request(
            `/api/v1/meetings/exhibitors/${ex.exhibitorId}`,
            json(ex.token, 'PUT', { tables_needed: 2 }),
          )
        ).status,
      ).toBe(200);
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m1 = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    const m2 = (await (await book(ben.token, ex2.exhibitorId, slot!.id)).json()).data as WireMeeting;
    const a1 = await post(ex1.token, `/api/v1/meetings/${m1.id}/accept`, {});
    expect((await a1.json()).data).toMatchObject({ status: 'accepted', table: 'T1, T2' });
    // One table left, two needed: none is taken, the request stays requested.
    const a2 = await post(ex2.token, `/api/v1/meetings/${m2.id}/accept`, {});
    expect(a2.status).toBe(409);
    expect((await a2.json()).code).toBe('no_table_free');
    const [still] = await db().select().from(schema.meetings).where(eq(schema.meetings.id, m2.id));
    expect(still).toMatchObject({ status: 'requested', tableId: null });
    const holds = await db().select().from(schema.meetingTableHolds);
    expect(holds).toHaveLength(2);
    expect(holds.every((h) => h.meetingId === m1.id)).toBe(true);
    // The database refuses a second meeting on a held table in that slot.
    const [t2] = await db().select().from(schema.meetingTables).where(eq(schema.meetingTables.name, 'T2'));
    await expect(
      db().insert(schema.meetingTableHolds).values({ tableId: t2!.id, slotId: slot!.id, meetingId: m2.id }),
    ).rejects.toThrow();
    const admin = (await (await get(olivia, '/api/v1/admin/meetings')).json()).data;
    expect(admin.meetings.find((m: { id: string }) => m.id === m1.id).tables).toEqual(['T1', 'T2']);
    // Cancelled: its tables are free again.
    await post(amy.token, `/api/v1/meetings/${m1.id}/cancel`, {});
    expect(await db().select().from(schema.meetingTableHolds)).toHaveLength(0);
    expect((await (await post(ex2.token, `/api/v1/meetings/${m2.id}/accept`, {})).json()).data.table).toBe('T1, T2');
  });

  it('the organiser moves a meeting: the rules hold (409 with the reason), both parties get the changed mail', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films', 'dana@example.com');
    const ex2 = await exhibitor('ex2@example.com', 'Mountain Studio');
    const amy = await buyer('amy@example.com');
    const ben = await buyer('ben@example.com');
    const [s1, s2, s3] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, s1!.id)).json()).data as WireMeeting;
    const move = (body: unknown, token = olivia, id = m.id) => post(token, `/api/v1/admin/meetings/${id}/move`, body);
    // Only an accepted meeting moves.
    expect((await move({ slot_id: s2!.id })).status).toBe(409);
    await post(ex1.token, `/api/v1/meetings/${m.id}/accept`, {});
    // Bad input, another's right, no such meeting.
    expect((await move({})).status).toBe(400);
    expect((await move({ slot_id: 'nope' })).status).toBe(400);
    expect((await move({ slot_id: s2!.id }, amy.token)).status).toBe(403);
    expect((await move({ slot_id: s2!.id }, olivia, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await move({ table: 'Z9' })).status).toBe(404);
    // The exhibitor's slot s2 is held by Ben's request: slot_taken with the next free slots.
    await book(ben.token, ex1.exhibitorId, s2!.id);
    const taken = await move({ slot_id: s2!.id });
    expect(taken.status).toBe(409);
    const takenBody = await taken.json();
    expect(takenBody.code).toBe('slot_taken');
    expect(takenBody.next_free_slots.length).toBeGreaterThan(0);
    // Amy has another meeting at s3: party_busy.
    const other = (await (await book(amy.token, ex2.exhibitorId, s3!.id)).json()).data as WireMeeting;
    const busy = await move({ slot_id: s3!.id });
    expect(busy.status).toBe(409);
    expect((await busy.json()).code).toBe('party_busy');
    // A2 holds Ex2's accepted meeting at s3 once accepted: table_taken.
    await post(ex2.token, `/api/v1/meetings/${other.id}/accept`, {});
    await post(amy.token, `/api/v1/meetings/${other.id}/cancel`, {});
    const m5 = (await (await book(ben.token, ex2.exhibitorId, s1!.id)).json()).data as WireMeeting;
    await post(ex2.token, `/api/v1/meetings/${m5.id}/accept`, {});
    const tableTaken = await move({ table: 'A2' });
    expect(tableTaken.status).toBe(409);
    expect((await tableTaken.json()).code).toBe('table_taken');
    // Nothing changed by the refusals.
    const [before] = await db().select().from(schema.meetings).where(eq(schema.meetings.id, m.id));
    expect(before!.slotId).toBe(s1!.id);
    // Moved to s3 (now free for both) onto table A2.
    const moved = await move({ slot_id: s3!.id, table: 'A2' });
    expect(moved.status).toBe(200);
    expect((await moved.json()).data).toMatchObject({ slot_id: s3!.id, table: 'A2', tables: ['A2'] });
    const [after] = await db().select().from(schema.meetings).where(eq(schema.meetings.id, m.id));
    expect(after!.sequence).toBe(before!.sequence + 1);
    // The old slot is free for the exhibitor and the buyer again.
    expect((await slotsOf(ex1.exhibitorId)).map((s) => s.id)).toContain(s1!.id);
    const changed = await db().select().from(schema.emails).where(eq(schema.emails.template, 'meeting_changed'));
    expect(changed.map((e) => e.recipient).sort()).toEqual(['amy@example.com', 'dana@example.com', 'ex1@example.com']);
    const ics = Buffer.from(changed[0]!.attachments![0]!.content, 'base64').toString();
    const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe(`meeting-${m.id}@tccf`);
    expect(event.sequence).toBe(after!.sequence);
    expect(event.startDate.toString()).toBe(new ICAL.Event(vevent).startDate.toString());
    expect(event.location).toContain('A2');
    expect(new Date(event.startDate.toUnixTime() * 1000).toISOString()).toBe(s3!.starts_at);
  });

  it('no-show after the slot ends (the job runner); a later scan still wins; an opted-out exhibitor is not booked', async () => {
    const ex1 = await exhibitor('ex1@example.com', 'Harbour Films');
    const amy = await buyer('amy@example.com');
    const [slot] = await slotsOf(ex1.exhibitorId);
    const m = (await (await book(amy.token, ex1.exhibitorId, slot!.id)).json()).data as WireMeeting;
    await post(ex1.token, `/api/v1/meetings/${m.id}/accept`, {});
    const afterEnd = new Date(new Date(slot!.ends_at).getTime() + 60_000);
    expect(await recordNoShows(db(), new Date(new Date(slot!.starts_at).getTime() + 60_000))).toBe(0);
    expect(await recordNoShows(db(), afterEnd)).toBe(1);
    const [row] = await db().select().from(schema.meetings).where(eq(schema.meetings.id, m.id));
    expect(row).toMatchObject({ attendance: 'no_show', attendanceBy: 'system' });
    const code = meetingCode(m.id, app.config.PICKUP_CODE_SECRET);
    expect((await post(olivia, '/api/v1/admin/meetings/check-in', { code })).status).toBe(200);
    const [scanned] = await db().select().from(schema.meetings).where(eq(schema.meetings.id, m.id));
    expect(scanned!.attendance).toBe('present');
    // The directory's one notion of "listed": an exhibitor that opted out is not booked.
    await db()
      .update(schema.registrations)
      .set({ directoryListed: false })
      .where(eq(schema.registrations.id, ex1.exhibitorId));
    const [, next] = (await db().select().from(schema.meetingSlots)).sort((a, b) => +a.startsAt - +b.startsAt);
    expect((await book(amy.token, ex1.exhibitorId, next!.id)).status).toBe(404);
    expect((await app.request(`/api/v1/market/exhibitors/${ex1.exhibitorId}/slots`)).status).toBe(404);
  });
});
