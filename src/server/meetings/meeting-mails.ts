import { companyNameIn } from '@domain/meetings';
/**
 * The meetings' e-mails (issue 23), through the outbox in the transaction that changed the
 * meeting: a request to the exhibitor's people (with accept and decline links), accepted and
 * declined, cancelled, changed, and the reminder the day before (the job runner). Accepted,
 * changed, cancelled and reminder mails carry the meeting's calendar file.
 */
import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Locale } from '@i18n/locales';
import { formatDateRange } from '@domain/format';
import type { Db, Tx } from '../db/client';
import { meetings, meetingSlots } from '../db/schema';
import { queueEmail, type MailSettings } from '../mail/outbox';
import { mt, type MessageKey } from '../mail/messages';
import type { Block, MailContent } from '../mail/render';
import { linkOn, type MailTemplate } from '../mail/templates';
import { calendarFile } from './calendar';
import { exhibitorPeople } from './exhibitor';
import { loadMeeting, type MeetingFacts, type MeetingMailer, type MeetingMailKind } from './meetings';

export type MeetingMailSettings = Pick<MailSettings, 'from'> & { origin: string };

const company = companyNameIn;

/** The meeting's calendar file, as the parties get it (the API's and the mails'). */
export function meetingCalendar(m: MeetingFacts, locale: Locale, from: string, stamp: Date): string {
  const cancelled = m.status !== 'accepted';
  return calendarFile({
    uid: `meeting-${m.id}@tccf`,
    sequence: m.sequence,
    start: m.startsAt,
    end: m.endsAt,
    summary: mt(locale, 'meeting.calendar.summary', { company: company(m, locale) }),
    location: m.tableName
      ? mt(locale, 'meeting.calendar.location', { table: m.tableName })
      : mt(locale, 'meeting.calendar.centre'),
    description: mt(locale, 'meeting.calendar.description', {
      company: company(m, locale),
      buyer: m.buyerName || m.buyerEmail,
    }),
    cancelled,
    organizer: from,
    stamp,
  });
}

const attachment = (m: MeetingFacts, locale: Locale, from: string, now: Date) => [
  {
    filename: `meeting-${m.id.slice(0, 8)}.ics`,
    contentType: m.status === 'accepted' ? 'text/calendar; method=PUBLISH' : 'text/calendar; method=CANCEL',
    content: Buffer.from(meetingCalendar(m, locale, from, now)).toString('base64'),
  },
];

type Kind = MeetingMailKind | 'reminder';

function content(m: MeetingFacts, kind: Kind, link: (l: Locale, path: string) => string) {
  return (l: Locale): MailContent => {
    const values = {
      company: company(m, l),
      buyer: m.buyerName || m.buyerEmail,
      when: formatDateRange(m.startsAt, m.endsAt),
      table: m.tableName ?? '—',
    };
    const key = (part: string) => `meeting.${kind}.${part}` as MessageKey;
    const blocks: Block[] = [
      { type: 'p', text: mt(l, key('body'), values) },
      {
        type: 'facts',
        rows: [
          { label: mt(l, 'meeting.fact.exhibitor'), value: values.company },
          { label: mt(l, 'meeting.fact.buyer'), value: values.buyer },
          { label: mt(l, 'fact.when'), value: values.when },
          { label: mt(l, 'meeting.fact.table'), value: m.tableName },
          { label: mt(l, 'meeting.fact.message'), value: kind === 'requested' ? m.message || null : null },
        ],
      },
    ];
    const page = `/account/meetings?meeting=${m.id}`;
    if (kind === 'requested') {
      blocks.push({
        type: 'links',
        heading: mt(l, 'meeting.requested.answer'),
        items: [
          { label: mt(l, 'meeting.button.accept'), url: link(l, `${page}&action=accept`) },
          { label: mt(l, 'meeting.button.decline'), url: link(l, `${page}&action=decline`) },
        ],
      });
    } else blocks.push({ type: 'button', label: mt(l, 'meeting.button.open'), url: link(l, page) });
    return { subject: mt(l, key('subject'), values), heading: mt(l, key('heading'), values), blocks };
  };
}

/** Queues the mails of one kind for one meeting, to the people it concerns. */
async function queueMeetingMail(db: Db | Tx, settings: MeetingMailSettings, meetingId: string, kind: Kind, now: Date) {
  const m = await loadMeeting(db, meetingId);
  if (!m) return;
  const exhibitor = await exhibitorPeople(db, m.exhibitorId);
  const exhibitorMails = exhibitor?.emails ?? [];
  const buyer = { email: m.buyerEmail.toLowerCase(), locale: m.locale };
  const toExhibitor = exhibitorMails.map((email) => ({ email, locale: exhibitor?.locale ?? null }));
  const recipients = kind === 'requested' ? toExhibitor : kind === 'declined' ? [buyer] : [buyer, ...toExhibitor];
  const withFile = kind !== 'requested' && kind !== 'declined';
  const link = linkOn(settings.origin);
  for (const r of recipients)
    await queueEmail(db, settings, {
      key: `meeting:${m.id}:${kind}:${m.sequence}:${r.email}`,
      template: `meeting_${kind}` as MailTemplate,
      recipient: r.email,
      locale: r.locale,
      content: content(m, kind, link),
      attachments: withFile ? attachment(m, r.locale ?? 'en', settings.from, now) : null,
      now,
    });
}

/** The mailer the meeting services call in their transactions. */
export const meetingMailer =
  (settings: MeetingMailSettings, now: () => Date): MeetingMailer =>
  (tx, meetingId, kind) =>
    queueMeetingMail(tx, settings, meetingId, kind, now());

/**
 * The reminders of the accepted meetings starting within the next 24 hours (the job runner):
 * one per meeting and recipient (the key), with the table and the calendar file.
 */
export async function queueMeetingReminders(db: Db, settings: MeetingMailSettings, now: Date): Promise<number> {
  const due = await db
    .select({ id: meetings.id })
    .from(meetings)
    .innerJoin(meetingSlots, eq(meetingSlots.id, meetings.slotId))
    .where(
      and(
        eq(meetings.status, 'accepted'),
        gt(meetingSlots.startsAt, now),
        lte(meetingSlots.startsAt, new Date(now.getTime() + 24 * 3_600_000)),
        isNull(meetings.attendance),
        sql`not exists (select 1 from emails e where e.key like 'meeting:' || ${meetings.id}::text || ':reminder:%')`,
      ),
    )
    .limit(100);
  for (const { id } of due) await queueMeetingMail(db, settings, id, 'reminder', now);
  return due.length;
}
