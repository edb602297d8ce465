/**
 * Table check-in (issue 23): each accepted meeting has a signed code, `TCCFM1.<meeting id>.<sig>`,
 * shown as a QR code to the buyer; the desk staff (right `desk`) or the exhibitor scans it at the
 * table and records the buyer present, or no-show. The signature is the pick-up codes' (decision
 * 059): a made-up code is refused, offline too.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { MEETING_CODE_PREFIX, parseMeetingCode, type MeetingAttendance } from '@domain/meetings';
import { DomainError } from '@domain/errors';
import type { Db } from '../db/client';
import { meetings } from '../db/schema';

const signature = (id: string, secret: string) =>
  createHmac('sha256', secret).update(`${MEETING_CODE_PREFIX}.${id}`).digest('base64url').slice(0, 22);

export const meetingCode = (id: string, secret: string) => `${MEETING_CODE_PREFIX}.${id}.${signature(id, secret)}`;

/** The meeting id of a genuine code, or null. */
export function verifyMeetingCode(code: string, secret: string): string | null {
  const parsed = parseMeetingCode(code);
  if (!parsed) return null;
  const expected = Buffer.from(signature(parsed.meetingId, secret));
  const given = Buffer.from(parsed.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? parsed.meetingId : null;
}

/** Records the buyer present or no-show at an accepted meeting (the last scan wins). */
export async function recordAttendance(
  db: Db,
  meetingId: string,
  attendance: MeetingAttendance,
  by: string,
  now: Date,
): Promise<void> {
  const [row] = await db
    .update(meetings)
    .set({ attendance, attendanceAt: now, attendanceBy: by, updatedAt: now })
    .where(and(eq(meetings.id, meetingId), eq(meetings.status, 'accepted')))
    .returning({ id: meetings.id });
  if (!row) throw new DomainError('meeting_state', 'Only an accepted meeting is checked in');
}
