/**
 * The exhibitor side of a meeting: a Market registration listed in the directory, and its people.
 *
 * `listedExhibitor` asks what the directory (src/server/market/directory.ts) shows: the Market
 * order is complete (paid, or free and approved) and the exhibitor has not opted out of the
 * directory; its people stay reachable for the meetings it already has.
 */
import { eq, sql } from 'drizzle-orm';
import { KINDS } from '@domain/kinds';
import { headlineStatus } from '@domain/orders';
import type { Db, Tx } from '../db/client';
import { events, orders, registrations, users } from '../db/schema';

/** What the meetings need of a directory entry. */
export type DirectoryExhibitor = { id: string; companyNameEn: string; companyNameZh: string };

/** The event types of the Market kinds (asked of the kinds' registry). */
const MARKET_EVENT_TYPES = KINDS.filter((k) => k.market).map((k) => k.eventType);

async function exhibitorRow(db: Db | Tx, id: string) {
  const [row] = await db
    .select({
      id: registrations.id,
      form: registrations.form,
      contact: registrations.contact,
      eventType: events.type,
      paymentStatus: orders.paymentStatus,
      approvalStatus: orders.approvalStatus,
      ownerId: orders.userId,
      ownerEmail: users.email,
      locale: orders.locale,
      directoryListed: registrations.directoryListed,
    })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(sql`${registrations.id} = ${id}::uuid`)
    .limit(1);
  if (!row || !(MARKET_EVENT_TYPES as readonly string[]).includes(row.eventType)) return undefined;
  if (headlineStatus(row) !== 'completed') return undefined;
  return row;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The exhibitor `id` (its Market registration's id) when it is in the directory. */
export async function listedExhibitor(db: Db | Tx, id: string): Promise<DirectoryExhibitor | undefined> {
  const row = await exhibitorRow(db, id);
  if (!row?.directoryListed) return undefined;
  return { id: row.id, companyNameEn: text(row.form.companyNameEn), companyNameZh: text(row.form.companyNameZh) };
}

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
  const row = await exhibitorRow(db, id);
  if (!row) return undefined;
  const contact = text(row.contact?.contactEmail).toLowerCase();
  const emails = [...new Set([row.ownerEmail.toLowerCase(), ...(contact ? [contact] : [])])];
  return { ownerId: row.ownerId, emails, locale: row.locale };
}

/** SQL: the registrations whose exhibitor side `user` is (the order's owner, or the contact's e-mail). */
export const exhibitorSideOf = (user: { id: string; email: string }) =>
  sql`(${orders.userId} = ${user.id}::uuid or lower(${registrations.contact}->>'contactEmail') = ${user.email.toLowerCase()})`;
