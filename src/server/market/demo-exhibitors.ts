import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { KINDS, kindOf, needsApproval } from '@domain/kinds';
import type { Db } from '../db/client';
import { devContentWorks, events, files, orderContents, orders, registrations, users } from '../db/schema';
import { currentEdition } from '../editions/editions';
import type { FileStorage } from '../files/storage';
import { devSubject } from '../identity/dev-identity';
import { newOrderNo } from '../orders/order-no';
import { isUniqueViolation } from '../db/db-errors';

/*
 * Demo exhibitors of the embedded default (issue 23): a few companies with paid Market
 * registrations (both Market kinds), their exhibitor forms filled, a generated logo and works of
 * the dev content site, so the exhibitor directory can be tried on a fresh `npm start`. The bench
 * asks for hundreds (`tsx scripts/db.ts demo-exhibitors --count 300`), without logos.
 */

type Company = {
  nameEn: string;
  nameZh: string;
  profileEn: string;
  profileZh: string;
  industry: number;
  categories: number[];
  country: string;
  colour: [number, number, number];
  works: { genre: 'piece' | 'project'; categoryId: number; titleEn: string; titleZh: string }[];
};

/** The demo companies (fictional). */
export const DEMO_COMPANIES: readonly Company[] = [
  {
    nameEn: 'Harbour Light Pictures',
    nameZh: '港光影業',
    profileEn: 'A Kaohsiung production company making drama series and feature films about life by the sea.',
    profileZh: '高雄製作公司，拍攝以海港生活為題的劇集與電影。',
    industry: 3,
    categories: [1, 2],
    country: 'TWN',
    colour: [14, 116, 144],
    works: [
      { genre: 'piece', categoryId: 2, titleEn: 'Tides of Cijin', titleZh: '旗津潮汐' },
      { genre: 'project', categoryId: 1, titleEn: 'The Last Ferry', titleZh: '末班渡輪' },
    ],
  },
  {
    nameEn: 'Jade Mountain Animation',
    nameZh: '玉山動畫',
    profileEn: 'Animated series for children and families, from first sketch to final render.',
    profileZh: '為兒童與家庭製作動畫影集，從草圖到算圖一手包辦。',
    industry: 4,
    categories: [1, 5],
    country: 'TWN',
    colour: [22, 163, 74],
    works: [
      { genre: 'piece', categoryId: 5, titleEn: 'Little Bear of Alishan', titleZh: '阿里山小熊' },
      { genre: 'project', categoryId: 5, titleEn: 'Cloud Sea Express', titleZh: '雲海特快車' },
    ],
  },
  {
    nameEn: 'Formosa Stories Publishing',
    nameZh: '福爾摩沙故事出版',
    profileEn: 'Publisher of Taiwanese novels and comics, offering their screen adaptation rights.',
    profileZh: '出版臺灣小說與漫畫，並洽談影視改編授權。',
    industry: 6,
    categories: [3, 6],
    country: 'TWN',
    colour: [190, 18, 60],
    works: [
      { genre: 'piece', categoryId: 12, titleEn: 'Night Train to Hualien', titleZh: '開往花蓮的夜車' },
      { genre: 'piece', categoryId: 13, titleEn: 'Temple Street Heroes', titleZh: '廟街英雄' },
    ],
  },
  {
    nameEn: 'Pacific Rim Distribution',
    nameZh: '環太平洋發行',
    profileEn: 'International sales of Asian films and series to broadcasters and platforms.',
    profileZh: '將亞洲電影與影集銷售給各國電視台與串流平台。',
    industry: 5,
    categories: [2, 6],
    country: 'JPN',
    colour: [79, 70, 229],
    works: [{ genre: 'piece', categoryId: 1, titleEn: 'Summer in Kyoto', titleZh: '京都之夏' }],
  },
  {
    nameEn: 'Seoul Wave Studios',
    nameZh: '首爾浪潮製片',
    profileEn: 'Korean drama producer looking for co-production partners in Taiwan.',
    profileZh: '韓國劇集製作公司，尋找臺灣合製夥伴。',
    industry: 3,
    categories: [1, 8],
    country: 'KOR',
    colour: [234, 88, 12],
    works: [
      { genre: 'project', categoryId: 2, titleEn: 'Two Cities, One Kitchen', titleZh: '雙城廚房' },
      { genre: 'piece', categoryId: 3, titleEn: 'Han River Nights', titleZh: '漢江之夜' },
    ],
  },
  {
    nameEn: 'StreamBridge OTT',
    nameZh: '串橋影音平台',
    profileEn: 'A streaming platform for Southeast Asia acquiring Mandarin documentaries and variety shows.',
    profileZh: '東南亞串流平台，採購華語紀錄片與綜藝節目。',
    industry: 2,
    categories: [4],
    country: 'SGP',
    colour: [147, 51, 234],
    works: [{ genre: 'piece', categoryId: 4, titleEn: 'Kitchens of the Straits', titleZh: '海峽廚房' }],
  },
];

/** The e-mail of the demo exhibitor `i` (dev identity service: anyone signs in with it). */
export const demoExhibitorEmail = (i: number) => `exhibitor${i + 1}@example.com`;

/** A square logo: the company's colour with a white band, as PNG. */
export function demoLogo([r, g, b]: [number, number, number], size = 160): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const band = y > size * 0.4 && y < size * 0.6 && x > size * 0.15 && x < size * 0.85;
      png.data[i] = band ? 255 : r;
      png.data[i + 1] = band ? 255 : g;
      png.data[i + 2] = band ? 255 : b;
      png.data[i + 3] = 255;
    }
  return new Uint8Array(PNG.sync.write(png));
}

/** The company of demo exhibitor `i`: one of the demo companies, numbered beyond them (the bench's hundreds). */
function companyOf(i: number): Company {
  const base = DEMO_COMPANIES[i % DEMO_COMPANIES.length]!;
  if (i < DEMO_COMPANIES.length) return base;
  const n = i + 1;
  return {
    ...base,
    nameEn: `${base.nameEn} ${n}`,
    nameZh: `${base.nameZh} ${n} 號`,
    industry: (i % 8) + 1,
    categories: [(i % 14) + 1],
    works: base.works.map((w, k) => ({ ...w, categoryId: ((i + k) % 16) + 1, titleEn: `${w.titleEn} ${n}` })),
  };
}

/**
 * Seeds `count` demo exhibitors (default: the demo companies) on the current Market events, the
 * two kinds in turn: each a user, its works on the dev content site, a paid order (approved
 * first where the event asks for approval), its registration with the exhibitor form filled, and
 * a logo when `storage` is given. Idempotent: an exhibitor whose user already has an order for
 * the event is left as it is. Returns how many were added.
 */
export async function seedDemoExhibitors(
  db: Db,
  storage: FileStorage | null,
  options: { count?: number; now?: Date } = {},
): Promise<number> {
  const count = options.count ?? DEMO_COMPANIES.length;
  const now = options.now ?? new Date();
  const marketTypes = KINDS.filter((k) => k.form?.type === 'exhibitor').map((k) => k.eventType);
  // The current edition's (the directory lists that edition's exhibitors only).
  const edition = await currentEdition(db);
  const marketEvents = (
    await db
      .select()
      .from(events)
      .where(and(inArray(events.type, marketTypes), edition ? eq(events.editionId, edition.id) : undefined))
      .orderBy(asc(events.slug))
  ).filter((e) => e.status === 'published');
  // One event of each Market kind, taken in turn.
  const perKind = marketTypes.map((type) => marketEvents.find((e) => e.type === type)).filter((e) => e !== undefined);
  if (perKind.length === 0) return 0;
  let added = 0;
  for (let i = 0; i < count; i++) {
    const event = perKind[i % perKind.length]!;
    const kind = kindOf(event.type);
    const company = companyOf(i);
    const email = demoExhibitorEmail(i);
    const subject = devSubject(email);
    const [user] = await db
      .insert(users)
      .values({ subject, email, name: company.nameEn })
      .onConflictDoUpdate({ target: users.subject, set: { email } })
      .returning({ id: users.id });
    const [existing] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, user!.id), eq(orders.eventId, event.id)))
      .limit(1);
    if (existing) continue;
    const works = await db
      .insert(devContentWorks)
      .values(company.works.map((w) => ({ ...w, ownerSubject: subject, ownerEmail: email })))
      .returning();
    let logoFileId: string | null = null;
    if (storage) {
      const bytes = demoLogo(company.colour);
      const id = randomUUID();
      const storageKey = `${id.slice(0, 2)}/${id}`;
      await storage.put(storageKey, bytes);
      await db.insert(files).values({
        id,
        ownerId: user!.id,
        name: 'logo.png',
        contentType: 'image/png',
        size: bytes.length,
        storageKey,
        purpose: 'company_logo',
      });
      logoFileId = id;
    }
    const price = event.priceCentsTwd;
    // Instances started together on one database seed at once: the one whose order came second
    // finds the exhibitor already there (the one live order per user and event) and moves on.
    const placed = await db
      .transaction(async (tx) => {
        const [order] = await tx
          .insert(orders)
          .values({
            orderNo: newOrderNo('EX'),
            userId: user!.id,
            eventId: event.id,
            registrationType: kind.registrationTypes[0],
            paymentStatus: price > 0 ? 'paid' : 'free',
            approvalStatus: needsApproval(kind, event) ? 'approved' : null,
            approvedAt: needsApproval(kind, event) ? now : null,
            amountCents: price,
            unitPriceTwdCents: price,
            totalTwdCents: price,
            paymentType: price > 0 ? 'credit_card' : null,
            paidAt: price > 0 ? now : null,
            locale: i % 2 === 0 ? 'en' : 'zh-TW',
          })
          .returning({ id: orders.id });
        await tx.insert(registrations).values({
          orderId: order!.id,
          userId: user!.id,
          form: {
            marketIdentity: kind.market?.participationTypes[0] ?? 1,
            companyNameZh: company.nameZh,
            companyNameEn: company.nameEn,
            companyProfileZh: company.profileZh,
            companyProfileEn: company.profileEn,
            companyIndustry: company.industry,
            companyBusinessCategory: company.categories,
            companyCountry: company.country,
            companyLogoFileId: logoFileId,
            copyrightContacts: [
              {
                key: `demo-exhibitor-${String(i).padStart(6, '0')}`.slice(0, 21),
                nameZh: '林小姐',
                nameEn: 'Ms Lin',
                positionZh: '版權經理',
                positionEn: 'Rights manager',
                phone: '886-2-2345-6789',
                email: `rights+${i + 1}@example.com`,
              },
            ],
            agreeTerms: true,
            agreeDisclosure: true,
          },
          contact: {
            contactName: 'Amy Lin',
            contactTitle: 'Business development',
            contactPhone: '886-912-345-678',
            contactEmail: email,
          },
        });
        await tx.insert(orderContents).values(
          works.map((w) => ({
            orderId: order!.id,
            contentId: String(w.id),
            title: w.titleEn,
            titleZh: w.titleZh,
            genre: w.genre,
            categoryId: w.categoryId,
          })),
        );
      })
      .then(
        () => true,
        (error: unknown) => {
          if (isUniqueViolation(error)) return false;
          throw error;
        },
      );
    if (placed) added++;
  }
  return added;
}
