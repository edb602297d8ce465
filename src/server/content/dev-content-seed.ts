import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { devContentWorks } from '../db/schema';
import { devSubject } from '../identity/dev-identity';
import type { WorkRecord } from './works';

type SeedWork = Omit<WorkRecord, 'id'>;

/** The demo users of the README and the browser tests (the dev identity service's subjects). */
export const DEV_CONTENT_DEMO_USERS = ['amy@example.com', 'ben@example.com', 'cards@example.com'];

/** A few works per demo user: pieces and projects, several categories, prices in hundredths. */
const WORKS: SeedWork[] = [
  {
    genre: 'piece',
    categoryId: 1,
    titleEn: 'The Lighthouse Keeper',
    titleZh: '守燈人',
    priceCentsTwd: 3_000_000,
    priceCentsUsd: 100_000,
  },
  {
    genre: 'piece',
    categoryId: 4,
    titleEn: 'Tea Roads of Formosa',
    titleZh: '福爾摩沙茶路',
    priceCentsTwd: 1_500_000,
    priceCentsUsd: 50_000,
  },
  {
    genre: 'project',
    categoryId: 2,
    titleEn: 'Night Market Detectives',
    titleZh: '夜市偵探社',
    priceCentsTwd: 0,
    priceCentsUsd: 0,
  },
  {
    genre: 'project',
    categoryId: 6,
    titleEn: 'Paper Dragons',
    titleZh: '紙龍',
    priceCentsTwd: 600_000,
    priceCentsUsd: 20_000,
  },
];

/**
 * Seeds the dev content site's works of the demo users, once per user (a user who already has
 * works keeps them as they are). Only with the development identity service, whose subjects these are.
 */
export async function seedDevContent(db: Db, emails = DEV_CONTENT_DEMO_USERS): Promise<void> {
  for (const email of emails) {
    const subject = devSubject(email);
    const [existing] = await db
      .select({ id: devContentWorks.id })
      .from(devContentWorks)
      .where(eq(devContentWorks.ownerSubject, subject))
      .limit(1);
    if (existing) continue;
    await db.insert(devContentWorks).values(WORKS.map((w) => ({ ...w, ownerSubject: subject, ownerEmail: email })));
  }
}
