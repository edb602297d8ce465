/**
 * The exhibitor side of a meeting: its people. Whether an exhibitor is listed (may be booked, has
 * a page) is the directory's one answer, `listedExhibitor` in src/server/market/directory.ts; what
 * stays here is what only the meetings need: who takes part in an exhibitor's meetings and who is
 * told about them, reachable for the meetings it already has even after it leaves the directory.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { orders, registrations, users } from '../db/schema';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The people of an exhibitor: the owner of its Market order (a user, who takes part in its
 * meetings) and the e-mails of its contact info (told about requests, may answer them).
 */
export type ExhibitorPeople = {
  ownerId: string;
  /** Lower-cased, the owner's first. */
  emails: string[];
  locale: 'en' | 'zh-TW' | null;
};

export async function exhibitorPeople(db: Db | Tx, id: string): Promise<ExhibitorPeople | undefined> {
  const [row] = await db
    .select({
      contact: registrations.contact,
      ownerId: orders.userId,
      ownerEmail: users.email,
      locale: orders.locale,
    })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(sql`${registrations.id} = ${id}::uuid`)
    .limit(1);
  if (!row) return undefined;
  const contact = text(row.contact?.contactEmail).toLowerCase();
  const emails = [...new Set([row.ownerEmail.toLowerCase(), ...(contact ? [contact] : [])])];
  return { ownerId: row.ownerId, emails, locale: row.locale };
}

/** SQL: the registrations whose exhibitor side `user` is (the order's owner, or the contact's e-mail). */
export const exhibitorSideOf = (user: { id: string; email: string }) =>
  sql`(${orders.userId} = ${user.id}::uuid or lower(${registrations.contact}->>'contactEmail') = ${user.email.toLowerCase()})`;
