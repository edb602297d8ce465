import type { Context } from 'hono';
import type { Data, Sendable, TeamChange, TeamInvited, TeamMember, TeamRemoved } from '@domain/contract';
import { isTeamEmail, teamEmail, TeamInvite, TeamRoleChange, type TeamAction, type TeamRefusal } from '@domain/team';
import { recentAudit } from '../../audit/audit';
import { changeRole, inviteMember, listTeam, removeMember, type Member, type TeamResult } from '../../team/team';
import { requireRight } from './admin';
import type { ApiApp, Env, RouteContext } from '../context';
import { ApiError, badRequest, notFound } from '../errors';

/** What a refused team change says (409). */
const REFUSED: Record<TeamRefusal, string> = {
  last_admin: 'The team must keep at least one admin',
  configured_member: 'This member comes from ORGANISER_EMAILS: change the configuration instead',
  already_member: 'This e-mail is on the team already',
};

/**
 * The team of the back office (issue 21), under /api/v1/admin/team: list, invite, change a role,
 * remove, and the recent changes — only for the `team` right (admins). Each change is in the
 * audit trail with its actor.
 */
export function adminTeamRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  const teamContext = (c: Context<Env>) => ({
    actor: c.get('user').email.toLowerCase(),
    configured: deps.config.organiserEmails,
    now: ctx.now(),
  });
  /** The member's e-mail of the path, as kept; 400 naming `email` when it is not one. */
  const emailParam = (c: Context<Env>) => {
    const email = teamEmail(c.req.param('email') ?? '');
    if (!isTeamEmail(email))
      throw badRequest('validation_failed', 'email: Enter a valid e-mail address', {
        issues: [{ path: 'email', message: 'Enter a valid e-mail address' }],
      });
    return email;
  };
  const outcome = <T>(result: TeamResult<T>): T => {
    if (result.kind === 'not_found') throw notFound('Team member');
    if (result.kind === 'refused') throw new ApiError(409, result.code, REFUSED[result.code]);
    return result.value;
  };

  app.get('/admin/team', requireRight('team'), async (c) =>
    ctx.send(c, {
      data: (await listTeam(deps.db, deps.config.organiserEmails)).map(memberView),
    } satisfies Sendable<Data<TeamMember[]>>),
  );

  app.get('/admin/team/changes', requireRight('team'), async (c) =>
    ctx.send(c, {
      data: (await recentAudit(deps.db, 'team.')).map((r) => ({
        id: r.id,
        at: r.at,
        actor: r.actor,
        action: r.action as TeamAction,
        subject: r.subject,
        detail: r.detail as TeamChange['detail'],
      })),
    } satisfies Sendable<Data<TeamChange[]>>),
  );

  app.post('/admin/team', requireRight('team'), async (c) => {
    const body = await ctx.readJson(c, TeamInvite);
    const { member, emailed } = outcome(
      await inviteMember(deps.db, body, {
        ...teamContext(c),
        locale: c.get('locale'),
        origin: ctx.originOf(c),
        from: deps.config.MAIL_FROM,
      }),
    );
    return ctx.send(c, { data: { ...memberView(member), emailed } } satisfies Sendable<Data<TeamInvited>>, 201);
  });

  app.patch('/admin/team/:email', requireRight('team'), async (c) => {
    const email = emailParam(c);
    const body = await ctx.readJson(c, TeamRoleChange);
    const role = outcome(await changeRole(deps.db, email, body.role, teamContext(c)));
    const member = (await listTeam(deps.db, deps.config.organiserEmails)).find((m) => m.email === email);
    return ctx.send(c, {
      data: memberView(member ?? { ...blank(email), role }),
    } satisfies Sendable<Data<TeamMember>>);
  });

  app.delete('/admin/team/:email', requireRight('team'), async (c) => {
    const email = emailParam(c);
    outcome(await removeMember(deps.db, email, teamContext(c)));
    return ctx.send(c, { data: { email, removed: true } } satisfies Sendable<Data<TeamRemoved>>);
  });
}

const blank = (email: string): Member => ({
  email,
  role: 'viewer',
  source: 'team',
  invitedBy: null,
  invitedAt: null,
  name: null,
  lastSignInAt: null,
});

const memberView = (m: Member) => ({
  email: m.email,
  role: m.role,
  source: m.source,
  invitedBy: m.invitedBy,
  invitedAt: m.invitedAt,
  name: m.name,
  lastSignInAt: m.lastSignInAt,
});
