import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { isUniqueViolation } from './db-errors';
import { eventChanges, events, meetingSettings, pickupSlots } from './schema';
import { ensureSeedEdition } from '../editions/editions';
import { saveMeetingSettings } from '../meetings/meetings';

const DAY = 24 * 60 * 60 * 1000;

/** Midnight in Taipei (UTC+8, no daylight saving) of the day `days` after `now`. */
function taipeiDay(now: Date, days: number, hour = 0, minute = 0): Date {
  const taipei = new Date(now.getTime() + 8 * 60 * 60 * 1000);
  const utcMidnight = Date.UTC(taipei.getUTCFullYear(), taipei.getUTCMonth(), taipei.getUTCDate());
  return new Date(utcMidnight + days * DAY + (hour - 8) * 60 * 60 * 1000 + minute * 60 * 1000);
}

type SeedEvent = typeof events.$inferInsert;

/**
 * The conference's events: one of each type of spec §3, plus a general event whose registration
 * has closed and one not yet open. Dates are relative to `now` so a fresh
 * start can register: registration opened a week ago and closes the day before the conference,
 * which starts three weeks from now.
 */
/** The first day of the seeded edition's fair: three weeks from today. */
const FAIR_DAY0 = 21;
/** How many days the fair lasts (day0 … day0 + 8, as the spec's 11/4–11/12). */
const FAIR_DAYS = 9;

export function seedEvents(now = new Date()): SeedEvent[] {
  const day0 = FAIR_DAY0;
  const window = {
    registerStartAt: taipeiDay(now, -7),
    registerEndAt: taipeiDay(now, day0 - 1, 23, 59),
    formModifyExpiresAt: taipeiDay(now, day0 - 7, 23, 59),
  };
  const fair = {
    startTime: taipeiDay(now, day0, 9, 30),
    endAt: taipeiDay(now, day0 + FAIR_DAYS - 1, 17, 0),
    locationEn: 'Taipei Nangang Exhibition Center, Hall 2',
    locationZh: '臺北南港展覽館二館',
  };
  /** Hours on the day `day` after today (Taipei), from `from` to `to` o'clock. */
  const hours = (day: number, from: number, to: number) => ({
    startTime: taipeiDay(now, day, from),
    endAt: taipeiDay(now, day, to),
  });
  /** A room or stage of the fair's hall, in both languages. */
  const hall = (en: string, zh: string) => ({
    locationEn: `${fair.locationEn}, ${en}`,
    locationZh: `${fair.locationZh} ${zh}`,
  });
  return [
    {
      slug: 'badge-professional',
      type: 'badge_professional',
      ...window,
      ...fair,
      nameEn: 'Professional badge',
      nameZh: '專業人士識別證',
      descriptionEn:
        'Access to the Market, pitching sessions and forums for industry professionals. Picked up at the venue.',
      descriptionZh: '供業界專業人士進入市場展、提案大會與論壇，於現場領取。',
      priceCentsTwd: 100_000,
      priceCentsUsd: 3_500,
    },
    {
      slug: 'badge-free',
      type: 'badge_free',
      ...window,
      ...fair,
      nameEn: 'Free badge',
      nameZh: '免費識別證',
      descriptionEn: 'Issued through a one-time link sent by the organiser.',
      descriptionZh: '透過主辦單位寄送的一次性連結領取。',
    },
    {
      slug: 'pitching-session-audit',
      type: 'event_audit',
      ...window,
      ...hours(day0 + 1, 10, 17),
      ...hall('Room 201', '201 會議室'),
      nameEn: 'Pitching sessions (audit)',
      nameZh: '提案大會旁聽',
      descriptionEn: 'Sit in on the Project to Screen pitches. Seats are confirmed by the organiser.',
      descriptionZh: '旁聽「專案提案」現場提案，席次經主辦單位審核後確認。',
      capacity: 60,
      requiresApproval: true,
    },
    {
      slug: 'opening-forum',
      type: 'event_general',
      ...window,
      ...hours(day0, 14, 16),
      ...hall('Main Stage', '主舞臺'),
      nameEn: 'Opening forum: The future of Asian series',
      nameZh: '開幕論壇：亞洲影集的未來',
      descriptionEn: 'Showrunners and platform executives on co-production across Asia.',
      descriptionZh: '影集統籌與平臺主管對談亞洲跨國合製。',
      capacity: 200,
    },
    {
      // Registration closed yesterday: shows the closed message.
      slug: 'industry-preview-night',
      type: 'event_general',
      registerStartAt: taipeiDay(now, -30),
      registerEndAt: taipeiDay(now, -1, 23, 59),
      formModifyExpiresAt: taipeiDay(now, -1, 23, 59),
      ...hours(day0 - 1, 19, 21),
      ...hall('Room 401', '401 會議室'),
      nameEn: 'Industry preview night',
      nameZh: '產業預覽之夜',
      descriptionEn: 'An evening preview of the Market for industry guests.',
      descriptionZh: '為業界來賓舉辦的市場展預覽晚會。',
      capacity: 80,
    },
    {
      // Registration opens in a week: shows the not-yet-open message.
      slug: 'closing-awards',
      type: 'event_general',
      registerStartAt: taipeiDay(now, 7),
      registerEndAt: taipeiDay(now, day0 + 7, 12, 0),
      formModifyExpiresAt: taipeiDay(now, day0 + 7, 12, 0),
      ...hours(day0 + 8, 18, 20),
      ...hall('Main Stage', '主舞臺'),
      nameEn: 'Closing awards ceremony',
      nameZh: '閉幕頒獎典禮',
      descriptionEn: 'The pitching awards and the closing of the fest.',
      descriptionZh: '提案大會頒獎與閉幕。',
      capacity: 300,
    },
    {
      slug: 'online-masterclass',
      type: 'event_online',
      ...window,
      ...hours(day0 + 2, 19, 21),
      locationEn: 'Online',
      locationZh: '線上',
      nameEn: 'Online masterclass: Developing a story for the screen',
      nameZh: '線上大師課：從故事到影像的開發',
      descriptionEn: 'A live-streamed masterclass on adapting stories for film and series.',
      descriptionZh: '線上直播大師課，談故事改編為電影與影集。',
    },
    {
      slug: 'market-earlybird',
      type: 'market_earlybird',
      ...window,
      ...fair,
      nameEn: 'TCCF Market: early-bird exhibitor registration',
      nameZh: 'TCCF 市場展早鳥報名',
      descriptionEn: 'Register as an exhibitor of the Market with your works.',
      descriptionZh: '以作品報名成為市場展展商。',
      capacity: 120,
    },
    {
      slug: 'market-online',
      type: 'market_online',
      ...window,
      ...fair,
      nameEn: 'TCCF Online Market',
      nameZh: 'TCCF 線上市場展',
      descriptionEn: 'Online exhibition with 4 badges included and no physical booth.',
      descriptionZh: '線上展出，含 4 張識別證，不含實體攤位。',
      priceCentsTwd: 600_000,
      priceCentsUsd: 20_000,
      originalPriceCentsTwd: 1_000_000,
    },
    {
      slug: 'pitching-project',
      type: 'pitching_project',
      ...window,
      ...fair,
      nameEn: 'Pitching: Project to Screen',
      nameZh: '提案大會：專案提案（Project to Screen）',
      descriptionEn: 'Submit film and series projects to pitch to international buyers and investors.',
      descriptionZh: '提交電影與影集專案，向國際買家與投資方提案。',
      priceCentsTwd: 100_000,
      priceCentsUsd: 3_500,
    },
    {
      slug: 'pitching-story',
      type: 'pitching_story',
      ...window,
      ...fair,
      nameEn: 'Pitching: Story to Screen',
      nameZh: '提案大會：故事提案（Story to Screen）',
      descriptionEn: 'Submit published stories for screen adaptation.',
      descriptionZh: '提交已出版故事，尋求影視改編。',
      priceCentsTwd: 100_000,
      priceCentsUsd: 3_500,
    },
  ];
}

/** A Taipei calendar date `YYYY-MM-DD`, `days` after today's. */
function taipeiDate(now: Date, days: number): string {
  return taipeiDay(now, days, 8).toISOString().slice(0, 10);
}

type SeedPickupSlot = typeof pickupSlots.$inferInsert & { id: string };

/**
 * The badge pick-up schedule of the seeded edition: the spec's pattern (service station the first
 * three days, the business meeting centre in the middle, from 09:00 on its first day, the service
 * station again the last two) laid over the fair's days, so every slot falls inside the edition.
 * Fixed ids: re-seeding moves these rows and leaves any other slot alone.
 */
export function seedPickupSlots(now = new Date()): SeedPickupSlot[] {
  const station = { placeEn: 'Service station', placeZh: '服務台' };
  const centre = { placeEn: 'Business meeting centre', placeZh: '商洽中心' };
  const day = (n: number) => taipeiDate(now, FAIR_DAY0 + n);
  const last = FAIR_DAYS - 1;
  return [
    {
      id: '5eed0000-0000-4000-8000-000000000001',
      firstDay: day(0),
      lastDay: day(2),
      opensAt: '09:30',
      closesAt: '17:00',
      ...station,
    },
    {
      id: '5eed0000-0000-4000-8000-000000000002',
      firstDay: day(3),
      lastDay: day(3),
      opensAt: '09:00',
      closesAt: '17:00',
      ...centre,
    },
    {
      id: '5eed0000-0000-4000-8000-000000000003',
      firstDay: day(4),
      lastDay: day(last - 2),
      opensAt: '09:30',
      closesAt: '17:00',
      ...centre,
    },
    {
      id: '5eed0000-0000-4000-8000-000000000004',
      firstDay: day(last - 1),
      lastDay: day(last),
      opensAt: '09:30',
      closesAt: '17:00',
      ...station,
    },
  ];
}

/**
 * Inserts the conference's events and the badge pick-up schedule. Idempotent: re-running moves
 * the seeded events' and pick-up slots' dates to stay relative to today and leaves everything
 * else (orders, seats taken, slots the seed did not make, and events an organiser changed in the
 * back office) untouched. Seeded event names are rewritten
 * too, so a corrected name reaches a database seeded before the correction.
 */
export async function seed(db: Db, now = new Date()): Promise<void> {
  const seeded = seedEvents(now);
  const editionId = await ensureSeedEdition(db, Math.min(...seeded.map((e) => e.startTime.getFullYear())));
  for (const event of seeded) {
    await db
      .insert(events)
      .values({ ...event, editionId })
      .onConflictDoUpdate({
        target: events.slug,
        set: {
          nameEn: event.nameEn,
          nameZh: event.nameZh,
          registerStartAt: event.registerStartAt,
          registerEndAt: event.registerEndAt,
          formModifyExpiresAt: event.formModifyExpiresAt,
          startTime: event.startTime,
          endAt: event.endAt,
          updatedAt: sql`now()`,
        },
        // An event an organiser has changed in the back office keeps their dates and names.
        setWhere: sql`not exists (select 1 from ${eventChanges} where ${eventChanges.eventId} = ${events.id})`,
      });
  }
  for (const slot of seedPickupSlots(now)) {
    const { id: _id, ...fields } = slot;
    await db
      .insert(pickupSlots)
      .values({ ...slot, editionId })
      .onConflictDoUpdate({ target: pickupSlots.id, set: fields });
  }
  await seedMeetings(db, editionId, now);
}

/**
 * The business meeting centre of the seeded edition (issue 23), once: the fair's middle days,
 * 10:00–17:00 in 30-minute slots, eight tables, so a booking can be tried on a fresh start. An
 * edition already set up (by an organiser, or an earlier start) is left as it is.
 */
async function seedMeetings(db: Db, editionId: string, now: Date) {
  const [existing] = await db
    .select({ id: meetingSettings.editionId })
    .from(meetingSettings)
    .where(sql`${meetingSettings.editionId} = ${editionId}`);
  if (existing) return;
  const days = [3, 4, 5].map((n) => taipeiDate(now, FAIR_DAY0 + n));
  // Instances started together seed at once: the one that came second finds it set up.
  await saveMeetingSettings(
    db,
    { id: editionId },
    {
      days,
      opensAt: '10:00',
      closesAt: '17:00',
      slotMinutes: 30,
      pendingCap: 5,
      dailyCap: 8,
      cancelCutoffHours: 24,
      requestExpiryHours: 48,
      tables: ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4'],
    },
    'seed',
  ).catch((error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
  });
}

/** A postal address in the words of one language (schema.org PostalAddress). */
export type VenueAddress = {
  streetAddress: string;
  addressLocality: string;
  addressRegion: string;
  postalCode: string;
  addressCountry: string;
};

/**
 * The edition's venue, Taipei Nangang Exhibition Center Hall 2, in both languages. Events have no
 * address columns yet: every event held in person is at this venue (its `location` names the hall
 * or room), and the event view serves this address with it.
 */
export const VENUE_ADDRESS: { en: VenueAddress; zh: VenueAddress } = {
  en: {
    streetAddress: 'No. 2, Jingmao 2nd Rd.',
    addressLocality: 'Nangang District',
    addressRegion: 'Taipei City',
    postalCode: '115',
    addressCountry: 'TW',
  },
  zh: {
    streetAddress: '經貿二路 2 號',
    addressLocality: '南港區',
    addressRegion: '臺北市',
    postalCode: '115',
    addressCountry: 'TW',
  },
};

/** The conference's image (public/), for any event without one of its own. */
export const DEFAULT_EVENT_IMAGE = '/images/events/conference.jpg';

/** Event images by slug (public/); events have no image column yet, so the view reads them here. */
export const EVENT_IMAGES: Readonly<Record<string, string>> = {
  'market-earlybird': '/images/events/market.jpg',
  'market-online': '/images/events/market.jpg',
  'pitching-project': '/images/events/pitching.jpg',
  'pitching-story': '/images/events/pitching.jpg',
  'pitching-session-audit': '/images/events/pitching.jpg',
  'online-masterclass': '/images/events/online.jpg',
};
