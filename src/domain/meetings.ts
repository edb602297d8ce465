/**
 * Market meetings (issue 23, decision 059): buyers (badge holders) request a meeting with an
 * exhibitor (a Market registration) in one of its free slots. The statuses and their transitions,
 * the request and set-up structs shared by islands and the API, the slots a set-up makes, and
 * the meeting's check-in code. Pure: the database enforces the rules under concurrency.
 */
import {
  array,
  boolean,
  defaulted,
  integer,
  object,
  optional,
  pattern,
  refine,
  size,
  string,
  type Infer,
} from 'superstruct';
import { UuidString } from './validation';

export const MEETING_STATUSES = ['requested', 'accepted', 'declined', 'cancelled', 'expired'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];
/** Meetings that hold their slot, their people and (accepted) their table. */
export const ACTIVE_MEETING_STATUSES = ['requested', 'accepted'] as const satisfies readonly MeetingStatus[];
export const MEETING_ATTENDANCES = ['present', 'no_show'] as const;
export type MeetingAttendance = (typeof MEETING_ATTENDANCES)[number];
export const isActiveMeeting = (s: MeetingStatus) => (ACTIVE_MEETING_STATUSES as readonly string[]).includes(s);

export const MEETING_MESSAGE_MAX = 500;
/** How many free slots a refusal offers instead (409 slot_taken). */
export const NEXT_FREE_SLOTS = 5;

/** `POST /meetings`: the exhibitor (its Market registration's id), the slot, a short message. */
export const MeetingRequest = object({
  exhibitorId: UuidString,
  slotId: UuidString,
  message: defaulted(size(string(), 0, MEETING_MESSAGE_MAX), ''),
});
export type MeetingRequest = Infer<typeof MeetingRequest>;

/** What a party does to a meeting. */
export const MEETING_ACTIONS = ['accept', 'decline', 'cancel'] as const;
export type MeetingAction = (typeof MEETING_ACTIONS)[number];
export type MeetingSide = 'buyer' | 'exhibitor';

/**
 * The transition table: who may do what from which status. The buyer cancels (a request or an
 * accepted meeting); the exhibitor accepts or declines a request, and cancels an accepted meeting.
 * Cancelling an accepted meeting is allowed up to the cut-off before its start.
 */
export function decideMeeting(input: {
  status: MeetingStatus;
  side: MeetingSide;
  action: MeetingAction;
  startsAt: Date;
  now: Date;
  cancelCutoffHours: number;
}): { ok: true; next: MeetingStatus } | { ok: false; code: 'meeting_state' | 'cancel_cutoff' | 'forbidden' } {
  const { status, side, action } = input;
  if (action === 'accept' || action === 'decline') {
    if (side !== 'exhibitor') return { ok: false, code: 'forbidden' };
    if (status !== 'requested') return { ok: false, code: 'meeting_state' };
    return { ok: true, next: action === 'accept' ? 'accepted' : 'declined' };
  }
  if (!isActiveMeeting(status)) return { ok: false, code: 'meeting_state' };
  if (status === 'accepted' && !cancellable(input.startsAt, input.now, input.cancelCutoffHours))
    return { ok: false, code: 'cancel_cutoff' };
  return { ok: true, next: 'cancelled' };
}

/** Whether a meeting starting at `startsAt` may still be cancelled (the cut-off before its start). */
export const cancellable = (startsAt: Date, now: Date, cutoffHours: number) =>
  now.getTime() <= startsAt.getTime() - cutoffHours * 3_600_000;

const Hhmm = pattern(string(), /^[0-2][0-9]:[0-5][0-9]$/);
const Day = pattern(string(), /^\d{4}-\d{2}-\d{2}$/);

/** The organiser's set-up of the business meeting centre (`PUT /admin/meetings/settings`). */
export const MeetingSettingsInput = object({
  days: size(array(Day), 1, 14),
  opensAt: Hhmm,
  closesAt: Hhmm,
  slotMinutes: size(integer(), 5, 240),
  pendingCap: size(integer(), 1, 100),
  dailyCap: size(integer(), 1, 100),
  cancelCutoffHours: size(integer(), 0, 720),
  requestExpiryHours: size(integer(), 1, 720),
  tables: size(array(size(string(), 1, 60)), 0, 200),
});
export type MeetingSettingsInput = Infer<typeof MeetingSettingsInput>;

/** An exhibitor's preferences (`PUT /meetings/exhibitor/{id}`): tables, auto-accept, slots it is not available for. */
export const ExhibitorMeetingPrefs = object({
  tablesNeeded: optional(size(integer(), 1, 10)),
  autoAccept: optional(boolean()),
  unavailableSlotIds: optional(size(array(UuidString), 0, 2000)),
});
export type ExhibitorMeetingPrefs = Infer<typeof ExhibitorMeetingPrefs>;

/** Check-in at the table: the meeting's code (scanned) or its id, present or no-show. */
export const MeetingCheckIn = object({
  code: size(string(), 1, 200),
  attendance: defaulted(pattern(string(), /^(present|no_show)$/), 'present'),
});
export type MeetingCheckIn = Infer<typeof MeetingCheckIn>;

/**
 * The organiser moves an accepted meeting (`POST /admin/meetings/{id}/move`): to another slot
 * and/or onto another table (its name); at least one of the two.
 */
export const MeetingMove = refine(
  object({
    slotId: optional(UuidString),
    table: optional(size(string(), 1, 60)),
  }),
  'move_target',
  (value) => value.slotId !== undefined || value.table !== undefined,
);
export type MeetingMove = Infer<typeof MeetingMove>;

const TAIPEI_OFFSET_MS = 8 * 3_600_000;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The slots a set-up makes: on each day (a Taipei date), from opening to closing, one every
 * `slotMinutes` (a last slot that would end after closing is not made). Taipei has no DST.
 */
export function slotsOf(settings: Pick<MeetingSettingsInput, 'days' | 'opensAt' | 'closesAt' | 'slotMinutes'>) {
  const out: { day: string; startsAt: Date; endsAt: Date }[] = [];
  const open = minutesOf(settings.opensAt);
  const close = minutesOf(settings.closesAt);
  for (const day of [...new Set(settings.days)].sort()) {
    const midnight = Date.parse(`${day}T00:00:00Z`) - TAIPEI_OFFSET_MS;
    if (Number.isNaN(midnight)) continue;
    for (let m = open; m + settings.slotMinutes <= close; m += settings.slotMinutes)
      out.push({
        day,
        startsAt: new Date(midnight + m * 60_000),
        endsAt: new Date(midnight + (m + settings.slotMinutes) * 60_000),
      });
  }
  return out;
}

/** The prefix of a meeting's check-in code (`TCCFM1.<meeting id>.<signature>`). */
export const MEETING_CODE_PREFIX = 'TCCFM1';

/** The meeting id of a code's text, without checking its signature (the server does). */
export function parseMeetingCode(text: string): { meetingId: string; signature: string } | null {
  const [prefix, id, signature] = text.trim().split('.');
  if (prefix !== MEETING_CODE_PREFIX || !id || !signature || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { meetingId: id.toLowerCase(), signature };
}

/** An exhibitor's company name in a language (the other language's when it has none). */
export const companyNameIn = (m: { companyNameEn: string; companyNameZh: string }, locale: string) =>
  (locale === 'zh-TW' ? m.companyNameZh || m.companyNameEn : m.companyNameEn || m.companyNameZh) || '—';
