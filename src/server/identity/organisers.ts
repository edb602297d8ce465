import { asc, eq } from 'drizzle-orm';
import { DomainError } from '@domain/errors';
import type { Role } from '@domain/roles';
import type { Db } from '../db/client';
import { organisers } from '../db/schema';
import { audit } from '../audit/audit';

/*
 * Who may use the back office (issue 11): an e-mail in ORGANISER_EMAILS (configuration), or one
 * granted with `npm run organisers -- add <email>` (the `organisers` table). The role belongs to
 * the e-mail the identity service vouches for, and is read on every back-office request: a grant
 * or a removal takes effect on the next request, on every instance.
 */

const normal = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@,]+@[^\s@,]+$/;

/**
 * The back-office role of `email` (issue 21): `admin` for ORGANISER_EMAILS (the bootstrap of the
 * first admins), the team member's role otherwise, null for everyone else.
 */
export async function organiserRole(db: Db, configured: readonly string[], email: string): Promise<Role | null> {
  const key = normal(email);
  if (configured.includes(key)) return 'admin';
  const [row] = await db.select({ role: organisers.role }).from(organisers).where(eq(organisers.email, key)).limit(1);
  return row?.role ?? null;
}

/** Whether `email` is a member of the back office's team (any role). */
export async function isOrganiser(db: Db, configured: readonly string[], email: string): Promise<boolean> {
  return (await organiserRole(db, configured, email)) !== null;
}

/**
 * Puts an e-mail on the team with `role` (default admin): added, or its role changed, or nothing
 * when it has that role already; each change in the audit trail with `grantedBy` as its actor.
 */
export async function addOrganiser(db: Db, email: string, grantedBy: string, role: Role = 'admin') {
  const key = normal(email);
  if (!EMAIL.test(key)) throw new DomainError('invalid_email', 'Expected an e-mail address');
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(organisers).where(eq(organisers.email, key)).for('update');
    if (before?.role === role) return { email: key, role, added: false, changed: false };
    if (before) {
      await tx.update(organisers).set({ role }).where(eq(organisers.email, key));
      await audit(tx, {
        actor: grantedBy,
        action: 'team.role_changed',
        subject: key,
        detail: { from: before.role, to: role },
      });
      return { email: key, role, added: false, changed: true };
    }
    await tx.insert(organisers).values({ email: key, grantedBy, role });
    await audit(tx, { actor: grantedBy, action: 'team.invited', subject: key, detail: { role } });
    return { email: key, role, added: true, changed: false };
  });
}

/** Takes the role back (configured e-mails stay organisers until the configuration changes). */
export async function removeOrganiser(db: Db, email: string, removedBy = 'operator') {
  const key = normal(email);
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(organisers)
      .where(eq(organisers.email, key))
      .returning({ email: organisers.email, role: organisers.role });
    if (rows[0])
      await audit(tx, { actor: removedBy, action: 'team.removed', subject: key, detail: { role: rows[0].role } });
    return { email: key, removed: rows.length > 0 };
  });
}

/**
 * Who holds a back-office role: the configured e-mails first (admins), then the granted ones by
 * e-mail (a granted row of a configured e-mail is left out: the configuration wins).
 */
export async function organiserEntries(db: Db, configured: readonly string[]) {
  const rows = await db.select().from(organisers).orderBy(asc(organisers.email));
  return [
    ...configured.map((email) => ({
      email,
      role: 'admin' as Role,
      configured: true,
      grantedBy: null as string | null,
      createdAt: null as Date | null,
    })),
    ...rows
      .filter((r) => !configured.includes(r.email))
      .map((r) => ({
        email: r.email,
        role: r.role,
        configured: false,
        grantedBy: r.grantedBy,
        createdAt: r.createdAt,
      })),
  ];
}

/** The granted organisers and the configured ones, each marked with where the role comes from. */
export async function listOrganisers(db: Db, configured: readonly string[]) {
  return (await organiserEntries(db, configured)).map((e) => ({
    email: e.email,
    role: e.role,
    source: e.configured ? ('configuration' as const) : ('granted' as const),
    grantedBy: e.grantedBy,
    createdAt: e.createdAt,
  }));
}
