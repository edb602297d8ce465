import { desc, like } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auditLog } from '../db/schema';

/*
 * The back office's audit trail (issue 21): one row per action, with who did it. Written in the
 * transaction of the change it records (pass the `tx`), so the change and its record are kept or
 * lost together. Order actions have their own trail (order_events), event changes theirs.
 */

export type AuditEntry = {
  /** The team member's e-mail (or the operator's name). */
  actor: string;
  /** `<capability>.<verb>`, e.g. `team.invited`. */
  action: string;
  /** What it was done to: an e-mail, an id… */
  subject: string;
  detail?: Record<string, unknown>;
};

export type AuditRow = typeof auditLog.$inferSelect;

/** Records one action; answers its row. */
export async function audit(db: Db | Tx, entry: AuditEntry): Promise<AuditRow> {
  const [row] = await db
    .insert(auditLog)
    .values({ actor: entry.actor, action: entry.action, subject: entry.subject, detail: entry.detail ?? {} })
    .returning();
  return row!;
}

/** The newest entries whose action starts with `prefix` (e.g. `team.`), newest first. */
export function recentAudit(db: Db | Tx, prefix: string, limit = 50): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(like(auditLog.action, `${prefix.replace(/[\\%_]/g, '\\$&')}%`))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}
