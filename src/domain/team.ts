import { coerce, enums, object, refine, string } from 'superstruct';
import { ROLES, type Role } from './roles';

/*
 * The back office's team (issue 21): who is on it, with which role. The invitation form and the
 * API share these structs; the rules that need the database (the last admin, the configured
 * members) are the team service's (src/server/team).
 */

export const TEAM_EMAIL_MAX = 254;
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** A team member's e-mail as it is kept: trimmed, lower-cased. */
export const teamEmail = (value: string) => value.trim().toLowerCase();
/** Whether `value` (as kept: teamEmail) is an e-mail address a member may have. */
export const isTeamEmail = (value: string) => value.length <= TEAM_EMAIL_MAX && EMAIL.test(value);

/** An e-mail address, trimmed and lower-cased; refused ('email') unless it looks like one. */
export const TeamEmail = refine(
  coerce(string(), string(), teamEmail),
  'email',
  (v) => isTeamEmail(v) || 'Enter a valid e-mail address',
);
const RoleField = enums(ROLES as unknown as Role[]);

/** `POST /api/v1/admin/team`: invite `email` with `role`. */
export const TeamInvite = object({ email: TeamEmail, role: RoleField });
/** `PATCH /api/v1/admin/team/{email}`: the member's new role. */
export const TeamRoleChange = object({ role: RoleField });

/** Where a member's role comes from: ORGANISER_EMAILS (admins, changed only there) or the team page. */
export const MEMBER_SOURCES = ['configuration', 'team'] as const;
export type MemberSource = (typeof MEMBER_SOURCES)[number];

/** The team's actions in the audit trail (`audit_log.action`). */
export const TEAM_ACTIONS = ['team.invited', 'team.role_changed', 'team.removed'] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

/**
 * Why a team change is refused (409): the last admin would be gone, the member comes from the
 * configuration, the e-mail is on the team already.
 */
export const TEAM_REFUSALS = ['last_admin', 'configured_member', 'already_member'] as const;
export type TeamRefusal = (typeof TEAM_REFUSALS)[number];
