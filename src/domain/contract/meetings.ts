/**
 * Market meetings on the wire (issue 23, decision 059): an exhibitor's free slots, a meeting as
 * its parties see it, My meetings, the exhibitor's preferences, the check-in, and the back
 * office's set-up and schedule.
 */
import type { MeetingAttendance, MeetingSide, MeetingStatus } from '@domain/meetings';

/** A free slot: `GET /market/exhibitors/{id}/slots`, and the `next_free_slots` of a 409. */
export type MeetingSlot = { id: string; startsAt: string; endsAt: string };

/** A meeting as one of its parties sees it. */
export type Meeting = {
  id: string;
  status: MeetingStatus;
  /** Which side the caller is on. */
  side: MeetingSide;
  message: string;
  startsAt: string;
  endsAt: string;
  /** The Taipei date (the day view). */
  day: string;
  /** The table, once accepted. */
  table: string | null;
  exhibitor: { id: string; companyName: string };
  buyer: { name: string | null; email: string };
  /** Until when a request holds the slot. */
  expiresAt: string;
  attendance: MeetingAttendance | null;
  /** Whether the caller may still cancel it (before the cut-off). */
  cancellable: boolean;
  /** The calendar file (accepted or cancelled meetings). */
  calendarUrl: string | null;
  /** The check-in QR code (PNG, base64) of an accepted meeting. */
  qrPng: string | null;
  /** The text the QR code carries (typed at the table when a scan fails). */
  checkInCode: string | null;
};

/** An exhibitor the caller answers for, with its preferences. */
export type MeetingExhibitor = {
  id: string;
  companyName: string;
  tablesNeeded: number;
  autoAccept: boolean;
  unavailableSlotIds: string[];
};

/** `GET /meetings`: the caller's meetings (both sides), its exhibitors, and the edition's slots. */
export type MyMeetings = {
  meetings: Meeting[];
  exhibitors: MeetingExhibitor[];
  slots: MeetingSlot[];
};

/** `POST /meetings/check-in` and `/admin/meetings/check-in`: what was recorded. */
export type MeetingCheckInResult = {
  meetingId: string;
  attendance: MeetingAttendance;
  startsAt: string;
  table: string | null;
  companyName: string;
  buyer: string;
};

/** The business meeting centre's set-up (back office). */
export type MeetingSettings = {
  days: string[];
  opensAt: string;
  closesAt: string;
  slotMinutes: number;
  pendingCap: number;
  dailyCap: number;
  cancelCutoffHours: number;
  requestExpiryHours: number;
  tables: string[];
};

/** One meeting in the organiser's schedule. */
export type AdminMeeting = {
  id: string;
  status: MeetingStatus;
  startsAt: string;
  endsAt: string;
  day: string;
  slotId: string;
  /** The tables it holds, joined ("T1, T2"). */
  table: string | null;
  /** The tables it holds, by name (decision 064: as many as the exhibitor's delegation needs). */
  tables: string[];
  companyName: string;
  buyer: string;
  createdAt: string;
  expiresAt: string;
  attendance: MeetingAttendance | null;
};

/** `GET /admin/meetings`: the set-up, the grid's slots and tables, the meetings, requests pending too long, no-show rates. */
export type AdminMeetings = {
  edition: { id: string; name: string } | null;
  settings: MeetingSettings | null;
  tables: string[];
  slots: (MeetingSlot & { day: string })[];
  meetings: AdminMeeting[];
  /** Requests waiting longer than a day. */
  stale: AdminMeeting[];
  /** Accepted meetings already started: how many were checked, present, no-show. */
  attendance: { past: number; present: number; noShow: number; noShowRate: number | null };
};
