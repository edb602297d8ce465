import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { events } from './schema';

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
export function seedEvents(now = new Date()): SeedEvent[] {
  const day0 = 21;
  const window = {
    registerStartAt: taipeiDay(now, -7),
    registerEndAt: taipeiDay(now, day0 - 1, 23, 59),
    formModifyExpiresAt: taipeiDay(now, day0 - 7, 23, 59),
  };
  const fair = {
    startTime: taipeiDay(now, day0, 9, 30),
    endAt: taipeiDay(now, day0 + 8, 17, 0),
    locationEn: 'Taipei Nangang Exhibition Center, Hall 2',
    locationZh: '臺北南港展覽館二館',
  };
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
      startTime: taipeiDay(now, day0 + 1, 10, 0),
      endAt: taipeiDay(now, day0 + 1, 17, 0),
      locationEn: 'Taipei Nangang Exhibition Center, Hall 2, Room 201',
      locationZh: '臺北南港展覽館二館 201 會議室',
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
      startTime: taipeiDay(now, day0, 14, 0),
      endAt: taipeiDay(now, day0, 16, 0),
      locationEn: 'Taipei Nangang Exhibition Center, Hall 2, Main Stage',
      locationZh: '臺北南港展覽館二館 主舞臺',
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
      startTime: taipeiDay(now, day0 - 1, 19, 0),
      endAt: taipeiDay(now, day0 - 1, 21, 0),
      locationEn: 'Taipei Nangang Exhibition Center, Hall 2, Room 401',
      locationZh: '臺北南港展覽館二館 401 會議室',
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
      startTime: taipeiDay(now, day0 + 8, 18, 0),
      endAt: taipeiDay(now, day0 + 8, 20, 0),
      locationEn: 'Taipei Nangang Exhibition Center, Hall 2, Main Stage',
      locationZh: '臺北南港展覽館二館 主舞臺',
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
      startTime: taipeiDay(now, day0 + 2, 19, 0),
      endAt: taipeiDay(now, day0 + 2, 21, 0),
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
      nameZh: '提案大會：專案提案 (Project to Screen)',
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
      nameZh: '提案大會：故事提案 (Story to Screen)',
      descriptionEn: 'Submit published stories for screen adaptation.',
      descriptionZh: '提交已出版故事，尋求影視改編。',
      priceCentsTwd: 100_000,
      priceCentsUsd: 3_500,
    },
  ];
}

/**
 * Inserts the conference's events. Idempotent: re-running moves the seeded events' dates to stay
 * relative to today and leaves everything else (orders, seats taken) untouched.
 */
export async function seed(db: Db, now = new Date()): Promise<void> {
  for (const event of seedEvents(now)) {
    await db
      .insert(events)
      .values(event)
      .onConflictDoUpdate({
        target: events.slug,
        set: {
          registerStartAt: event.registerStartAt,
          registerEndAt: event.registerEndAt,
          formModifyExpiresAt: event.formModifyExpiresAt,
          startTime: event.startTime,
          endAt: event.endAt,
          updatedAt: sql`now()`,
        },
      });
  }
}
