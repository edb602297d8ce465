/**
 * The team on the wire (issue 21, decision 043): its members and the recent changes to it.
 */
import type { Role } from '@domain/roles';
import type { MemberSource, TeamAction } from '@domain/team';

/** A member of the back office's team (GET /admin/team). */
export type TeamMember = {
  email: string;
  role: Role;
  /** `configuration`: ORGANISER_EMAILS (an admin the page cannot change); `team`: invited. */
  source: MemberSource;
  /** Who invited them (an e-mail, or the operator's name); null for configured members. */
  invitedBy: string | null;
  invitedAt: string | null;
  /** The name the identity service gave at their last sign-in, when they have signed in. */
  name: string | null;
  /** When they last signed in, when known (sessions of the OIDC mode). */
  lastSignInAt: string | null;
};

/** One change to the team, from the audit trail (GET /admin/team/changes). */
export type TeamChange = {
  id: number;
  at: string;
  actor: string;
  action: TeamAction;
  subject: string;
  /** `role` (invited, removed), `from` and `to` (role changed). */
  detail: { role?: Role; from?: Role; to?: Role };
};

/** What an invitation did (POST /admin/team, 201). */
export type TeamInvited = TeamMember & { emailed: boolean };
/** DELETE /admin/team/{email}. */
export type TeamRemoved = { email: string; removed: true };
