import { asc, eq, inArray, max, sql } from 'drizzle-orm';
import type { Role } from '@domain/roles';
import type { MemberSource, TeamRefusal } from '@domain/team';
import { localePath, LOCALES, type Locale } from '@i18n/locales';
import { audit } from '../audit/audit';
import type { Db, Tx } from '../db/client';
import { organisers, sessions, users } from '../db/schema';
import { queueTeamInvitation } from '../mail/outbox';
import { organiserEntries } from '../identity/organisers';

/*
 * The back office's team (issue 21): invite by e-mail (the invitation is e-mailed; the role
 * applies from the person's next request, read by the back-office gate), change a role, remove.
 * ORGANISER_EMAILS are admins the page cannot change; the last admin cannot go. Each change is
 * written with its audit entry (and the invitation's mail) in one transaction.
 */

export type Member = {
  email: string;
  role: Role;
  source: MemberSource;
  invitedBy: string | null;
  invitedAt: Date | null;
  name: string | null;
  lastSignInAt: Date | null;
};

/** Who the change is by, and the configured admins (ORGANISER_EMAILS, lower-cased). */
export type TeamContext = { actor: string; configured: readonly string[]; now: Date };

export type TeamResult<T> = { kind: 'ok'; value: T } | { kind: 'refused'; code: TeamRefusal } | { kind: 'not_found' };

/** The team: the configured admins first, then the invited members by e-mail; with names and last sign-ins when known. */
export async function listTeam(db: Db, configured: readonly string[]): Promise<Member[]> {
  const entries = await organiserEntries(db, configured);
  const emails = entries.map((e) => e.email);
  const seen = emails.length
    ? await db
        .select({
          email: sql<string>`lower(${users.email})`,
          name: max(users.name),
          lastSignInAt: max(sessions.createdAt),
        })
        .from(users)
        .leftJoin(sessions, eq(sessions.userId, users.id))
        .where(inArray(sql`lower(${users.email})`, emails))
        .groupBy(sql`lower(${users.email})`)
    : [];
  const known = new Map(seen.map((s) => [s.email, s]));
  return entries.map((e) => ({
    email: e.email,
    role: e.role,
    source: e.configured ? ('configuration' as const) : ('team' as const),
    invitedBy: e.grantedBy,
    invitedAt: e.createdAt,
    name: known.get(e.email)?.name ?? null,
    lastSignInAt: known.get(e.email)?.lastSignInAt ?? null,
  }));
}

/**
 * The team's admins, locked (FOR UPDATE, in e-mail order, before the member changed) so two
 * admins demoting each other at once cannot both succeed: the second sees the first's change.
 * Null when ORGANISER_EMAILS names admins: they always remain.
 */
async function lockAdmins(tx: Tx, configured: readonly string[]): Promise<string[] | null> {
  if (configured.length > 0) return null;
  const rows = await tx
    .select({ email: organisers.email })
    .from(organisers)
    .where(eq(organisers.role, 'admin'))
    .orderBy(asc(organisers.email))
    .for('update');
  return rows.map((r) => r.email);
}

/** Whether taking the admin role from `email` would leave no admin. */
const lastAdmin = (admins: string[] | null, email: string) => admins !== null && admins.every((a) => a === email);

/** Invites `email` with `role`: the member, the audit entry and the invitation mail, together. */
export async function inviteMember(
  db: Db,
  input: { email: string; role: Role },
  ctx: TeamContext & { locale: Locale; origin: string; from: string },
): Promise<TeamResult<{ member: Member; emailed: boolean }>> {
  if (ctx.configured.includes(input.email)) return { kind: 'refused', code: 'configured_member' };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organisers)
      .values({ email: input.email, role: input.role, grantedBy: ctx.actor, createdAt: ctx.now })
      .onConflictDoNothing()
      .returning();
    if (!row) return { kind: 'refused', code: 'already_member' } as const;
    const entry = await audit(tx, {
      actor: ctx.actor,
      action: 'team.invited',
      subject: input.email,
      detail: { role: input.role },
    });
    const origin = ctx.origin.replace(/\/$/, '');
    const urls = Object.fromEntries(LOCALES.map((l) => [l, `${origin}/${localePath(l)}/admin`])) as Record<
      Locale,
      string
    >;
    const emailed = await queueTeamInvitation(
      tx,
      { from: ctx.from },
      { key: String(entry.id), email: input.email, role: input.role, invitedBy: ctx.actor, locale: ctx.locale, urls },
      ctx.now,
    );
    const member: Member = {
      email: row.email,
      role: row.role,
      source: 'team',
      invitedBy: row.grantedBy,
      invitedAt: row.createdAt,
      name: null,
      lastSignInAt: null,
    };
    return { kind: 'ok', value: { member, emailed } } as const;
  });
}

/** Gives the member `email` the role `role` (the same role: nothing to record). */
export async function changeRole(db: Db, email: string, role: Role, ctx: TeamContext): Promise<TeamResult<Role>> {
  if (ctx.configured.includes(email)) return { kind: 'refused', code: 'configured_member' };
  return db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, ctx.configured);
    const [current] = await tx.select().from(organisers).where(eq(organisers.email, email)).for('update');
    if (!current) return { kind: 'not_found' } as const;
    if (current.role === role) return { kind: 'ok', value: role } as const;
    if (current.role === 'admin' && lastAdmin(admins, email)) return { kind: 'refused', code: 'last_admin' } as const;
    await tx.update(organisers).set({ role }).where(eq(organisers.email, email));
    await audit(tx, {
      actor: ctx.actor,
      action: 'team.role_changed',
      subject: email,
      detail: { from: current.role, to: role },
    });
    return { kind: 'ok', value: role } as const;
  });
}

/** Removes the member `email` from the team (the role ends with their next request). */
export async function removeMember(db: Db, email: string, ctx: TeamContext): Promise<TeamResult<Role>> {
  if (ctx.configured.includes(email)) return { kind: 'refused', code: 'configured_member' };
  return db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, ctx.configured);
    const [current] = await tx.select().from(organisers).where(eq(organisers.email, email)).for('update');
    if (!current) return { kind: 'not_found' } as const;
    if (current.role === 'admin' && lastAdmin(admins, email)) return { kind: 'refused', code: 'last_admin' } as const;
    await tx.delete(organisers).where(eq(organisers.email, email));
    await audit(tx, { actor: ctx.actor, action: 'team.removed', subject: email, detail: { role: current.role } });
    return { kind: 'ok', value: current.role } as const;
  });
}
