/**
 * Browser-test data, run by playwright.config.ts before the server starts (which holds the PGlite
 * database from then on): a Market early-bird event and a Story to Screen event of their own for
 * contact-deadline.spec.ts, which moves their form deadline into the past, and a general event of
 * one seat for kinds.spec.ts, which fills it. Copies of the seeded ones under other slugs, so those
 * tests never change an event the other suites use while they run.
 */
import { join } from 'node:path';
import { getConfig } from '@server/config';
import { openDatabase } from '@server/db/client';
import { events } from '@server/db/schema';
import { seed, seedEvents } from '@server/db/seed';

const config = getConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: join(config.dataDir, 'pglite') });
try {
  await seed(database.db);
  const seeded = seedEvents();
  const copy = (slug: string, type: string, label: string, test = 'deadline') => {
    const event = seeded.find((e) => e.type === type)!;
    const zh = test === 'deadline' ? '期限測試' : '額滿測試';
    return { ...event, slug, nameEn: `${label} (${test} test)`, nameZh: `${event.nameZh}（${zh}）` };
  };
  await database.db
    .insert(events)
    .values([
      copy('deadline-market-earlybird', 'market_earlybird', 'Market early-bird'),
      copy('deadline-pitching-story', 'pitching_story', 'Story to Screen'),
      { ...copy('full-forum', 'event_general', 'Opening forum', 'full'), capacity: 1 },
    ])
    .onConflictDoNothing();
  console.log('deadline test events ready');
} finally {
  await database.close();
}
